import type { Kysely } from "kysely";

/**
 * Card payment providers (issue 18, ADR 032): each workspace's connection to a provider — its credentials sealed
 * with the app key, the account it answered as and the state the provider last reported — and, on an order paid
 * through a provider's hosted page, that page's session (its id, address and when it expires), so the return, the
 * webhook and the release all name the same one. And invoices: one per paid order, numbered per workspace from a
 * counter taken in the payment's own transaction, so a number is never skipped or used twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("payment_connections")
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("account_id", "text")
    .addColumn("account_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("credentials", "text", (c) => c.notNull())
    .addColumn("webhook_endpoint_id", "text")
    .addColumn("detail", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("checked_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("payment_connections_pk", ["workspace_id", "provider"])
    .execute();
  await db.schema
    .createTable("invoices")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("number", "integer", (c) => c.notNull())
    .addColumn("issued_at", "text", (c) => c.notNull())
    .addUniqueConstraint("invoices_number_unique", ["workspace_id", "number"])
    .addUniqueConstraint("invoices_order_unique", ["order_id"])
    .execute();
  await db.schema
    .createTable("invoice_counters")
    .addColumn("workspace_id", "text", (c) => c.primaryKey().references("workspaces.id").onDelete("cascade"))
    .addColumn("last_number", "integer", (c) => c.notNull())
    .execute();
  await db.schema.alterTable("orders").addColumn("checkout_reference", "text").execute();
  await db.schema.alterTable("orders").addColumn("checkout_url", "text").execute();
  await db.schema.alterTable("orders").addColumn("checkout_expires_at", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ["checkout_expires_at", "checkout_url", "checkout_reference"]) {
    await db.schema.alterTable("orders").dropColumn(column).execute();
  }
  await db.schema.dropTable("payment_connections").execute();
  await db.schema.dropTable("invoice_counters").execute();
  await db.schema.dropTable("invoices").execute();
}
