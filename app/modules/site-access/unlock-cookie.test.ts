import { describe, expect, it } from "vitest";
import {
  UNLOCK_MAX_AGE_SECONDS,
  signUnlock,
  unlockCookieHeader,
  unlockCookieValues,
  verifyUnlock,
} from "./unlock-cookie.server";

const KEY = Buffer.alloc(32, 1);
const T0 = Date.UTC(2026, 0, 1);

describe("the unlock cookie's value", () => {
  const value = signUnlock(KEY, "ws_a", 3, T0);

  it("verifies for the workspace and cookie version it was signed for, within 30 days", () => {
    expect(verifyUnlock(KEY, value, "ws_a", 3, T0)).toBe(true);
    expect(verifyUnlock(KEY, value, "ws_a", 3, T0 + (UNLOCK_MAX_AGE_SECONDS - 1) * 1000)).toBe(true);
  });

  it("does not verify for another workspace, another version, another key, or once expired", () => {
    expect(verifyUnlock(KEY, value, "ws_b", 3, T0)).toBe(false);
    expect(verifyUnlock(KEY, value, "ws_a", 4, T0)).toBe(false);
    expect(verifyUnlock(Buffer.alloc(32, 2), value, "ws_a", 3, T0)).toBe(false);
    expect(verifyUnlock(KEY, value, "ws_a", 3, T0 + (UNLOCK_MAX_AGE_SECONDS + 1) * 1000)).toBe(false);
  });

  it("does not verify when issued in the future or altered in any part", () => {
    expect(verifyUnlock(KEY, signUnlock(KEY, "ws_a", 3, T0 + 3_600_000), "ws_a", 3, T0)).toBe(false);
    const [version, issued, mac] = value.split(".") as [string, string, string];
    expect(verifyUnlock(KEY, `${version}.${Number(issued) + 1}.${mac}`, "ws_a", 3, T0)).toBe(false);
    expect(verifyUnlock(KEY, `v2.${issued}.${mac}`, "ws_a", 3, T0)).toBe(false);
    expect(verifyUnlock(KEY, `${version}.${issued}.${mac.slice(1)}`, "ws_a", 3, T0)).toBe(false);
    expect(verifyUnlock(KEY, `${value}.extra`, "ws_a", 3, T0)).toBe(false);
    expect(verifyUnlock(KEY, "", "ws_a", 3, T0)).toBe(false);
  });
});

describe("the unlock cookie's header", () => {
  it("is HttpOnly, SameSite=Lax, scoped to the path, Secure only over https", () => {
    expect(unlockCookieHeader("v", { path: "/acme", secure: false })).toBe(
      `atrium_site_unlock=v; Path=/acme; Max-Age=${UNLOCK_MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax`,
    );
    expect(unlockCookieHeader("v", { path: "/", secure: true })).toMatch(/; Path=\/; .*; Secure$/);
  });

  it("reads every value sent under the name, not only the first", () => {
    expect(unlockCookieValues("a=1; atrium_site_unlock=x; b=2; atrium_site_unlock=y")).toEqual(["x", "y"]);
    expect(unlockCookieValues(null)).toEqual([]);
  });
});
