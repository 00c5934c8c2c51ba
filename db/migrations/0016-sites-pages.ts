import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * A workspace's website pages (ADR 017): each page keeps a draft and, once published, the copy the public
 * sees, both as JSON with the HTML of their Markdown rendered at save time; every save, publish and restore
 * is a numbered revision; the header navigation and footer links are ordered rows that name a page or an
 * address. All go with their workspace (cascade).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("site_pages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("is_home", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("draft", "text", (c) => c.notNull())
    .addColumn("published", "text")
    .addColumn("published_at", "text")
    .addColumn("has_changes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("site_pages_workspace_slug")
    .on("site_pages")
    .columns(["workspace_id", "slug"])
    .unique()
    .execute();
  // One home page per workspace, kept by the database on both dialects (a partial unique index).
  await db.schema
    .createIndex("site_pages_one_home")
    .on("site_pages")
    .column("workspace_id")
    .unique()
    .where(sql.ref("is_home"), "=", 1)
    .execute();

  await db.schema
    .createTable("site_page_revisions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("page_id", "text", (c) => c.notNull().references("site_pages.id").onDelete("cascade"))
    .addColumn("number", "integer", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("author_user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("site_page_revisions_page_number")
    .on("site_page_revisions")
    .columns(["page_id", "number"])
    .unique()
    .execute();
  await db.schema
    .createIndex("site_page_revisions_workspace")
    .on("site_page_revisions")
    .column("workspace_id")
    .execute();

  await db.schema
    .createTable("site_nav_links")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("area", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("page_id", "text", (c) => c.references("site_pages.id").onDelete("cascade"))
    .addColumn("url", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("site_nav_links_workspace_area")
    .on("site_nav_links")
    .columns(["workspace_id", "area", "position"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("site_nav_links").execute();
  await db.schema.dropTable("site_page_revisions").execute();
  await db.schema.dropTable("site_pages").execute();
}
