/**
 * Console forms (DESIGN conventions: work without JavaScript, validate on the server, show field errors
 * next to the field). `runForm` reads the posted form (size limit, content type) and runs the action;
 * any refusal it throws (a domain error, or an `HttpError` 4xx such as an unreadable form) becomes a
 * `FormResult` returned with its status, so the page renders it in place. Authenticate before calling it: an
 * anonymous caller's body is never read.
 */
import { data, type AppLoadContext } from "@remix-run/node";
import type { z } from "zod";
import { assertGuarded } from "./callers.server";
import { invalid, issuesOf } from "./errors";
import { HttpError, asHttpError, noteFailure, readBodyBytes, retryAfterHeaders } from "./http.server";

export interface FormResult {
  ok: boolean;
  /** Which form on the page answered (pages with several forms send an `intent` field). */
  intent?: string;
  message?: string;
  fieldErrors?: Record<string, string>;
}

export type FormValues = Record<string, string>;

const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

export async function readForm(request: Request, context: AppLoadContext): Promise<FormValues> {
  assertGuarded(context);
  const type = request.headers.get("content-type") ?? "";
  if (!FORM_TYPES.test(type)) throw new HttpError(415, "Send the form as a browser does (a form post)");
  const bytes = await readBodyBytes(request, context.services.env.MAX_BODY_BYTES);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), { headers: { "content-type": type } }).formData();
  } catch {
    throw new HttpError(400, "The form could not be read");
  }
  const values: FormValues = {};
  // A repeated name (a multiple select, checkboxes sharing a name) arrives as its values joined by commas.
  for (const [key, value] of form) {
    if (typeof value !== "string") continue;
    values[key] = key in values ? `${values[key]},${value}` : value;
  }
  return values;
}

export function parseForm<S extends z.ZodType>(schema: S, values: FormValues): z.output<S> {
  const parsed = schema.safeParse(values);
  if (!parsed.success) throw invalid("Check the highlighted fields", issuesOf(parsed.error));
  return parsed.data;
}

/**
 * `refused` adds what the page needs to show the form again beside the error (e.g. the unsaved draft, and
 * which panel answered).
 */
export async function runForm<T>(
  request: Request,
  context: AppLoadContext,
  run: (values: FormValues) => Promise<T>,
  refused?: (values: FormValues) => Partial<FormResult> & Record<string, unknown>,
) {
  let values: FormValues = {};
  try {
    values = await readForm(request, context);
    return await run(values);
  } catch (thrown) {
    const error = asHttpError(thrown);
    // A full disk (503) is shown beside the form like a refusal: the operator's input is kept for a retry.
    if (!error || (error.statusCode >= 500 && error.statusCode !== 503)) throw thrown;
    noteFailure(context, thrown, error.statusCode);
    const fieldErrors: Record<string, string> = {};
    for (const issue of error.extra.issues ?? []) fieldErrors[issue.field] ??= issue.message;
    return data<FormResult>(
      { ok: false, intent: values.intent, message: error.message, fieldErrors, ...refused?.(values) },
      { status: error.statusCode, headers: retryAfterHeaders(error) },
    );
  }
}
