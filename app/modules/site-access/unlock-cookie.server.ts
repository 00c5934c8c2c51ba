/**
 * The unlock cookie of a protected site (ADR 023): `atrium_site_unlock=v1.{issuedAt}.{mac}`, where `mac` is
 * HMAC-SHA256, under a key derived from the app key for this purpose only, over the site's workspace id, its
 * `cookie_version` and the issue time (seconds). It says nothing about who unlocked: anyone holding it may read
 * the site, as anyone holding the password may.
 *
 * The workspace id is not in the cookie: verification always takes it from the site the request resolved to
 * (path or custom domain) and recomputes the MAC, so a cookie issued for one site never verifies on another,
 * whatever a visitor copies where. Raising `cookie_version` (a password change, making the site public)
 * voids every cookie at once without a table of sessions.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const UNLOCK_COOKIE = "atrium_site_unlock";
/** How long an unlock lasts: a month, then the visitor types the password again. */
export const UNLOCK_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;
/** A cookie "issued" further ahead than this is not ours (clocks of several nodes differ a little). */
const CLOCK_SKEW_SECONDS = 300;
const VERSION = "v1";
export const UNLOCK_KEY_PURPOSE = "site-unlock-cookie";

const macOf = (key: Buffer, workspaceId: string, cookieVersion: number, issuedAt: number) =>
  createHmac("sha256", key).update(`${VERSION}\n${workspaceId}\n${cookieVersion}\n${issuedAt}`, "utf8").digest();

export function signUnlock(key: Buffer, workspaceId: string, cookieVersion: number, nowMs: number): string {
  const issuedAt = Math.floor(nowMs / 1000);
  return `${VERSION}.${issuedAt}.${macOf(key, workspaceId, cookieVersion, issuedAt).toString("base64url")}`;
}

/** Whether `value` unlocks the site of `workspaceId` at its current `cookieVersion`, now. */
export function verifyUnlock(
  key: Buffer,
  value: string,
  workspaceId: string,
  cookieVersion: number,
  nowMs: number,
): boolean {
  const [version, issuedText, macText, ...rest] = value.split(".");
  if (version !== VERSION || !issuedText || !macText || rest.length > 0 || !/^\d{1,12}$/.test(issuedText)) return false;
  const issuedAt = Number(issuedText);
  const now = Math.floor(nowMs / 1000);
  if (issuedAt > now + CLOCK_SKEW_SECONDS || now - issuedAt > UNLOCK_MAX_AGE_SECONDS) return false;
  const expected = macOf(key, workspaceId, cookieVersion, issuedAt);
  const actual = Buffer.from(macText, "base64url");
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Every value of the unlock cookie in a Cookie header. A browser may send several under one name (one per
 * Path that matches), and `cookie.parse` keeps only the first, which may be another site's.
 */
export function unlockCookieValues(cookieHeader: string | null): string[] {
  if (!cookieHeader) return [];
  const values: string[] = [];
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== UNLOCK_COOKIE) continue;
    values.push(
      part
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, "$1"),
    );
  }
  return values.slice(0, 10);
}

/** The Set-Cookie header: HttpOnly, SameSite=Lax, Secure over https, scoped to the site's path. */
export function unlockCookieHeader(value: string, options: { path: string; secure: boolean }): string {
  return [
    `${UNLOCK_COOKIE}=${value}`,
    `Path=${options.path}`,
    `Max-Age=${UNLOCK_MAX_AGE_SECONDS}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(options.secure ? ["Secure"] : []),
  ].join("; ");
}
