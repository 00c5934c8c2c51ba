/**
 * Every cookie the product sets or reads, now or in the issues planned, declared for the page cache (issue 15,
 * ADR 026): `bypass` — a request carrying it may see an answer of its own (a session, an unlock, a cart), so it
 * is never served from the cache nor stored; `ignore` — no page reads it (analytics a customer's own scripts
 * set on their domain), so it does not stop a hit.
 *
 * A cookie not declared here bypasses the cache: an unknown cookie may be one a page reads, and a missed hit
 * costs a render where a wrong hit shows one visitor another's page. ./cookies.test.ts scans the source for
 * cookie names and fails on any not declared here.
 */

export type CookiePolicy = "bypass" | "ignore";

export interface CookieDeclaration {
  /** The exact name, or a prefix when it ends with `*`. */
  name: string;
  policy: CookiePolicy;
  why: string;
}

export const COOKIES: readonly CookieDeclaration[] = [
  { name: "atrium_session", policy: "bypass", why: "The operator's console session (over http)." },
  { name: "__Host-atrium_session", policy: "bypass", why: "The operator's console session (over https)." },
  {
    name: "atrium_site_unlock",
    policy: "bypass",
    why: "A protected site's unlock (ADR 023): its pages are the visitor's.",
  },
  { name: "atrium_customer*", policy: "bypass", why: "The future customer session (accounts, portal)." },
  { name: "__Host-atrium_customer*", policy: "bypass", why: "The customer session over https." },
  { name: "atrium_cart*", policy: "bypass", why: "The shopping cart (ADR 030): the header shows its count." },
  { name: "__Host-atrium_cart*", policy: "bypass", why: "The shopping cart over https." },
  { name: "atrium_chat", policy: "bypass", why: "The future chat widget's conversation." },
  { name: "_ga*", policy: "ignore", why: "Google Analytics, set by a customer's own script; no page reads it." },
  { name: "_gid", policy: "ignore", why: "Google Analytics." },
  { name: "_fbp", policy: "ignore", why: "Meta pixel." },
  { name: "_pk_*", policy: "ignore", why: "Matomo." },
  { name: "plausible_ignore", policy: "ignore", why: "Plausible's opt-out flag (read by its script only)." },
];

const exact = new Map<string, CookiePolicy>();
const prefixes: Array<[string, CookiePolicy]> = [];
for (const cookie of COOKIES) {
  if (cookie.name.endsWith("*")) prefixes.push([cookie.name.slice(0, -1), cookie.policy]);
  else exact.set(cookie.name, cookie.policy);
}

/** The declared policy of one cookie name, `undefined` when it is not declared. */
export function declaredPolicy(name: string): CookiePolicy | undefined {
  const found = exact.get(name);
  if (found) return found;
  for (const [prefix, policy] of prefixes) if (name.startsWith(prefix)) return policy;
  return undefined;
}

/**
 * Whether a `Cookie` header keeps a request away from the cache: any cookie declared `bypass`, or not declared
 * at all. Names only; values are never read.
 */
export function cookiesBypass(header: string | undefined): boolean {
  if (!header) return false;
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    const name = (eq === -1 ? pair : pair.slice(0, eq)).trim();
    if (name === "") continue;
    if (declaredPolicy(name) !== "ignore") return true;
  }
  return false;
}
