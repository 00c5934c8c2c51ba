import type { Kysely } from "kysely";

/**
 * Discovery (issue 14): how search engines and AI crawlers see a site.
 *
 * - `site_page_seo`: a page's search settings, apart from its content so that they apply at once (no draft
 *   and publish): title and description for search results, a canonical address, noindex, and its language
 *   with the page it translates (for `hreflang`).
 * - `site_redirects`: old paths of a site sent elsewhere (301/302), applied where no page answers.
 * - `site_discovery`: per-site settings: the whole site hidden from search engines, llms.txt on/off and its
 *   summary, IndexNow on/off and its key.
 * - `indexnow_submissions`: each submission of changed URLs, with its outcome, for the console.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("site_page_seo")
    .addColumn("page_id", "text", (c) => c.primaryKey().references("site_pages.id").onDelete("cascade"))
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("title", "text")
    .addColumn("description", "text")
    .addColumn("canonical", "text")
    .addColumn("noindex", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("locale", "text")
    .addColumn("translation_of", "text", (c) => c.references("site_pages.id").onDelete("set null"))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("site_page_seo_workspace").on("site_page_seo").column("workspace_id").execute();

  await db.schema
    .createTable("site_redirects")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("from_path", "text", (c) => c.notNull())
    .addColumn("target", "text", (c) => c.notNull())
    .addColumn("status", "integer", (c) => c.notNull().defaultTo(301))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("site_redirects_from_key", ["workspace_id", "from_path"])
    .execute();

  await db.schema
    .createTable("site_discovery")
    .addColumn("workspace_id", "text", (c) => c.primaryKey().references("workspaces.id").onDelete("cascade"))
    .addColumn("noindex", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("llms_enabled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("llms_summary", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("indexnow_enabled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("indexnow_key", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("indexnow_submissions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("urls", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("response_status", "integer")
    .addColumn("error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("indexnow_submissions_workspace")
    .on("indexnow_submissions")
    .columns(["workspace_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("indexnow_submissions").execute();
  await db.schema.dropTable("site_discovery").execute();
  await db.schema.dropTable("site_redirects").execute();
  await db.schema.dropTable("site_page_seo").execute();
}
