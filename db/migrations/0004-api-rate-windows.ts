import type { Kysely } from "kysely";

/**
 * Per-key token-API windows: one row per key holding its hourly and burst windows, updated by a single
 * atomic UPSERT per request (docs/decisions/009-token-api.md). Times are Unix milliseconds.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("api_rate_windows")
    .addColumn("key_id", "text", (c) => c.primaryKey().references("api_keys.id").onDelete("cascade"))
    .addColumn("hour_start", "bigint", (c) => c.notNull())
    .addColumn("hour_count", "integer", (c) => c.notNull())
    .addColumn("burst_start", "bigint", (c) => c.notNull())
    .addColumn("burst_count", "integer", (c) => c.notNull())
    .addColumn("admitted", "integer", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("api_rate_windows").execute();
}
