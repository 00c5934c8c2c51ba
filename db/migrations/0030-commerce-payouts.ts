import type { Kysely } from "kysely";

/**
 * Payouts (issue 18, ADR 032): what a payment provider sent from the shop's balance to its bank, as the provider
 * last reported it (Stripe's `payout.*` events, each read back from Stripe), once per provider id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("payouts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("reference", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("arrival_date", "text", (c) => c.notNull())
    .addColumn("detail", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("provider_updated_at", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("payouts_reference_unique", ["workspace_id", "provider", "reference"])
    .execute();
  await db.schema
    .createIndex("payouts_workspace_idx")
    .on("payouts")
    .columns(["workspace_id", "arrival_date"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("payouts").execute();
}
