import type { Kysely } from "kysely";

/**
 * A workspace's former site addresses. Changing the address keeps the old one answering 301 to the new for
 * 90 days (`expires_at`), and no other workspace can take it meanwhile; the slug is the key, so one old
 * address points to one workspace. Goes with the workspace.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("workspace_previous_slugs")
    .addColumn("slug", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("moved_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("workspace_previous_slugs_workspace_idx")
    .on("workspace_previous_slugs")
    .column("workspace_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("workspace_previous_slugs").execute();
}
