/**
 * SHA-256, the one digest for everything stored in place of a secret (session ids, API keys, OAuth codes,
 * tokens and client secrets, replayed signatures) and for counter keys that must not hold an address or
 * e-mail in clear.
 */
import { createHash } from "node:crypto";

export const sha256Hex = (value: string) => createHash("sha256").update(value).digest("hex");
export const sha256Base64url = (value: string) => createHash("sha256").update(value).digest("base64url");
