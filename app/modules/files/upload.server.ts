/**
 * Reading an upload off a request. A file is larger than the forms and JSON every other route reads
 * (MAX_BODY_BYTES), so the paths below get their own body limit — in server.ts, which refuses a larger
 * declared length before anything is read, and here, while streaming. A file a little over FILES_MAX_BYTES
 * still reaches the files service, which refuses it with a message beside the field that says the limit;
 * only a body far beyond it is cut off early with a 413.
 */
import { data, type AppLoadContext } from "@remix-run/node";
import { assertGuarded } from "~/lib/callers.server";
import type { Env } from "~/lib/env.server";
import { invalid } from "~/lib/errors";
import type { FormResult } from "~/lib/forms.server";
import { sizeLabel } from "./inspect.server";
import { HttpError, asHttpError, noteFailure, readBodyBytes, retryAfterHeaders } from "~/lib/http.server";

/**
 * The routes that take files: the media library's form, the editor API's media routes, a product's editor (its
 * images) and the shop's CSV import.
 */
const UPLOAD_PATHS =
  /^\/(website\/media\/?|api\/editor\/branding\/media(\/[^/]+)?\/?|shop\/products\/[^/]+\/?|shop\/import\/?)$/;

/** Room for the multipart envelope and the form's other fields. */
const ENVELOPE_BYTES = 256 * 1024;

/** The body limit of a path that takes uploads; undefined for every other path. */
export function uploadBodyLimit(path: string, env: Pick<Env, "FILES_MAX_BYTES" | "MAX_BODY_BYTES">) {
  if (!UPLOAD_PATHS.test(path)) return undefined;
  return Math.max(env.MAX_BODY_BYTES, 2 * env.FILES_MAX_BYTES + ENVELOPE_BYTES);
}

export interface UploadedFile {
  bytes: Uint8Array;
  filename: string;
}

export interface UploadRequest {
  /** The form's text fields (empty for a raw upload). */
  values: Record<string, string>;
  /** The file sent as the form's `file` field, or as the whole body; undefined when none was chosen. */
  file?: UploadedFile;
}

const MULTIPART = /^multipart\/form-data\b/i;
const FORM = /^application\/x-www-form-urlencoded\b/i;
const RAW = /^(image\/[\w.+-]+|application\/octet-stream)\b/i;

/**
 * Reads a multipart form (a file in `file`), a plain form (no file: the page's other forms), or — for API
 * callers — the file as the raw body with `?filename=`. Authenticate before calling it: an anonymous
 * caller's body is never read. `tooLarge`: what a body past the limit becomes (the console shows it
 * beside the field; the API answers 413).
 */
export async function readUpload(
  request: Request,
  context: AppLoadContext,
  tooLarge: "field" | "413" = "413",
): Promise<UploadRequest> {
  assertGuarded(context);
  const { env } = context.services;
  const type = request.headers.get("content-type") ?? "";
  const limit = uploadBodyLimit(new URL(request.url).pathname, env) ?? env.MAX_BODY_BYTES;
  let bytes: Buffer;
  try {
    bytes = await readBodyBytes(request, limit);
  } catch (error) {
    if (tooLarge === "field" && error instanceof HttpError && error.statusCode === 413) {
      const message = `This file is too large: files may be at most ${sizeLabel(env.FILES_MAX_BYTES)}`;
      throw invalid(message, [{ field: "file", message }]);
    }
    throw error;
  }
  if (RAW.test(type)) {
    const filename = new URL(request.url).searchParams.get("filename") ?? "upload";
    return { values: {}, file: bytes.byteLength ? { bytes: new Uint8Array(bytes), filename } : undefined };
  }
  if (!MULTIPART.test(type) && !FORM.test(type)) {
    throw new HttpError(415, "Send the file as multipart/form-data (field `file`) or as the body with an image type");
  }
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), { headers: { "content-type": type } }).formData();
  } catch {
    throw new HttpError(400, "The form could not be read");
  }
  const values: Record<string, string> = {};
  let file: UploadedFile | undefined;
  for (const [key, value] of form) {
    if (typeof value === "string") values[key] = value;
    else if (key === "file" && value.size > 0) {
      file = { bytes: new Uint8Array(await value.arrayBuffer()), filename: value.name || "upload" };
    }
  }
  return { values, file };
}

/**
 * `runForm` (app/lib/forms.server.ts) for a console form that may carry a file: the same refusals beside
 * the field, read with the upload limit instead of MAX_BODY_BYTES, and a body past it is a message beside
 * the file field rather than a bare 413.
 */
export async function runUploadForm<T>(
  request: Request,
  context: AppLoadContext,
  run: (upload: UploadRequest) => Promise<T>,
) {
  let values: Record<string, string> = {};
  try {
    const upload = await readUpload(request, context, "field");
    values = upload.values;
    return await run(upload);
  } catch (thrown) {
    const error = asHttpError(thrown);
    if (!error || (error.statusCode >= 500 && error.statusCode !== 503)) throw thrown;
    noteFailure(context, thrown, error.statusCode);
    const fieldErrors: Record<string, string> = {};
    for (const issue of error.extra.issues ?? []) fieldErrors[issue.field] ??= issue.message;
    return data<FormResult & { fileId?: string }>(
      { ok: false, intent: values.intent, fileId: values.fileId, message: error.message, fieldErrors },
      { status: error.statusCode, headers: retryAfterHeaders(error) },
    );
  }
}
