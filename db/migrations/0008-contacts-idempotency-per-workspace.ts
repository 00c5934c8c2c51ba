import type { Kysely } from "kysely";
import { isSqlite, rebuildSqliteTable } from "./sqlite-rebuild";

/**
 * Contact-event idempotency keys are unique per workspace, not across the deployment (0005-sops made them
 * globally unique while `app/modules/contacts` looks them up per workspace, so a second workspace using a
 * key got a unique violation instead of its own event).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const index = (on: Kysely<unknown>) =>
    on.schema
      .createIndex("contact_events_idempotency_idx")
      .unique()
      .on("contact_events")
      .columns(["workspace_id", "idempotency_key"])
      .execute();
  if (isSqlite(db)) {
    await rebuild(db, false, index);
  } else {
    await db.schema.alterTable("contact_events").dropConstraint("contact_events_idempotency_key_key").execute();
    await index(db);
  }
}

/** Fails if two workspaces have used one key since: the deployment-wide constraint cannot hold them. */
export async function down(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) {
    await rebuild(db, true, async () => undefined);
    return;
  }
  await db.schema.dropIndex("contact_events_idempotency_idx").execute();
  await db.schema
    .alterTable("contact_events")
    .addUniqueConstraint("contact_events_idempotency_key_key", ["idempotency_key"])
    .execute();
}

/** The table exactly as 0005-sops made it, but for the key's inline UNIQUE when `globallyUnique` is false. */
function rebuild(db: Kysely<unknown>, globallyUnique: boolean, indexes: (trx: Kysely<unknown>) => Promise<void>) {
  return rebuildSqliteTable(
    db,
    "contact_events",
    (t) =>
      t
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("idempotency_key", "text", (c) => (globallyUnique ? c.unique() : c))
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("note", "text", (c) => c.notNull())
        .addColumn("source", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull()),
    async (trx) => {
      await trx.schema
        .createIndex("contact_events_workspace_idx")
        .on("contact_events")
        .columns(["workspace_id", "email"])
        .execute();
      await indexes(trx);
    },
  );
}
