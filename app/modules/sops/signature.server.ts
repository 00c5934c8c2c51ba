/**
 * The spec's trigger authentication: `X-SOP-Signature: sha256=<lowercase hex HMAC-SHA256(secret,
 * "<timestamp>.<raw body>")>` with `X-SOP-Timestamp` in Unix seconds. The HMAC key is the secret's UTF-8 bytes
 * (as Stripe keys with the whole `whsec_…` string). Pure functions: the endpoint supplies the exact bytes
 * received, before any JSON parsing, and the clock.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export type SignatureFailure =
  | "missing_timestamp"
  | "malformed_timestamp"
  | "missing_signature"
  | "milliseconds"
  | "invalid_signature"
  | "too_old"
  | "in_future";

/** What the caller is told (the API message) and what the console records (the reason). */
export const FAILURE_MESSAGES: Record<
  SignatureFailure | "replay" | "no_trigger" | "unreadable_secret",
  { message: string; reason: string }
> = {
  missing_timestamp: { message: "Missing X-SOP-Timestamp header", reason: "No X-SOP-Timestamp header" },
  malformed_timestamp: {
    message: "X-SOP-Timestamp must be a Unix time in seconds",
    reason: "X-SOP-Timestamp is not Unix seconds",
  },
  missing_signature: { message: "Missing X-SOP-Signature header", reason: "No X-SOP-Signature header" },
  // The spec lists a timestamp in milliseconds among the invalid signatures: it was not signed as specified.
  milliseconds: { message: "Invalid signature", reason: "Timestamp in milliseconds, not seconds" },
  invalid_signature: { message: "Invalid signature", reason: "Signature does not match" },
  too_old: { message: "Timestamp too old", reason: "Timestamp older than the maximum age" },
  in_future: { message: "Timestamp is in the future", reason: "Timestamp further in the future than allowed" },
  replay: { message: "Signature already used (replay)", reason: "Replay of a signature already accepted" },
  unreadable_secret: {
    message: "This trigger's secret cannot be read on this server: rotate it in the console",
    reason: "The trigger's sealed secret does not open with this server's app key",
  },
  no_trigger: {
    message: "This SOP has no trigger: create one in the console",
    reason: "Signed request while the SOP has no trigger",
  },
};

const SIGNATURE = /^sha256=([0-9a-f]{64})$/;
const TIMESTAMP = /^\d{1,16}$/;
/** Unix seconds stay 10 digits until the year 2286; 13 digits is a millisecond clock. */
const MILLISECONDS_FROM = 100_000_000_000;

export function signPayload(secret: string, timestamp: string | number, body: Buffer | string): string {
  const mac = createHmac("sha256", secret);
  mac.update(`${timestamp}.`);
  mac.update(body);
  return `sha256=${mac.digest("hex")}`;
}

export interface SignedHeaders {
  timestamp: string | null;
  signature: string | null;
}

/** The checks that need no secret: presence and shape of the headers. */
export function checkHeaders(headers: SignedHeaders): SignatureFailure | null {
  if (headers.timestamp === null) return "missing_timestamp";
  if (!TIMESTAMP.test(headers.timestamp.trim())) return "malformed_timestamp";
  if (headers.signature === null) return "missing_signature";
  return null;
}

/**
 * Verifies the signature over the exact bytes, in constant time, and then the timestamp's age, so that
 * "Timestamp too old" is only ever said of an authentic request.
 */
export function verifySignature(
  secret: string,
  headers: SignedHeaders,
  body: Buffer,
  nowSeconds: number,
  maxAgeSeconds: number,
): SignatureFailure | null {
  const shape = checkHeaders(headers);
  if (shape) return shape;
  const timestamp = headers.timestamp!.trim();
  const seconds = Number(timestamp);
  if (seconds >= MILLISECONDS_FROM) return "milliseconds";
  const given = SIGNATURE.exec(headers.signature!.trim());
  if (!given) return "invalid_signature";
  const expected = Buffer.from(signPayload(secret, timestamp, body).slice("sha256=".length), "hex");
  if (!timingSafeEqual(expected, Buffer.from(given[1]!, "hex"))) return "invalid_signature";
  if (seconds < nowSeconds - maxAgeSeconds) return "too_old";
  if (seconds > nowSeconds + maxAgeSeconds) return "in_future";
  return null;
}
