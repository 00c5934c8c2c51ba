import { sql, type Kysely } from "kysely";
import { isSqlite, rebuildSqliteTable } from "./sqlite-rebuild";

/**
 * Mail idempotency keys are unique per workspace, not across the deployment (0005-sops made them globally
 * unique while `app/modules/mail` looks them up per workspace, so a second workspace using a key got a
 * unique violation instead of its own message). Messages outside any workspace (account mail) still
 * deduplicate among themselves: unique indexes treat nulls as distinct, hence the partial index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const indexes = async (on: Kysely<unknown>) => {
    await on.schema
      .createIndex("mail_messages_idempotency_idx")
      .unique()
      .on("mail_messages")
      .columns(["workspace_id", "idempotency_key"])
      .execute();
    await on.schema
      .createIndex("mail_messages_idempotency_unscoped_idx")
      .unique()
      .on("mail_messages")
      .column("idempotency_key")
      .where(sql.ref("workspace_id"), "is", null)
      .execute();
  };
  if (isSqlite(db)) {
    await rebuild(db, false, indexes);
  } else {
    await db.schema.alterTable("mail_messages").dropConstraint("mail_messages_idempotency_key_key").execute();
    await indexes(db);
  }
}

/** Fails if two workspaces have used one key since: the deployment-wide constraint cannot hold them. */
export async function down(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) {
    await rebuild(db, true, async () => undefined);
    return;
  }
  await db.schema.dropIndex("mail_messages_idempotency_unscoped_idx").execute();
  await db.schema.dropIndex("mail_messages_idempotency_idx").execute();
  await db.schema
    .alterTable("mail_messages")
    .addUniqueConstraint("mail_messages_idempotency_key_key", ["idempotency_key"])
    .execute();
}

/** The table exactly as 0005-sops made it, but for the key's inline UNIQUE when `globallyUnique` is false. */
function rebuild(db: Kysely<unknown>, globallyUnique: boolean, indexes: (trx: Kysely<unknown>) => Promise<void>) {
  return rebuildSqliteTable(
    db,
    "mail_messages",
    (t) =>
      t
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("workspace_id", "text", (c) => c.references("workspaces.id").onDelete("cascade"))
        .addColumn("idempotency_key", "text", (c) => (globallyUnique ? c.unique() : c))
        .addColumn("transport", "text", (c) => c.notNull())
        .addColumn("to_address", "text", (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("error", "text")
        .addColumn("created_at", "text", (c) => c.notNull()),
    async (trx) => {
      await trx.schema
        .createIndex("mail_messages_workspace_idx")
        .on("mail_messages")
        .columns(["workspace_id", "created_at"])
        .execute();
      await indexes(trx);
    },
  );
}
