import type { Kysely } from "kysely";

/**
 * Card payment providers (issue 18, ADR 032): each workspace's connection to a provider — its credentials sealed
 * with the app key, the account it answered as and the state the provider last reported — and, on an order paid
 * through a provider's hosted page, that page's session (its id, address and when it expires), so the return, the
 * webhook and the release all name the same one.
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
  await db.schema.alterTable("orders").addColumn("checkout_reference", "text").execute();
  await db.schema.alterTable("orders").addColumn("checkout_url", "text").execute();
  await db.schema.alterTable("orders").addColumn("checkout_expires_at", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ["checkout_expires_at", "checkout_url", "checkout_reference"]) {
    await db.schema.alterTable("orders").dropColumn(column).execute();
  }
  await db.schema.dropTable("payment_connections").execute();
}
