import type { Kysely } from "kysely";

/**
 * Customers of a workspace's site (issue 16, ADR 029): one record per workspace and e-mail, their sign-in
 * challenges (e-mailed code and link, hashed), their sessions (one per site, hashed), scoped manage tokens,
 * tickets with their messages, saved items, the site's sign-up setting, and which members hear of new requests.
 * Every row goes with its workspace.
 *
 * `contact_events.customer_id` links the existing timeline to a customer. It has no foreign key: SQLite can
 * neither add one to an existing table nor drop a column that has one, and `contact_events` is referenced by
 * `contact_messages`, so it cannot be rebuilt (sqlite-rebuild.ts). The customers module is the only writer and
 * clears or moves the link wherever a customer is merged away; an erased customer keeps its row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("customers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("email_verified_at", "text")
    .addColumn("name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("phone", "text")
    .addColumn("password_hash", "text")
    .addColumn("marketing_consent", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("marketing_consent_at", "text")
    .addColumn("marketing_consent_source", "text")
    .addColumn("notifications", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("tags", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("notes", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("erased_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_seen_at", "text")
    .addUniqueConstraint("customers_workspace_email_unique", ["workspace_id", "email"])
    .execute();
  await db.schema
    .createIndex("customers_workspace_created_idx")
    .on("customers")
    .columns(["workspace_id", "created_at"])
    .execute();

  await db.schema
    .createTable("customer_settings")
    .addColumn("workspace_id", "text", (c) => c.primaryKey().references("workspaces.id").onDelete("cascade"))
    .addColumn("signup", "text", (c) => c.notNull().defaultTo("open"))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("customer_challenges")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("customer_id", "text", (c) => c.references("customers.id").onDelete("cascade"))
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("link_hash", "text", (c) => c.notNull().unique())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("redirect_to", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema
    .createIndex("customer_challenges_email_idx")
    .on("customer_challenges")
    .columns(["workspace_id", "email", "created_at"])
    .execute();

  await db.schema
    .createTable("customer_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("customer_id", "text", (c) => c.notNull().references("customers.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_seen_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("ip", "text")
    .addColumn("user_agent", "text")
    .execute();
  await db.schema
    .createIndex("customer_sessions_customer_idx")
    .on("customer_sessions")
    .columns(["customer_id"])
    .execute();

  await db.schema
    .createTable("manage_tokens")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("subject_type", "text", (c) => c.notNull())
    .addColumn("subject_id", "text", (c) => c.notNull())
    .addColumn("actions", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .addColumn("last_used_at", "text")
    .execute();
  await db.schema
    .createIndex("manage_tokens_subject_idx")
    .on("manage_tokens")
    .columns(["workspace_id", "subject_type", "subject_id"])
    .execute();

  await db.schema
    .createTable("tickets")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("number", "integer", (c) => c.notNull())
    .addColumn("customer_id", "text", (c) => c.references("customers.id").onDelete("set null"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("assigned_user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("operator_read_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("closed_at", "text")
    .addUniqueConstraint("tickets_workspace_number_unique", ["workspace_id", "number"])
    .execute();
  await db.schema
    .createIndex("tickets_workspace_updated_idx")
    .on("tickets")
    .columns(["workspace_id", "updated_at"])
    .execute();
  await db.schema.createIndex("tickets_customer_idx").on("tickets").columns(["customer_id"]).execute();

  await db.schema
    .createTable("ticket_messages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("ticket_id", "text", (c) => c.notNull().references("tickets.id").onDelete("cascade"))
    .addColumn("author", "text", (c) => c.notNull())
    .addColumn("author_user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("ticket_messages_ticket_idx")
    .on("ticket_messages")
    .columns(["ticket_id", "created_at"])
    .execute();

  await db.schema
    .createTable("saved_items")
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("customer_id", "text", (c) => c.notNull().references("customers.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("ref", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("saved_items_pk", ["customer_id", "kind", "ref"])
    .execute();

  // Which members are told of new support requests and contact messages (e-mail; the console's badge and the
  // desktop shell's notices are for every member). Owners and admins are, until they say otherwise.
  await db.schema
    .createTable("member_notifications")
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("new_tickets", "integer", (c) => c.notNull())
    .addColumn("new_messages", "integer", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("member_notifications_pk", ["workspace_id", "user_id"])
    .execute();

  await db.schema.alterTable("contact_events").addColumn("customer_id", "text").execute();
  await db.schema.createIndex("contact_events_customer_idx").on("contact_events").columns(["customer_id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("contact_events_customer_idx").execute();
  await db.schema.alterTable("contact_events").dropColumn("customer_id").execute();
  for (const table of [
    "member_notifications",
    "saved_items",
    "ticket_messages",
    "tickets",
    "manage_tokens",
    "customer_sessions",
    "customer_challenges",
    "customer_settings",
    "customers",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
