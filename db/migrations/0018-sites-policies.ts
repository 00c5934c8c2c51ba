import type { Kysely } from "kysely";

/**
 * A site's policies (privacy, terms, refund, shipping): one row per written policy of a workspace. The
 * Markdown is what the operator typed; the HTML is rendered and sanitised once, when it is saved, so a public
 * request only reads it. `published` is 0/1: an unpublished policy answers 404 to the public.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("site_policies")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("markdown", "text", (c) => c.notNull())
    .addColumn("html", "text", (c) => c.notNull())
    .addColumn("published", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("site_policies_kind_key", ["workspace_id", "kind"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("site_policies").execute();
}
