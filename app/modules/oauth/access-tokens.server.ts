/**
 * OAuth access tokens in the token API's bearer chain (ADR 009's verifier list): opaque `atr_at_…` strings
 * looked up by SHA-256. A revoked or expired token, a revoked grant, or a deleted user (cascade) is refused
 * like a bad key (401); a suspended user gets the chain's 403.
 */
import { sql } from "kysely";
import type { Tier, UserStatus } from "~db/schema";
import { isoNow } from "~/lib/clock.server";
import type { BearerVerifier } from "~/modules/auth/bearer.server";
import { rateLimitsOf } from "~/modules/plans/tiers";
import { sha256Hex } from "~/lib/hash.server";
import { parseScopes } from "./scopes";
import { ACCESS_TOKEN_PREFIX } from "./tokens.server";

interface TokenOwner {
  grant_id: string;
  scopes: string;
  last_used_at: string | null;
  user_id: string;
  email: string;
  tier: Tier;
  status: UserStatus;
  created_at: string;
  rate_limit_per_hour: number | null;
  rate_limit_burst: number | null;
}

export const oauthAccessTokenVerifier: BearerVerifier = {
  recognises: (token) => token.startsWith(ACCESS_TOKEN_PREFIX),
  async verify(token, context) {
    if (!/^atr_at_[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const { rows } = await sql<TokenOwner>`
      select t.grant_id, t.scopes, g.last_used_at, u.id as user_id, u.email, u.tier, u.status, u.created_at,
             u.rate_limit_per_hour, u.rate_limit_burst
      from oauth_tokens t
      join oauth_grants g on g.id = t.grant_id
      join users u on u.id = g.user_id
      where t.token_hash = ${sha256Hex(token)} and t.kind = 'access' and t.revoked_at is null
        and g.revoked_at is null and t.expires_at > ${isoNow()}`.execute(context.services.db);
    const row = rows[0];
    if (!row) return null;
    return {
      user: { id: row.user_id, email: row.email, tier: row.tier, status: row.status, created_at: row.created_at },
      credential: {
        kind: "oauth",
        id: row.grant_id,
        workspaceId: null,
        lastUsedAt: row.last_used_at,
        scopes: parseScopes(row.scopes),
      },
      limits: rateLimitsOf(row),
      // A grant is to the user, not to one workspace: only the user's own status applies here; a workspace
      // the token reaches is checked by the guard that reaches it (`requireSopAccess`).
      suspended: row.status !== "active",
    };
  },
};
