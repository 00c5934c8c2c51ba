/**
 * The caller of the on-demand TLS `ask` endpoint (ADR 024): the reverse proxy on this machine (Caddy asks
 * before it requests a certificate for a name). The access contract gives /api/internal/* to internal
 * callers; this one proves it is one by calling from loopback, or, from another machine, by presenting
 * `DOMAINS_ASK_SECRET` — Caddy's `ask` sends only a GET with `?domain=`, so the secret travels in the URL's
 * `secret` parameter, compared in constant time. The Caddyfile refuses /api/internal/* from outside, so a
 * public request proxied by Caddy itself never reaches this as "loopback".
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import { defineGuard } from "~/lib/callers.server";
import { forbidden } from "~/lib/errors";

const sha256 = (value: string) => createHash("sha256").update(value).digest();

function isLoopbackAddress(ip: string): boolean {
  return ip === "::1" || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ip);
}

export const requireAskCaller = defineGuard(
  "internal",
  async function requireAskCaller(request: Request, context: AppLoadContext): Promise<void> {
    if (isLoopbackAddress(context.request.ip)) return;
    const expected = context.services.env.DOMAINS_ASK_SECRET;
    const given = new URL(request.url).searchParams.get("secret");
    // Hashes first: equal lengths for timingSafeEqual, and no early exit on a length difference.
    if (expected && given && timingSafeEqual(sha256(given), sha256(expected))) return;
    context.request.log.failure = "authorization";
    throw forbidden("Only this server's reverse proxy may ask (from loopback, or with DOMAINS_ASK_SECRET)");
  },
);
