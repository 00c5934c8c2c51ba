/**
 * Cross-site request forgery defence for cookie-authenticated unsafe requests, on top of SameSite=Lax.
 * server.ts judges each request once (Origin / Sec-Fetch-Site against the host it was sent to) and refuses
 * cross-site page posts itself; API routes that accept the operator's cookie call this.
 */
import type { AppLoadContext } from "@remix-run/node";
import { HttpError, errorResponse } from "~/lib/http.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Throws the contract's 403 as a Response, which pages and API routes both pass through unchanged. */
export function assertSameOrigin(request: Request, context: AppLoadContext): void {
  if (SAFE_METHODS.has(request.method) || !context.request.crossSite) return;
  throw errorResponse(new HttpError(403, "Cross-site request refused"), context);
}
