/**
 * Bearer credentials of the token API: what an integrator is, and the API-key verifier. The guard that runs
 * the chain of verifiers (API keys, OAuth access tokens) and the rate limit is `requireIntegrator` in
 * app/modules/access/integrator.server.ts.
 */
import type { AppLoadContext } from "@remix-run/node";
import { sql } from "kysely";
import type { ApiKeysTable, Tier, UserStatus, UsersTable } from "~db/schema";
import { hashKey, isWellFormedKey, looksLikeKey } from "~/modules/api-keys/format.server";
import { statusOf } from "~/modules/api-keys/api-keys.server";
import { rateLimitsOf, type RateLimits } from "~/modules/plans/tiers";

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
  /**
   * True unless its user is active and, for a key restricted to one workspace, so is that workspace's owner: a
   * suspended owner's workspace stops for every member's key (ADR 003, ADR 009). The guard answers the spec's
   * 403 while it is true.
   */
  suspended: boolean;
}

/** One kind of bearer token. `verify` answers null for a token it recognises but rejects. */
export interface BearerVerifier {
  recognises(token: string): boolean;
  verify(token: string, context: AppLoadContext): Promise<Integrator | null>;
}

type KeyOwner = Pick<ApiKeysTable, "id" | "workspace_id" | "expires_at" | "revoked_at" | "last_used_at"> &
  Pick<UsersTable, "email" | "tier" | "status" | "created_at" | "rate_limit_per_hour" | "rate_limit_burst"> & {
    user_id: string;
    /** The status of the owner of the workspace the key is restricted to; null for an unrestricted key. */
    workspace_owner_status: UserStatus | null;
  };

export const apiKeyVerifier: BearerVerifier = {
  recognises: looksLikeKey,
  async verify(token, context) {
    if (!isWellFormedKey(token)) return null;
    const { db } = context.services;
    // A plain template rather than the query builder: this runs on every token API request, and building and
    // compiling the query each time costs more than running it. Its columns must match `KeyOwner`. The
    // restricted workspace's owner comes in the same statement: the suspension check costs no round trip.
    const { rows } = await sql<KeyOwner>`
      select k.id, k.workspace_id, k.expires_at, k.revoked_at, k.last_used_at, u.id as user_id, u.email, u.tier,
             u.status, u.created_at, u.rate_limit_per_hour, u.rate_limit_burst, o.status as workspace_owner_status
      from api_keys k join users u on u.id = k.user_id
      left join workspaces w on w.id = k.workspace_id
      left join users o on o.id = w.owner_user_id
      where k.key_hash = ${hashKey(token)}`.execute(db);
    const row = rows[0];
    if (!row || statusOf(row) !== "active") return null;
    return {
      user: { id: row.user_id, email: row.email, tier: row.tier, status: row.status, created_at: row.created_at },
      credential: { kind: "api_key", id: row.id, workspaceId: row.workspace_id, lastUsedAt: row.last_used_at },
      limits: rateLimitsOf(row),
      suspended: row.status !== "active" || (row.workspace_owner_status ?? "active") !== "active",
    };
  },
};
