/**
 * Domain errors (DESIGN rule 3): what a module throws when it refuses, in the business's words, with no
 * HTTP in it. A module says "not found", "conflict", "invalid (these fields)", "forbidden", "rate limited" or
 * "unauthenticated"; `errorResponse` (app/lib/http.server.ts) maps each kind to the API's error contract and
 * `runForm` (app/lib/forms.server.ts) to a console form's message and field errors. Routes never translate
 * them back and forth.
 *
 * Plain data, no server imports: the CLI and tests read them too.
 */
import type { z } from "zod";

export interface FieldIssue {
  field: string;
  message: string;
}

export type DomainErrorKind =
  "invalid" | "unauthenticated" | "forbidden" | "not-found" | "conflict" | "rate-limited" | "unavailable";

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly detail: {
      /** The fields that were refused, named by their dotted path ("" for the input as a whole). */
      issues?: FieldIssue[];
      /** Seconds until a rate-limited caller (or any caller of an unavailable service) may try again. */
      retryAfter?: number;
      /**
       * How the caller should authenticate instead (RFC 6750's challenge, e.g. `Bearer error="insufficient_scope"`);
       * an API maps it to WWW-Authenticate.
       */
      challenge?: string;
      /** Fields a refusal adds to the error body beside the contract's own (a taken slot's next free times). */
      body?: Record<string, unknown>;
    } = {},
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const invalid = (message: string, issues?: FieldIssue[]) => new DomainError("invalid", message, { issues });
export const unauthenticated = (message: string, challenge?: string) =>
  new DomainError("unauthenticated", message, { challenge });
export const forbidden = (message = "Insufficient permissions", challenge?: string) =>
  new DomainError("forbidden", message, { challenge });
export const notFound = (message = "The requested resource was not found") => new DomainError("not-found", message);
export const conflict = (message: string, issues?: FieldIssue[]) => new DomainError("conflict", message, { issues });
export const rateLimited = (retryAfter: number, message = "Rate limit exceeded") =>
  new DomainError("rate-limited", message, { retryAfter: Math.max(1, Math.ceil(retryAfter)) });

/** The service cannot do this now through no fault of the request (its storage is full): try again later. */
export const unavailable = (message: string, retryAfter: number) =>
  new DomainError("unavailable", message, { retryAfter: Math.max(1, Math.ceil(retryAfter)) });

export const isDomainError = (value: unknown): value is DomainError => value instanceof DomainError;

/** Field issues from zod, named by their dotted path ("" for the input itself). */
export function issuesOf(error: z.ZodError): FieldIssue[] {
  return error.issues.map((i) => ({ field: i.path.map(String).join("."), message: i.message }));
}

/** Validates one value in a module; a failure is `invalid` naming `field`, never a 500 from a ZodError. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, field: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "Invalid value";
    throw invalid(message, [{ field, message }]);
  }
  return parsed.data;
}

/** Validates a module's whole input; a failure is `invalid` with every field's issue, never a 500 from a ZodError. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid("Check the highlighted fields", issuesOf(parsed.error));
  return parsed.data;
}
