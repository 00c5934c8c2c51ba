import type { Kysely } from "kysely";

/**
 * Subscriptions through Stripe Billing (issue 18, ADR 033): a product may be sold as a subscription — charged every
 * `subscription_interval_count` weeks, months or years, after `subscription_trial_days` free days — and each
 * customer's subscription keeps the state Stripe last reported (status, the period it is in, whether it ends at
 * that period's end), with the time of the event that said so, so an older event arriving late never undoes a
 * newer one. Each charge Stripe makes for it (an invoice, paid or failed) is recorded once by Stripe's id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("products").addColumn("subscription_interval", "text").execute();
  await db.schema
    .alterTable("products")
    .addColumn("subscription_interval_count", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable("products")
    .addColumn("subscription_trial_days", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("subscriptions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("customer_id", "text", (c) => c.notNull().references("customers.id").onDelete("cascade"))
    .addColumn("product_id", "text", (c) => c.references("products.id").onDelete("set null"))
    .addColumn("variant_id", "text")
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("reference", "text", (c) => c.notNull())
    .addColumn("checkout_reference", "text")
    .addColumn("provider_customer", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("interval", "text", (c) => c.notNull())
    .addColumn("interval_count", "integer", (c) => c.notNull())
    .addColumn("trial_ends_at", "text")
    .addColumn("current_period_end", "text")
    .addColumn("cancel_at_period_end", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("canceled_at", "text")
    .addColumn("provider_updated_at", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("subscriptions_reference_unique", ["workspace_id", "provider", "reference"])
    .execute();
  await db.schema
    .createIndex("subscriptions_customer_idx")
    .on("subscriptions")
    .columns(["workspace_id", "customer_id", "created_at"])
    .execute();

  await db.schema
    .createTable("subscription_charges")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("subscription_id", "text", (c) => c.notNull().references("subscriptions.id").onDelete("cascade"))
    .addColumn("reference", "text", (c) => c.notNull())
    .addColumn("number", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("hosted_url", "text")
    .addColumn("pdf_url", "text")
    .addColumn("occurred_at", "text", (c) => c.notNull())
    .addUniqueConstraint("subscription_charges_reference_unique", ["workspace_id", "reference"])
    .execute();
  await db.schema
    .createIndex("subscription_charges_subscription_idx")
    .on("subscription_charges")
    .columns(["subscription_id", "occurred_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("subscription_charges").execute();
  await db.schema.dropTable("subscriptions").execute();
  for (const column of ["subscription_trial_days", "subscription_interval_count", "subscription_interval"]) {
    await db.schema.alterTable("products").dropColumn(column).execute();
  }
}
