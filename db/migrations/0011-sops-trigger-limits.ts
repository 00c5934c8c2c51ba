import type { Kysely } from "kysely";

/**
 * What the SOP trigger's per-tier limits need (docs/decisions/010-sops.md, "Limits"): each trigger's hourly
 * and burst windows, one row per trigger in the token API's shape (updated by the same one-statement UPSERT,
 * app/modules/rate-limit/api-rate-limit.server.ts), and an index that counts a workspace's queued runs
 * without reading its whole run history. Times are Unix milliseconds.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("sop_trigger_rate_windows")
    .addColumn("key_id", "text", (c) => c.primaryKey().references("sop_triggers.id").onDelete("cascade"))
    .addColumn("hour_start", "bigint", (c) => c.notNull())
    .addColumn("hour_count", "integer", (c) => c.notNull())
    .addColumn("burst_start", "bigint", (c) => c.notNull())
    .addColumn("burst_count", "integer", (c) => c.notNull())
    .addColumn("admitted", "integer", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("sop_runs_workspace_status_idx")
    .on("sop_runs")
    .columns(["workspace_id", "status"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("sop_runs_workspace_status_idx").execute();
  await db.schema.dropTable("sop_trigger_rate_windows").execute();
}
