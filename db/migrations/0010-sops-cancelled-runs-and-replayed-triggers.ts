import { sql, type Kysely } from "kysely";
import { isSqlite, rebuildSqliteTable } from "./sqlite-rebuild";

/**
 * Two changes to the SOP tables (docs/decisions/010-sops.md):
 *
 * - A run may end `cancelled`: suspending the owner of its workspace cancels the runs it had not finished,
 *   and the run stays in the SOP's history with the reason in `error`.
 * - A replay record names the run its request queued (`run_id`), so an identical copy of an accepted request
 *   is answered with that run instead of a 401. The foreign key removes the record with its run.
 *
 * `sop_runs` declared its status check inside CREATE TABLE, which SQLite cannot alter: the table is rebuilt,
 * with whatever indexes it has when this runs (another migration may have added some since 0005-sops).
 */
const STATUSES_BEFORE = sql`status in ('queued', 'running', 'succeeded', 'failed')`;
const STATUSES_AFTER = sql`status in ('queued', 'running', 'succeeded', 'failed', 'cancelled')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) {
    await rebuildRuns(db, STATUSES_AFTER);
  } else {
    await db.schema.alterTable("sop_runs").dropConstraint("sop_runs_status_check").execute();
    await db.schema.alterTable("sop_runs").addCheckConstraint("sop_runs_status_check", STATUSES_AFTER).execute();
  }
  await db.schema
    .alterTable("sop_signature_replays")
    .addColumn("run_id", "text", (c) => c.references("sop_runs.id").onDelete("cascade"))
    .execute();
}

/** Cancelled runs read as failed runs before this migration (their `error` still says why). */
export async function down(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) {
    // SQLite cannot drop a column with a foreign key, and `rebuildSqliteTable` keeps every column: by hand,
    // the same steps in one transaction. Nothing references this table.
    await db.transaction().execute(async (trx) => {
      await trx.schema
        .createTable("sop_signature_replays_rebuilt")
        .addColumn("signature_hash", "text", (c) => c.primaryKey())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .execute();
      await sql`insert into sop_signature_replays_rebuilt (signature_hash, expires_at)
        select signature_hash, expires_at from sop_signature_replays`.execute(trx);
      await trx.schema.dropTable("sop_signature_replays").execute();
      await trx.schema.alterTable("sop_signature_replays_rebuilt").renameTo("sop_signature_replays").execute();
      await trx.schema
        .createIndex("sop_signature_replays_expiry_idx")
        .on("sop_signature_replays")
        .column("expires_at")
        .execute();
    });
  } else {
    await db.schema.alterTable("sop_signature_replays").dropColumn("run_id").execute();
  }
  await sql`update sop_runs set status = 'failed' where status = 'cancelled'`.execute(db);
  if (isSqlite(db)) {
    await rebuildRuns(db, STATUSES_BEFORE);
  } else {
    await db.schema.alterTable("sop_runs").dropConstraint("sop_runs_status_check").execute();
    await db.schema.alterTable("sop_runs").addCheckConstraint("sop_runs_status_check", STATUSES_BEFORE).execute();
  }
}

/** `sop_runs` as 0005-sops made it, with `statuses` as its check; its indexes as they are now. */
async function rebuildRuns(db: Kysely<unknown>, statuses: ReturnType<typeof sql>) {
  const existing = await sql<{ sql: string }>`
    select sql from sqlite_master where type = 'index' and tbl_name = 'sop_runs' and sql is not null`.execute(db);
  await rebuildSqliteTable(
    db,
    "sop_runs",
    (t) =>
      t
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
        .addColumn("sop_id", "text", (c) => c.notNull().references("sops.id").onDelete("cascade"))
        .addColumn("trigger_id", "text")
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("input", "text", (c) => c.notNull())
        .addColumn("definition", "text", (c) => c.notNull())
        .addColumn("steps", "text", (c) => c.notNull())
        .addColumn("vars", "text", (c) => c.notNull())
        .addColumn("error", "text")
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("started_at", "text")
        .addColumn("finished_at", "text")
        .addCheckConstraint("sop_runs_status_check", statuses),
    async (trx) => {
      for (const index of existing.rows) await sql.raw(index.sql).execute(trx);
    },
  );
}
