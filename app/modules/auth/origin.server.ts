/**
 * Cross-site request forgery defence for cookie-authenticated unsafe requests, on top of SameSite=Lax:
 * the browser's own `Sec-Fetch-Site` / `Origin` must say the request comes from this origin. A request
 * with neither header is not from a browser (no ambient cookie to abuse) and is let through.
 */
import type { AppLoadContext } from "@remix-run/node";
import { HttpError, errorResponse } from "~/lib/http.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** This request's own origin, as Express resolved it (X-Forwarded-* count only under TRUST_PROXY). */
export function isSameOriginRequest(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return false;
  const origin = request.headers.get("origin");
  // "null" is what sandboxed frames and some redirects send: never this site.
  if (origin && origin !== new URL(request.url).origin) return false;
  return true;
}

/** Throws the contract's 403 as a Response, which pages and API routes both pass through unchanged. */
export function assertSameOrigin(request: Request, context: AppLoadContext): void {
  if (!isSameOriginRequest(request)) {
    throw errorResponse(new HttpError(403, "Cross-site request refused"), context);
  }
}
