import { describe, expect, it } from "vitest";
import { signPayload, verifySignature } from "./signature.server";

// ../shared/spec/test-vectors.md, computed with Python's hmac module: an oracle outside this project.
const VECTOR = {
  secret: "sop_test_secret",
  timestamp: "1700000000",
  body: '{"event":"order.created","id":"evt_1"}',
  signature: "sha256=a16f0201e2a7830795df9dd54ea0601af2031a73540c7b11b3a72a0ef16299df",
};
const STRIPE = {
  secret: "whsec_test_secret",
  t: "1492774577",
  body: '{"id":"evt_test","object":"event"}',
  v1: "691252e266ce41cb94d709c84e9580d4172b117a510bbc81723f657d2cd5d215",
};

const verify = (over: Partial<{ secret: string; timestamp: string; signature: string; body: string; now: number }>) =>
  verifySignature(
    over.secret ?? VECTOR.secret,
    { timestamp: over.timestamp ?? VECTOR.timestamp, signature: over.signature ?? VECTOR.signature },
    Buffer.from(over.body ?? VECTOR.body),
    over.now ?? 1_700_000_010,
    300,
  );

describe("SOP trigger signatures", () => {
  it("match the independent vectors", () => {
    expect(signPayload(VECTOR.secret, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
    expect(signPayload(STRIPE.secret, STRIPE.t, STRIPE.body)).toBe(`sha256=${STRIPE.v1}`);
    expect(verify({})).toBeNull();
  });

  it("refuse each way of getting it wrong", () => {
    expect(verify({ secret: "sop_test_secreT" })).toBe("invalid_signature");
    expect(verify({ body: '{"event": "order.created","id":"evt_1"}' })).toBe("invalid_signature");
    expect(verify({ signature: VECTOR.signature.toUpperCase().replace("SHA256", "sha256") })).toBe("invalid_signature");
    expect(verify({ signature: VECTOR.signature.replace("sha256=", "sha1=") })).toBe("invalid_signature");
    expect(verify({ signature: VECTOR.signature.slice("sha256=".length) })).toBe("invalid_signature");
    // Another message format: the body alone, or ":" as the separator.
    const bodyOnly = signPayload(VECTOR.secret, "", VECTOR.body).replace("sha256=", "");
    expect(verify({ signature: `sha256=${bodyOnly}` })).toBe("invalid_signature");
    expect(
      verify({ timestamp: "1700000000000", signature: signPayload(VECTOR.secret, "1700000000000", VECTOR.body) }),
    ).toBe("milliseconds");
    expect(verify({ now: 1_700_000_301 })).toBe("too_old");
    expect(verify({ now: 1_699_999_699 })).toBe("in_future");
    expect(verify({ timestamp: "2023-11-14T22:13:20Z" })).toBe("malformed_timestamp");
  });
});
