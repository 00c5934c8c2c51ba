/**
 * Console forms (DESIGN conventions: work without JavaScript, validate on the server, show field errors
 * next to the field). `runForm` turns any client error a module throws (`HttpError` 4xx, including the
 * 400 of `parseForm`) into a `FormResult` returned with that status, so the page renders it in place.
 */
import { data } from "@remix-run/node";
import type { z } from "zod";
import { HttpError, badRequest, issuesOf } from "./http.server";

export interface FormResult {
  ok: boolean;
  /** Which form on the page answered (pages with several forms send an `intent` field). */
  intent?: string;
  message?: string;
  fieldErrors?: Record<string, string>;
}

export function formValues(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string") values[key] = value;
  return values;
}

export function parseForm<S extends z.ZodType>(schema: S, values: Record<string, string>): z.output<S> {
  const parsed = schema.safeParse(values);
  if (!parsed.success) throw badRequest("Check the highlighted fields", issuesOf(parsed.error));
  return parsed.data;
}

export async function runForm<T>(intent: string | undefined, run: () => Promise<T>) {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
    const fieldErrors: Record<string, string> = {};
    for (const issue of error.extra.issues ?? []) fieldErrors[issue.field] ??= issue.message;
    const headers = error.extra.retryAfter ? { "Retry-After": String(error.extra.retryAfter) } : undefined;
    return data<FormResult>(
      { ok: false, intent, message: error.message, fieldErrors },
      { status: error.statusCode, headers },
    );
  }
}
