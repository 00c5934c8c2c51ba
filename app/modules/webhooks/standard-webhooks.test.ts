/**
 * The signature is checked against the Standard Webhooks specification's own test vector, computed outside
 * this project: if it matches, any receiver using the spec's libraries will accept our deliveries.
 */
import { describe, expect, it } from "vitest";
import { generateWebhookSecret, signWebhook, verifyWebhook, webhookHeaders } from "./standard-webhooks.server";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
const TIMESTAMP = 1614265330;
const BODY = '{"test": 2432232314}';
const SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

describe("standard webhooks", () => {
  it("matches the specification's test vector", () => {
    expect(signWebhook(SECRET, ID, TIMESTAMP, BODY)).toBe(SIGNATURE);
    expect(webhookHeaders(SECRET, ID, TIMESTAMP, BODY)).toEqual({
      "webhook-id": ID,
      "webhook-timestamp": "1614265330",
      "webhook-signature": SIGNATURE,
    });
  });

  const headers = { "webhook-id": ID, "webhook-timestamp": String(TIMESTAMP), "webhook-signature": SIGNATURE };

  it("verifies the test vector within the tolerance", () => {
    expect(verifyWebhook(SECRET, headers, BODY, TIMESTAMP)).toBe(true);
    expect(verifyWebhook(SECRET, headers, BODY, TIMESTAMP + 300)).toBe(true);
    expect(verifyWebhook(SECRET, headers, BODY, TIMESTAMP - 300)).toBe(true);
  });

  it("rejects a changed body", () => {
    expect(verifyWebhook(SECRET, headers, '{"test": 2432232315}', TIMESTAMP)).toBe(false);
    expect(verifyWebhook(SECRET, headers, '{"test":2432232314}', TIMESTAMP)).toBe(false);
  });

  it("rejects a stale or future timestamp", () => {
    expect(verifyWebhook(SECRET, headers, BODY, TIMESTAMP + 301)).toBe(false);
    expect(verifyWebhook(SECRET, headers, BODY, TIMESTAMP - 301)).toBe(false);
    expect(verifyWebhook(SECRET, headers, BODY, TIMESTAMP + 3_600, 7_200)).toBe(true);
  });

  it("rejects a changed id or timestamp, which are signed too", () => {
    expect(verifyWebhook(SECRET, { ...headers, "webhook-id": "msg_other" }, BODY, TIMESTAMP)).toBe(false);
    const shifted = { ...headers, "webhook-timestamp": String(TIMESTAMP + 1) };
    expect(verifyWebhook(SECRET, shifted, BODY, TIMESTAMP)).toBe(false);
    expect(verifyWebhook(SECRET, { ...headers, "webhook-timestamp": "1614265330.5" }, BODY, TIMESTAMP)).toBe(false);
  });

  it("signs and verifies the exact bytes, which need not be UTF-8", () => {
    // Two byte strings that decode to the same text (each invalid byte becomes U+FFFD).
    const sent = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]);
    const other = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xfe, 0x22, 0x7d]);
    expect(sent.toString("utf8")).toBe(other.toString("utf8"));
    const signature = signWebhook(SECRET, ID, TIMESTAMP, sent);
    const signed = { ...headers, "webhook-signature": signature };
    expect(verifyWebhook(SECRET, signed, sent, TIMESTAMP)).toBe(true);
    expect(verifyWebhook(SECRET, signed, other, TIMESTAMP)).toBe(false);
    // A string body is its UTF-8 bytes: the test vector verifies as bytes too.
    expect(verifyWebhook(SECRET, headers, Buffer.from(BODY, "utf8"), TIMESTAMP)).toBe(true);
  });

  it("accepts only the canonical spelling of a timestamp", () => {
    const padded = { ...headers, "webhook-timestamp": `0${TIMESTAMP}` };
    expect(verifyWebhook(SECRET, padded, BODY, TIMESTAMP)).toBe(false);
    expect(verifyWebhook(SECRET, { ...headers, "webhook-timestamp": `+${TIMESTAMP}` }, BODY, TIMESTAMP)).toBe(false);
    // Even signed as written, a padded timestamp is refused: two spellings never share a signature.
    const signedPadded = { ...padded, "webhook-signature": signWebhook(SECRET, ID, `0${TIMESTAMP}`, BODY) };
    expect(verifyWebhook(SECRET, signedPadded, BODY, TIMESTAMP)).toBe(false);
  });

  it("rejects a wrong secret", () => {
    expect(verifyWebhook(generateWebhookSecret(), headers, BODY, TIMESTAMP)).toBe(false);
  });

  it("accepts any one of several signatures, for secret rotation", () => {
    const rotated = { ...headers, "webhook-signature": `v1,bm90IGl0 ${SIGNATURE} v2,whatever` };
    expect(verifyWebhook(SECRET, rotated, BODY, TIMESTAMP)).toBe(true);
    const noneValid = {
      ...headers,
      "webhook-signature": "v1,bm90IGl0 v1a,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    };
    expect(verifyWebhook(SECRET, noneValid, BODY, TIMESTAMP)).toBe(false);
    expect(verifyWebhook(SECRET, { ...headers, "webhook-signature": "" }, BODY, TIMESTAMP)).toBe(false);
  });

  it("generates 32-byte secrets that round-trip", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
    const now = 1_700_000_000;
    const sent = webhookHeaders(secret, "msg_1", now, "{}");
    expect(verifyWebhook(secret, sent, "{}", now + 10)).toBe(true);
  });

  it("refuses an empty secret rather than sign with an empty key", () => {
    expect(() => signWebhook("whsec_", ID, TIMESTAMP, BODY)).toThrow(/empty/);
  });
});
