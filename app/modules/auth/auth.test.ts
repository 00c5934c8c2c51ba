import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./password.server";
import { safeRedirectTarget } from "./redirect";

describe("passwords", () => {
  it("verifies the right password only, with a fresh salt each time", async () => {
    const a = await hashPassword("correct horse battery");
    const b = await hashPassword("correct horse battery");
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse battery", a)).toBe(true);
    expect(await verifyPassword("correct horse batterY", a)).toBe(false);
    expect(await verifyPassword("anything", "not-a-hash")).toBe(false);
  });
});

describe("safeRedirectTarget", () => {
  it.each([
    ["/settings", "/settings"],
    ["/settings?tab=members", "/settings?tab=members"],
    ["//evil.test", "/"],
    ["/\\evil.test", "/"],
    ["https://evil.test", "/"],
    ["/\t/evil.test", "/"],
    ["/%09/evil.test", "/%09/evil.test"],
    ["/\n/evil.test", "/"],
    ["/ /evil.test", "/"],
    ["/\t\\evil.test", "/"],
    ["/login?next=//evil.test", "/login?next=//evil.test"],
    // Dot segments resolve to a network-path reference: another origin once the browser reads it.
    ["/.//evil.test", "/"],
    ["/..//evil.test", "/"],
    ["/a/..//evil.test/x?y=1", "/"],
    ["/./%2F/evil.test", "/%2F/evil.test"],
    ["/settings/./sops/../api-keys", "/settings/api-keys"],
    ["", "/"],
    [null, "/"],
  ])("%j → %j", (input, expected) => {
    expect(safeRedirectTarget(input)).toBe(expected);
  });
});
