/**
 * The integrator guard (ADR 005, ADR 009): `Authorization: Bearer <token>`, checked by a chain of verifiers —
 * API keys and OAuth access tokens; a new kind of token appends a verifier here and no route changes. Cookies
 * are never looked at. Then the per-credential rate limit, whose state every response carries as
 * X-RateLimit-* headers (set through `setResponseHeaders`, errors included).
 */
import type { AppLoadContext } from "@remix-run/node";
import { defineGuard } from "~/lib/callers.server";
import { now } from "~/lib/clock.server";
import { forbidden, rateLimited, unauthenticated } from "~/lib/errors";
import { setResponseHeaders } from "~/lib/http.server";
import { apiKeysOf } from "~/modules/api-keys/api-keys.server";
import { apiKeyVerifier, type BearerVerifier, type Integrator } from "~/modules/auth/bearer.server";
import { oauthAccessTokenVerifier } from "~/modules/oauth/access-tokens.server";
import { connectedAppsOf } from "~/modules/oauth/connected-apps.server";
import type { Scope as OAuthScope } from "~/modules/oauth/scopes";
import { rateLimitHeaders, type RateLimitState } from "~/modules/rate-limit/api-rate-limit.server";

/** Writing last_used_at on every call would add a write per request; once a minute is precise enough. */
const LAST_USED_PRECISION_MS = 60_000;

// The first that recognises a token verifies it: OAuth's `atr_at_` before the keys' wider `atr_`.
const VERIFIERS: readonly BearerVerifier[] = [oauthAccessTokenVerifier, apiKeyVerifier];

function bearerToken(request: Request): string | null {
  // The scheme name is case-insensitive (RFC 9110 §11.1).
  const match = /^Bearer ([\x21-\x7e]{1,512})$/i.exec(request.headers.get("authorization") ?? "");
  return match?.[1] ?? null;
}

/**
 * The integrator calling a token API route, within its rate limit; otherwise the spec's 401/403/429.
 * `scope`: what an OAuth access token must carry to call this route. A route that names none accepts API keys
 * only, so a new route never hands OAuth tokens more than their scopes by forgetting to check.
 */
export async function authenticateIntegrator(
  request: Request,
  context: AppLoadContext,
  scope?: OAuthScope,
): Promise<Integrator> {
  const { authFailures } = context.services;
  const log = context.request.log;
  log.callerType = "integrator";

  // A client address that keeps failing is refused before its next guess is even looked at.
  const blockedFor = authFailures.blockedFor(context.request.ip);
  if (blockedFor > 0) throw rateLimited(blockedFor);

  const token = bearerToken(request);
  const verifier = token ? VERIFIERS.find((v) => v.recognises(token)) : undefined;
  const integrator = token && verifier ? await verifier.verify(token, context) : null;
  if (!integrator) {
    await authFailures.record(context.request.ip);
    throw unauthenticated("Invalid or missing API key", "Bearer");
  }

  const { id, lastUsedAt, kind } = integrator.credential;
  const limiter = kind === "oauth" ? context.services.oauthRateLimit : context.services.apiRateLimit;
  const report = (state: RateLimitState) => setResponseHeaders(context, rateLimitHeaders(state));
  // A suspended account, or a key restricted to a suspended owner's workspace, is refused before anything is
  // counted, so its answer stays 403 whatever its usage.
  if (integrator.suspended) {
    report((await limiter.peek([id], integrator.limits)).get(id)!);
    throw forbidden();
  }
  if (integrator.credential.kind === "oauth") requireScope(integrator.credential.scopes, scope);
  const state = await limiter.consume(id, integrator.limits);
  report(state);
  if (state.retryAfter !== undefined) throw rateLimited(state.retryAfter);
  if (!lastUsedAt || now().getTime() - Date.parse(lastUsedAt) > LAST_USED_PRECISION_MS) {
    const { db } = context.services;
    if (kind === "oauth") await connectedAppsOf(db, integrator.user.id).touchLastUsed(id);
    else await apiKeysOf(db, integrator.user).touchLastUsed(id);
  }
  return integrator;
}

/** The token API's guard (caller type "integrator"). */
export const requireIntegrator = defineGuard("integrator", authenticateIntegrator);

/** 403 with `insufficient_scope` (RFC 6750 §3.1) in the challenge and the spec's error body. */
function requireScope(granted: string[], scope: OAuthScope | undefined): void {
  if (!scope) throw forbidden("This route accepts API keys only, not OAuth access tokens");
  if (granted.includes(scope)) return;
  throw forbidden(`This access token lacks the ${scope} scope`, `Bearer error="insufficient_scope", scope="${scope}"`);
}
