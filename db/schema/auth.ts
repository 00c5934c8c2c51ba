/**
 * Owned by `app/modules/auth` (operator sessions). `sessions` was created in 0001-foundation,
 * `auth_known_addresses` in 0014-auth-known-addresses. The sign-in and bearer
 * throttles count in `rate_limit_counters` (0002-rate-limit-counters), a table in rate-limiter-flexible's own
 * shape that only the library queries, so it has no Kysely type.
 */
import type { Selectable } from "kysely";

export interface SessionsTable {
  /** SHA-256 (hex) of the cookie's secret; the secret itself is never stored. */
  id: string;
  user_id: string;
  selected_workspace_id: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  ip: string | null;
  user_agent: string | null;
}

/**
 * An address an account has signed in from (ADR 004, "Throttle"): while its e-mail is over the throttle's cap,
 * sign-in is refused everywhere else. Kept for SESSION_MAX_DAYS after the last sign-in from it.
 */
export interface AuthKnownAddressesTable {
  user_id: string;
  /** SHA-256 (base64url) of the account's id and the address's throttle key (an IPv6 /64): no address in clear. */
  address_hash: string;
  last_signed_in_at: string;
  expires_at: string;
}

export interface AuthTables {
  sessions: SessionsTable;
  auth_known_addresses: AuthKnownAddressesTable;
}

export type SessionRow = Selectable<SessionsTable>;
