import type { Kysely } from "kysely";

/**
 * Scheduling (issue 19, ADR 036): bookable services, the hosts (staff or resources) who deliver them with their
 * weekly hours in their own zone, and bookings. A booking's time is two UTC instants; its host's `lock_seq` is
 * bumped first in the transaction that books it, so two bookings of one host are never checked side by side.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("booking_services")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("duration_minutes", "integer", (c) => c.notNull())
    .addColumn("interval_minutes", "integer", (c) => c.notNull())
    .addColumn("buffer_before_minutes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("buffer_after_minutes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("notice_minutes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("window_days", "integer", (c) => c.notNull())
    .addColumn("capacity", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("price", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("deposit", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("location_kind", "text", (c) => c.notNull())
    .addColumn("location_detail", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("questions", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("cancel_notice_minutes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("reschedule_notice_minutes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("requires_approval", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("hold_minutes", "integer", (c) => c.notNull().defaultTo(5))
    .addColumn("reminder_hours", "integer", (c) => c.notNull().defaultTo(24))
    .addColumn("follow_up_hours", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("booking_services_slug_unique", ["workspace_id", "slug"])
    .execute();

  await db.schema
    .createTable("booking_hosts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("time_zone", "text", (c) => c.notNull())
    .addColumn("weekly", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("overrides", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("lock_seq", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("feed_token_hash", "text", (c) => c.unique())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("booking_hosts_workspace_idx").on("booking_hosts").columns(["workspace_id"]).execute();

  await db.schema
    .createTable("booking_service_hosts")
    .addColumn("service_id", "text", (c) => c.notNull().references("booking_services.id").onDelete("cascade"))
    .addColumn("host_id", "text", (c) => c.notNull().references("booking_hosts.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("booking_service_hosts_pk", ["service_id", "host_id"])
    .execute();

  await db.schema
    .createTable("bookings")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("service_id", "text", (c) => c.notNull().references("booking_services.id").onDelete("cascade"))
    .addColumn("host_id", "text", (c) => c.notNull().references("booking_hosts.id").onDelete("cascade"))
    .addColumn("customer_id", "text", (c) => c.references("customers.id").onDelete("set null"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("start_at", "text", (c) => c.notNull())
    .addColumn("end_at", "text", (c) => c.notNull())
    .addColumn("seats", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("phone", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("answers", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("visitor_time_zone", "text", (c) => c.notNull())
    .addColumn("notes", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("price", "integer", (c) => c.notNull())
    .addColumn("deposit", "integer", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("amount_paid", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("hold_expires_at", "text")
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("cancelled_at", "text")
    .addColumn("cancelled_by", "text")
    .addColumn("cancel_reason", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("reminder_sent_at", "text")
    .addColumn("follow_up_sent_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // What occupies a host around a time (the slot check and the calendar); a customer's bookings; the hold sweep.
  await db.schema.createIndex("bookings_host_idx").on("bookings").columns(["host_id", "start_at"]).execute();
  await db.schema.createIndex("bookings_workspace_idx").on("bookings").columns(["workspace_id", "start_at"]).execute();
  await db.schema
    .createIndex("bookings_customer_idx")
    .on("bookings")
    .columns(["workspace_id", "customer_id"])
    .execute();
  await db.schema.createIndex("bookings_hold_idx").on("bookings").columns(["status", "hold_expires_at"]).execute();

  // The shop's orders a booking is paid through: its deposit, then what is left (commerce finalises each once).
  await db.schema
    .createTable("booking_payments")
    .addColumn("order_id", "text", (c) => c.primaryKey().references("orders.id").onDelete("cascade"))
    .addColumn("booking_id", "text", (c) => c.notNull().references("bookings.id").onDelete("cascade"))
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("booking_payments_booking_idx").on("booking_payments").columns(["booking_id"]).execute();

  // Who waits for a full slot: the first still waiting is offered it when a place frees.
  await db.schema
    .createTable("booking_waitlist")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("service_id", "text", (c) => c.notNull().references("booking_services.id").onDelete("cascade"))
    .addColumn("start_at", "text", (c) => c.notNull())
    .addColumn("customer_id", "text", (c) => c.references("customers.id").onDelete("set null"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("visitor_time_zone", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("offered_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("booking_waitlist_once", ["service_id", "start_at", "email"])
    .execute();
  await db.schema
    .createIndex("booking_waitlist_slot_idx")
    .on("booking_waitlist")
    .columns(["service_id", "start_at", "status", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("booking_waitlist").execute();
  await db.schema.dropTable("booking_payments").execute();
  await db.schema.dropTable("bookings").execute();
  await db.schema.dropTable("booking_service_hosts").execute();
  await db.schema.dropTable("booking_hosts").execute();
  await db.schema.dropTable("booking_services").execute();
}
