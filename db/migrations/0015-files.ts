import type { Kysely } from "kysely";

/**
 * Files a workspace uploaded (logos, media): one row per file of a workspace, naming its bytes by SHA-256
 * (DESIGN's files service). Two workspaces that upload the same bytes have two rows and share one blob.
 * Replacing a file keeps its id (so pages that show it keep working) and changes its hash.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("files")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("byte_size", "integer", (c) => c.notNull())
    .addColumn("width", "integer")
    .addColumn("height", "integer")
    .addColumn("filename", "text", (c) => c.notNull())
    .addColumn("alt", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("files_workspace_sha256").on("files").columns(["workspace_id", "sha256"]).execute();
  await db.schema.createIndex("files_sha256").on("files").column("sha256").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("files").execute();
}
