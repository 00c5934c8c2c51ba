/**
 * Cross-site request forgery defence for cookie-authenticated unsafe requests, on top of SameSite=Lax.
 * server.ts judges each request once (Origin / Sec-Fetch-Site against the host it was sent to) and refuses
 * cross-site page posts itself; API routes that accept the operator's cookie call this.
 */
import type { AppLoadContext } from "@remix-run/node";
import { forbidden } from "~/lib/errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Throws a 403: the API's error contract on /api/*, the error page on a page (routes.server.ts maps it). */
export function assertSameOrigin(request: Request, context: AppLoadContext): void {
  if (SAFE_METHODS.has(request.method) || !context.request.crossSite) return;
  throw forbidden("Cross-site request refused");
}

/**
 * Where e-mailed links point: PUBLIC_URL, else the request's origin. The latter comes from the Host header,
 * which the client writes, hence PUBLIC_URL in production: a link must not send its token to another host.
 */
export function linkOrigin(request: Request, context: AppLoadContext): string {
  const configured = context.services.env.PUBLIC_URL;
  return configured ? configured.replace(/\/+$/, "") : new URL(request.url).origin;
}
