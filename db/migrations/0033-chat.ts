import type { Kysely } from "kysely";

/**
 * Chat (issue 20, ADR 037): conversations with the assistant, one row each, for an integrator (a user of the
 * token API, in one workspace) or a site's visitor or customer. The client names its conversation (`id` of AI
 * SDK's transport), so the client's id is unique only per workspace and owner: a guessed id never opens someone
 * else's conversation. The messages are the stored UI messages as JSON, rewritten whole each turn (they are
 * bounded by the history limit); what the server stored, not what the client sends back, is the history.
 *
 * `owner_key` is `user:{id}`, `customer:{id}` or `visitor:{hash of the visitor cookie}`; `user_id` and
 * `customer_id` repeat the first two with foreign keys, so deleting an account or erasing a customer takes their
 * conversations with them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("chat_conversations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("channel", "text", (c) => c.notNull())
    .addColumn("owner_key", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("customer_id", "text", (c) => c.references("customers.id").onDelete("cascade"))
    .addColumn("client_id", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("messages", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("message_count", "integer", (c) => c.notNull().defaultTo(0))
    // Bumped by every write: a turn saves only over the version it read (two tabs answering at once).
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("ticket_id", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("chat_conversations_owner_client_unique", ["workspace_id", "owner_key", "client_id"])
    .execute();
  await db.schema
    .createIndex("chat_conversations_workspace_channel_idx")
    .on("chat_conversations")
    .columns(["workspace_id", "channel", "updated_at"])
    .execute();
  await db.schema.createIndex("chat_conversations_user_idx").on("chat_conversations").columns(["user_id"]).execute();
  await db.schema
    .createIndex("chat_conversations_customer_idx")
    .on("chat_conversations")
    .columns(["customer_id"])
    .execute();

  // The site assistant's switch and greeting, one row per workspace (absent: off, with the default greeting).
  await db.schema
    .createTable("chat_settings")
    .addColumn("workspace_id", "text", (c) => c.primaryKey().references("workspaces.id").onDelete("cascade"))
    .addColumn("site_assistant", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("greeting", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("chat_settings").execute();
  await db.schema.dropTable("chat_conversations").execute();
}
