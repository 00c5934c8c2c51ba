import type { Kysely } from "kysely";

/**
 * What a visitor wrote through a site's contact form. Each message is a contact event (type `message`) of the
 * workspace — so the contacts issue finds it beside orders and bookings by e-mail address — plus this row with
 * what a contact event has no column for: the sender's name, the text, and whether an operator has read it.
 * Same id as its event; both go with the workspace.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("contact_messages")
    .addColumn("id", "text", (c) => c.primaryKey().references("contact_events.id").onDelete("cascade"))
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("read_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("contact_messages_workspace_idx")
    .on("contact_messages")
    .columns(["workspace_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("contact_messages").execute();
}
