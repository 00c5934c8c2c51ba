/**
 * Every cookie the app sets or reads is declared for the page cache (ADR 026): the source is scanned for
 * cookie names — our `atrium_*` names wherever they are written, and the first argument of every cookie
 * serializer, parser lookup or `Set-Cookie` template — and each must have a declared policy. A new cookie that
 * is not declared fails here, before it can make the cache serve one visitor's page to another.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { COOKIES, cookiesBypass, declaredPolicy } from "./cookies";

const APP = join(__dirname, "../..");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Patterns whose first group is a cookie name. */
const COOKIE_NAME_PATTERNS = [
  // Our naming convention, wherever the name is written (constants, descriptions, templates).
  /["'`]((?:__Host-|__Secure-)?atrium_[A-Za-z0-9_]+)(?=["'`=])/g,
  // serialize("name", …), createCookie("name"), cookies.set("name", …), parse(header)["name"]
  /\b(?:serialize|createCookie|createCookieSessionStorage|setCookie|cookies\.set|cookies\.get)\(\s*["'`]([^"'`$]+)["'`]/g,
  /\bparse\([^)]*\)\[\s*["'`]([^"'`$]+)["'`]\s*\]/g,
  // "Set-Cookie": `name=…` or "name=…; Path=…"
  /["'`]([A-Za-z0-9_.-]+)=[^"'`]*;\s*(?:Path|Max-Age|HttpOnly|SameSite|Secure|Expires)/gi,
  // OpenAPI security schemes: { in: "cookie", name: "…" }
  /\bin:\s*["']cookie["'],\s*name:\s*["'`]([^"'`]+)["'`]/g,
];

function cookieNamesInSource(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of sources(APP)) {
    if (file.endsWith(join("cache", "cookies.ts"))) continue;
    const text = readFileSync(file, "utf8");
    for (const pattern of COOKIE_NAME_PATTERNS) {
      for (const match of text.matchAll(pattern)) {
        const name = match[1]!;
        found.set(name, [...(found.get(name) ?? []), relative(APP, file)]);
      }
    }
  }
  return found;
}

describe("the page cache's cookie declaration", () => {
  const names = cookieNamesInSource();

  it("finds the cookies the app sets today (so the scan below is looking in the right places)", () => {
    expect([...names.keys()]).toEqual(
      expect.arrayContaining(["atrium_session", "__Host-atrium_session", "atrium_site_unlock"]),
    );
  });

  it("declares every cookie name found in the source", () => {
    const undeclared = [...names].filter(([name]) => declaredPolicy(name) === undefined);
    expect(undeclared.map(([name, files]) => `${name} (${[...new Set(files)].join(", ")})`)).toEqual([]);
  });

  it("bypasses on sessions, unlocks, carts, chats and unknown cookies; ignores analytics", () => {
    for (const cookie of [
      "atrium_session=a",
      "__Host-atrium_session=a",
      "atrium_site_unlock=v1.x",
      "atrium_customer_session=c",
      "atrium_cart=c",
      "atrium_chat=c",
      "unknown=1",
      "_ga=1; other=2",
    ]) {
      expect(cookiesBypass(cookie), cookie).toBe(true);
    }
    expect(cookiesBypass("_ga=GA1.2.3; _gid=x; _fbp=y")).toBe(false);
    expect(cookiesBypass(undefined)).toBe(false);
    expect(cookiesBypass("")).toBe(false);
  });

  it("gives a reason for every declaration", () => {
    for (const cookie of COOKIES) expect(cookie.why.length, cookie.name).toBeGreaterThan(5);
  });
});
