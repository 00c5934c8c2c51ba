/** Append-only record of who did what. Workspace events go with the workspace; account events with the account. */
import type { Db } from "~db/client";
import { isoNow } from "~/lib/clock.server";
import { newId } from "~/lib/ids.server";

export interface AuditEntry {
  action: string;
  actorUserId: string | null;
  targetUserId?: string | null;
  detail?: Record<string, unknown>;
  ip?: string | null;
}

/**
 * Who performs an audited act. Repositories that act take it as a parameter and record the event in the
 * act's own transaction, so the trail never claims what did not happen nor misses what did.
 */
export interface Actor {
  userId: string;
  ip: string | null;
}

export async function recordWorkspaceEvent(db: Db, workspaceId: string, entry: AuditEntry): Promise<void> {
  await insert(db, { workspace_id: workspaceId, user_id: null }, entry);
}

export async function recordAccountEvent(db: Db, userId: string, entry: AuditEntry): Promise<void> {
  await insert(db, { workspace_id: null, user_id: userId }, entry);
}

async function insert(db: Db, scope: { workspace_id: string | null; user_id: string | null }, entry: AuditEntry) {
  await db
    .insertInto("audit_events")
    .values({
      id: newId(),
      ...scope,
      actor_user_id: entry.actorUserId,
      target_user_id: entry.targetUserId ?? null,
      action: entry.action,
      detail: JSON.stringify(entry.detail ?? {}),
      ip: entry.ip ?? null,
      created_at: isoNow(),
    })
    .execute();
}
