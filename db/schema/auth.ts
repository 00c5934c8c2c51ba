/**
 * Owned by `app/modules/auth` (operator sessions). Created in 0001-foundation. The sign-in and bearer
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

export interface AuthTables {
  sessions: SessionsTable;
}

export type SessionRow = Selectable<SessionsTable>;
