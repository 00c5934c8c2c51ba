/**
 * The error contract (DESIGN rule 3): modules throw domain errors (app/lib/errors.ts), the HTTP layer throws
 * `HttpError`s for what only HTTP can get wrong (a method, a content type, a body too large), and
 * `errorResponse` is the one function that turns any thrown value into the spec's body
 * `{ error, message, statusCode }` (+ `issues` on 400, + `retryAfter` on 429; a write refused for a full
 * disk is a 503 with `Retry-After`). Nothing else writes error bodies for /api/*.
 */
import type { AppLoadContext } from "@remix-run/node";
import type { z } from "zod";
import { isReadOnly, isStorageFull } from "~db/client";
import type { FailureCategory } from "~/lib/context";
import { assertGuarded } from "~/lib/callers.server";
import { DomainError, invalid, issuesOf, unavailable, type DomainErrorKind } from "~/lib/errors";

const STATUS_NAMES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  421: "Misdirected Request",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  503: "Service Unavailable",
};

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** A domain error's detail (issues, retryAfter, the WWW-Authenticate challenge), plus `Allow` for a 405. */
    readonly extra: DomainError["detail"] & { allow?: string[] } = {},
  ) {
    super(message);
    this.name = "HttpError";
  }

  get error(): string {
    return STATUS_NAMES[this.statusCode] ?? "Error";
  }
}

const DOMAIN_STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  "not-found": 404,
  conflict: 409,
  "rate-limited": 429,
  unavailable: 503,
};

/** When a client whose save was refused for want of space may try again: time for an operator to act. */
const STORAGE_FULL_RETRY_AFTER_SECONDS = 120;

/**
 * A thrown value as the domain error it stands for: itself, or, for a write the database refused because
 * its storage is full (SQLITE_FULL, SQLSTATE 53100) or it is read-only (SQLITE_READONLY, SQLSTATE 25006),
 * `unavailable` — a 503 with Retry-After, not a 500: nothing is wrong with the request, and it can succeed
 * once an operator has freed space or made the database writable again.
 */
function asDomainError(thrown: unknown): DomainError | undefined {
  if (thrown instanceof DomainError) return thrown;
  if (isStorageFull(thrown)) {
    return unavailable(
      "The server cannot save changes right now: its storage is full. Try again later.",
      STORAGE_FULL_RETRY_AFTER_SECONDS,
    );
  }
  if (isReadOnly(thrown)) {
    return unavailable(
      "The server cannot save changes right now: its database is read-only. Try again later.",
      STORAGE_FULL_RETRY_AFTER_SECONDS,
    );
  }
  return undefined;
}

/** `Retry-After` for a refusal that says when to try again (API errors, console forms, pages alike). */
export function retryAfterHeaders(error: HttpError): Record<string, string> | undefined {
  return error.extra.retryAfter !== undefined ? { "Retry-After": String(error.extra.retryAfter) } : undefined;
}

/** A domain error as the HTTP error it answers with; any other `HttpError` as itself. */
export function asHttpError(thrown: unknown): HttpError | undefined {
  if (thrown instanceof HttpError) return thrown;
  const domain = asDomainError(thrown);
  return domain && new HttpError(DOMAIN_STATUS[domain.kind], domain.message, domain.detail);
}

/**
 * Records a refused request's failure category for its log line; a write refused for want of space is
 * "storage", and is reported to readiness (`services.writes`), which logs the condition once.
 */
export function noteFailure(context: AppLoadContext, thrown: unknown, status: number): void {
  if (isStorageFull(thrown) || isReadOnly(thrown)) {
    context.request.log.failure = "storage";
    context.services.writes.reportFull(thrown);
  } else {
    context.request.log.failure = failureCategory(status);
  }
}

export function failureCategory(status: number): FailureCategory | undefined {
  if (status === 401 || status === 403 || status === 429) return "authorization";
  if (status === 404 || status === 410) return "missing-data";
  if (status >= 400 && status < 500) return "validation";
  if (status >= 500) return "server";
  return undefined;
}

/** The contract's body for a status, for the few errors answered before a route runs (server.ts). */
export function errorBody(statusCode: number, message: string) {
  return { error: STATUS_NAMES[statusCode] ?? "Error", message, statusCode };
}

