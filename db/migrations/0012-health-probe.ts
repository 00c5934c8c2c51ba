import type { Kysely } from "kysely";

/**
 * One row the readiness check rewrites (at most every few seconds) to learn whether the database can still
 * write: a full disk or a read-only volume refuses that write before it refuses a customer's
 * (app/lib/write-health.server.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("health_probe")
    .addColumn("id", "varchar(32)", (c) => c.primaryKey())
    .addColumn("checked_at", "varchar(32)", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("health_probe").execute();
}
