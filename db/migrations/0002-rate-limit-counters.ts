import type { Kysely } from "kysely";

/**
 * The counters table of rate-limiter-flexible (throttles now, per-key API limits next), in the shape its
 * SQLite and Postgres stores expect. Created here, not by the library at start, so several processes
 * starting together never race on CREATE TABLE.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("rate_limit_counters")
    .addColumn("key", "varchar(255)", (c) => c.primaryKey())
    .addColumn("points", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expire", "bigint")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("rate_limit_counters").execute();
}