export function errorResponse(thrown: unknown, context?: AppLoadContext): Response {
  if (thrown instanceof Response) return thrown;
  const known = asHttpError(thrown);
  const error = known ?? new HttpError(500, "Something went wrong on our side; it has been logged.");
  if (!known) context?.request.logger.error({ err: thrown }, "unhandled error in API route");
  if (context) noteFailure(context, thrown, error.statusCode);

  const body: Record<string, unknown> = { ...error.extra.body, ...errorBody(error.statusCode, error.message) };
  if (error.extra.issues) body.issues = error.extra.issues;
  // The spec puts `retryAfter` in the body of a 429 only; other refusals that say when carry the header alone.
  if (error.extra.retryAfter !== undefined && error.statusCode === 429) body.retryAfter = error.extra.retryAfter;

  const headers = new Headers({ "Cache-Control": "no-store" });
  if (error.statusCode === 401 || error.extra.challenge) {
    headers.set("WWW-Authenticate", error.extra.challenge ?? "Bearer");
  }
  for (const [name, value] of Object.entries(retryAfterHeaders(error) ?? {})) headers.set(name, value);
  if (error.extra.allow) headers.set("Allow", error.extra.allow.join(", "));
  return Response.json(body, { status: error.statusCode, headers });
}

/**
 * Reads a JSON body of at most `limit` bytes (MAX_BODY_BYTES by default) and validates it: 413 past the
 * limit (checked on the declared length, then while streaming), 415 for another content type, 400 for
 * malformed JSON or a body that fails the schema.
 */
export async function readJson<S extends z.ZodType>(
  request: Request,
  schema: S,
  context: AppLoadContext,
  limit = context.services.env.MAX_BODY_BYTES,
): Promise<z.output<S>> {
  assertGuarded(context);
  const type = request.headers.get("content-type");
  assertJsonType(type);
  const value = parseJsonBytes(await readBodyBytes(request, limit), type);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid("The request body is invalid", issuesOf(parsed.error));
  return parsed.data;
}

function assertJsonType(contentType: string | null): void {
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(contentType ?? "")) {
    throw new HttpError(415, "Send the body as JSON with Content-Type: application/json");
  }
}

/** A body already read (a signed one, say) as JSON: 415 for another content type, 400 when it does not parse. */
export function parseJsonBytes(bytes: Buffer, contentType: string | null): unknown {
  assertJsonType(contentType);
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new HttpError(400, "The request body is not valid JSON");
  }
}

/** The body, refusing (413) past `limit` bytes: first on the declared length, then while streaming. */
export async function readBodyBytes(request: Request, limit: number): Promise<Buffer> {
  const tooLarge = () => new HttpError(413, `The request body exceeds the limit of ${limit} bytes`);
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Stop reading but leave the socket open: server.ts discards the rest once the 413 is sent. Cancelling
      // would reset the connection and the client would never read the answer.
      reader.releaseLock();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

const extraHeaders = new WeakMap<object, Record<string, string>>();

/** Headers every response to this request carries, errors included (e.g. X-RateLimit-* of the token API). */
export function setResponseHeaders(context: AppLoadContext, headers: Record<string, string>): void {
  extraHeaders.set(context.request, { ...extraHeaders.get(context.request), ...headers });
}

/** Applies the headers `setResponseHeaders` collected for this request. */
export function applyResponseHeaders(context: AppLoadContext, response: Response): Response {
  for (const [name, value] of Object.entries(extraHeaders.get(context.request) ?? {}))
    response.headers.set(name, value);
  return response;
}

/** `/api/sops/abc/trigger` with `{ ref: "abc" }` → `/api/sops/:ref/trigger`, for logs and diagnostics. */
export function routePattern(pathname: string, params: Record<string, string | undefined>): string {
  const segments = pathname.split("/");
  const splat = params["*"];
  for (const [name, value] of Object.entries(params)) {
    if (name === "*" || value === undefined) continue;
    const index = segments.indexOf(encodeURIComponent(value));
    if (index > 0) segments[index] = `:${name}`;
  }
  const path = segments.join("/");
  return splat ? path.slice(0, path.length - encodeURI(splat).length) + "*" : path;
}
