import { randomBytes } from "node:crypto";
import { monotonicFactory } from "ulid";

const ulid = monotonicFactory();

/** Sortable, text, portable across dialects (DESIGN rule 5). */
export function newId(): string {
  return ulid();
}

/** A secret for cookies and tokens: `bytes` of randomness, base64url. */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}
