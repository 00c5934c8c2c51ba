/**
 * Signing of the webhooks Atrium sends, following the Standard Webhooks specification
 * (https://www.standardwebhooks.com), so receivers can verify them with any of its published libraries
 * instead of code of ours: `webhook-id`, `webhook-timestamp` and `webhook-signature` headers, the signature
 * being `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` under the secret's base64-decoded key.
 *
 * The id and timestamp are signed with the body so a captured delivery cannot be replayed later (the
 * timestamp tolerance) or passed off as another message (the id, which receivers also use to deduplicate).
 * Several space-separated signatures are accepted on verification so a secret can be rotated without a gap.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

const SECRET_PREFIX = "whsec_";
const SIGNATURE_VERSION = "v1";

/** 32 random bytes (256 bits), the strength of HMAC-SHA256 itself; the spec asks for 24 to 64. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64");
}

function keyOf(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, "base64");
  // An empty HMAC key still "signs", and anyone could forge with it: better to fail loudly.
  if (key.length === 0) throw new Error("The webhook secret is empty or not base64");
  return key;
}

/**
 * `body` is signed as the exact bytes sent (a string is its UTF-8 encoding), and the timestamp as its decimal
 * text: a receiver verifies what it received, not a re-encoding of it.
 */
export function signWebhook(
  secret: string,
  id: string,
  timestampSeconds: number | string,
  body: string | Uint8Array,
): string {
  const digest = createHmac("sha256", keyOf(secret))
    .update(`${id}.${timestampSeconds}.`, "utf8")
    .update(typeof body === "string" ? Buffer.from(body, "utf8") : body)
    .digest();
  return `${SIGNATURE_VERSION},${digest.toString("base64")}`;
}

/** A timestamp in its one canonical form (no sign, no leading zero): two spellings never share a signature. */
export const CANONICAL_TIMESTAMP = /^(0|[1-9]\d{0,14})$/;

export function webhookHeaders(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": signWebhook(secret, id, timestampSeconds, body),
  };
}

export function verifyWebhook(
  secret: string,
  headers: { "webhook-id": string; "webhook-timestamp": string; "webhook-signature": string },
  body: string | Uint8Array,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signatures } = headers;
  if (!id || !CANONICAL_TIMESTAMP.test(timestamp ?? "")) return false;
  const timestampSeconds = Number(timestamp);
  // Too old is a replay; too far ahead is as suspicious (or a clock so wrong that "too old" means nothing).
  if (Math.abs(nowSeconds - timestampSeconds) > toleranceSeconds) return false;

  const expected = Buffer.from(signWebhook(secret, id, timestamp, body));
  let valid = false;
  for (const candidate of (signatures ?? "").split(" ")) {
    const given = Buffer.from(candidate);
    // Lengths differ only for a malformed or other-version signature; all v1 signatures are the same length,
    // so the early out leaks nothing about the expected value.
    if (given.length === expected.length && timingSafeEqual(given, expected)) valid = true;
  }
  return valid;
}
