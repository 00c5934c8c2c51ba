/**
 * First verification of the token API (`/api/auth/*`, `/api/chat/v5`): `Authorization: Bearer <token>`,
 * checked by a chain of verifiers — API keys now; the OAuth issue appends an access-token verifier here
 * and no route changes. Cookies are never looked at. Then the per-key rate limit, whose state every
 * response carries as X-RateLimit-* headers (set through `setResponseHeaders`, errors included).
 */
import type { AppLoadContext } from "@remix-run/node";
import { sql } from "kysely";
import type { ApiKeysTable, Tier, UserStatus, UsersTable } from "~db/schema";
import { isoNow, now } from "~/lib/clock.server";
import { forbidden, rateLimited, unauthenticated } from "~/lib/errors";
import { setResponseHeaders } from "~/lib/http.server";
import { hashKey, isWellFormedKey, looksLikeKey } from "~/modules/api-keys/format.server";
import { statusOf } from "~/modules/api-keys/api-keys.server";
import { oauthAccessTokenVerifier } from "~/modules/oauth/access-tokens.server";
import type { Scope as OAuthScope } from "~/modules/oauth/scopes";
import { rateLimitsOf, type RateLimits } from "~/modules/plans/tiers";
import type { RateLimitState } from "~/modules/rate-limit/api-rate-limit.server";

export interface Integrator {
  user: { id: string; email: string; tier: Tier; status: UserStatus; created_at: string };
  /**
   * An API key (all of its user's powers, possibly in one workspace), or an OAuth grant's access token (only
   * its scopes; `id` is the grant's, which its rate limit counts against).
   */
  credential:
    | { kind: "api_key"; id: string; workspaceId: string | null; lastUsedAt: string | null }
    | { kind: "oauth"; id: string; workspaceId: null; lastUsedAt: string | null; scopes: string[] };
  limits: RateLimits;
}

/** One kind of bearer token. `verify` answers null for a token it recognises but rejects. */
export interface BearerVerifier {
  recognises(token: string): boolean;
  verify(token: string, context: AppLoadContext): Promise<Integrator | null>;
}

type KeyOwner = Pick<ApiKeysTable, "id" | "workspace_id" | "expires_at" | "revoked_at" | "last_used_at"> &
  Pick<UsersTable, "email" | "tier" | "status" | "created_at" | "rate_limit_per_hour" | "rate_limit_burst"> & {
    user_id: string;
  };

/** Writing last_used_at on every call would add a write per request; once a minute is precise enough. */
const LAST_USED_PRECISION_MS = 60_000;

export const apiKeyVerifier: BearerVerifier = {
  recognises: looksLikeKey,
  async verify(token, context) {
    if (!isWellFormedKey(token)) return null;
    const { db } = context.services;
    // A plain template rather than the query builder: this runs on every token API request, and building and
    // compiling the query each time costs more than running it. Its columns must match `KeyOwner`.
    const { rows } = await sql<KeyOwner>`
      select k.id, k.workspace_id, k.expires_at, k.revoked_at, k.last_used_at, u.id as user_id, u.email, u.tier,
             u.status, u.created_at, u.rate_limit_per_hour, u.rate_limit_burst
      from api_keys k join users u on u.id = k.user_id
      where k.key_hash = ${hashKey(token)}`.execute(db);
    const row = rows[0];
    if (!row || statusOf(row) !== "active") return null;
    return {
      user: { id: row.user_id, email: row.email, tier: row.tier, status: row.status, created_at: row.created_at },
      credential: { kind: "api_key", id: row.id, workspaceId: row.workspace_id, lastUsedAt: row.last_used_at },
      limits: rateLimitsOf(row),
    };
  },
};

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
export async function requireIntegrator(
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
  const rateLimitHeaders = (state: RateLimitState) =>
    setResponseHeaders(context, {
      "X-RateLimit-Limit": String(state.limit),
      "X-RateLimit-Remaining": String(state.remaining),
      "X-RateLimit-Reset": String(state.reset),
    });
  // A suspended account is refused before anything is counted, so its answer stays 403 whatever its usage.
  if (integrator.user.status !== "active") {
    rateLimitHeaders((await limiter.peek([id], integrator.limits)).get(id)!);
    throw forbidden();
  }
  if (integrator.credential.kind === "oauth") requireScope(integrator.credential.scopes, scope);
  const state = await limiter.consume(id, integrator.limits);
  rateLimitHeaders(state);
  if (state.retryAfter !== undefined) throw rateLimited(state.retryAfter);
  if (!lastUsedAt || now().getTime() - Date.parse(lastUsedAt) > LAST_USED_PRECISION_MS) {
    const table = kind === "oauth" ? "oauth_grants" : "api_keys";
    await context.services.db.updateTable(table).set({ last_used_at: isoNow() }).where("id", "=", id).execute();
  }
  return integrator;
}

/** 403 with `insufficient_scope` (RFC 6750 §3.1) in the challenge and the spec's error body. */
function requireScope(granted: string[], scope: OAuthScope | undefined): void {
  if (!scope) throw forbidden("This route accepts API keys only, not OAuth access tokens");
  if (granted.includes(scope)) return;
  throw forbidden(`This access token lacks the ${scope} scope`, `Bearer error="insufficient_scope", scope="${scope}"`);
}
