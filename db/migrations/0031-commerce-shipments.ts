import type { Kysely } from "kysely";

/**
 * Shipments (issue 18, ADR 034): the packages an order leaves in — which lines each holds, the carrier and
 * tracking number (entered by hand, or from a label bought through EasyPost), the label, and the tracking the
 * provider reports. A shipment is written in the transaction that marks its lines as sent, so an order is never
 * "sent" without its package or the other way round. `shipment_events` keeps each tracking step once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("shipments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("order_event_id", "text", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("carrier", "text", (c) => c.notNull())
    .addColumn("service", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("tracking_number", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("tracking_url", "text")
    .addColumn("label_url", "text")
    .addColumn("label_cost", "integer")
    .addColumn("label_currency", "text")
    .addColumn("weight_grams", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("status_detail", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("estimated_delivery", "text")
    .addColumn("delivered_at", "text")
    .addColumn("provider_shipment_id", "text")
    .addColumn("provider_tracker_id", "text")
    .addColumn("provider_updated_at", "text")
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    // A label bought once is one shipment, however often its purchase is retried.
    .addUniqueConstraint("shipments_provider_unique", ["workspace_id", "provider", "provider_shipment_id"])
    .execute();
  await db.schema.createIndex("shipments_order_idx").on("shipments").columns(["order_id"]).execute();
  await db.schema
    .createIndex("shipments_workspace_idx")
    .on("shipments")
    .columns(["workspace_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("shipments_tracker_idx")
    .on("shipments")
    .columns(["workspace_id", "provider_tracker_id"])
    .execute();

  await db.schema
    .createTable("shipment_lines")
    .addColumn("shipment_id", "text", (c) => c.notNull().references("shipments.id").onDelete("cascade"))
    .addColumn("order_line_id", "text", (c) => c.notNull().references("order_lines.id").onDelete("cascade"))
    .addColumn("quantity", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("shipment_lines_pk", ["shipment_id", "order_line_id"])
    .execute();

  await db.schema
    .createTable("shipment_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("shipment_id", "text", (c) => c.notNull().references("shipments.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("location", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("occurred_at", "text", (c) => c.notNull())
    // The provider repeats every step in each update: a step seen before is not added again.
    .addUniqueConstraint("shipment_events_step_unique", ["shipment_id", "occurred_at", "status", "message"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("shipment_events").execute();
  await db.schema.dropTable("shipment_lines").execute();
  await db.schema.dropTable("shipments").execute();
}
