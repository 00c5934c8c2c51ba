/** Owned by `app/modules/audit`. Created in 0001-foundation. */
import type { Generated } from "kysely";

export interface AuditEventsTable {
  id: string;
  /** Set for events inside a workspace; removed with it. */
  workspace_id: string | null;
  /** Set for events about an account itself (sign-in, sign-up); removed with the account. */
  user_id: string | null;
  /** Who did it; kept as null when that account is deleted so the workspace keeps its history. */
  actor_user_id: string | null;
  /** The account an event is about (a member added, say); null once that account is deleted. */
  target_user_id: string | null;
  action: string;
  /** JSON text; never holds a user id or email (those go in the columns above, which deletion clears). */
  detail: string;
  ip: string | null;
  created_at: Generated<string>;
}

export interface AuditTables {
  audit_events: AuditEventsTable;
}
