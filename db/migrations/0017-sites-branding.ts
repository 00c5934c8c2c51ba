import type { Kysely } from "kysely";

/**
 * A workspace's public identity (app/modules/sites): one `site_branding` row (logo, favicon and social image as
 * file ids, colours, fonts, and the state of the brand import from the business's old website) and one
 * `site_profiles` row (time zone, currency, address, contact details, opening hours and their exceptions).
 * Both are created on first save; a workspace without a row uses the defaults in the module.
 *
 * File ids point at `files` with ON DELETE SET NULL: deleting a logo from the media library leaves the site
 * without a logo, never with a broken one. Opening hours and exceptions are JSON text (DESIGN rule 5): they are
 * always read and written whole, with the profile.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("site_branding")
    .addColumn("workspace_id", "text", (c) => c.primaryKey().references("workspaces.id").onDelete("cascade"))
    .addColumn("logo_file_id", "text", (c) => c.references("files.id").onDelete("set null"))
    .addColumn("favicon_file_id", "text", (c) => c.references("files.id").onDelete("set null"))
    .addColumn("social_image_file_id", "text", (c) => c.references("files.id").onDelete("set null"))
    .addColumn("brand_color", "text", (c) => c.notNull())
    .addColumn("accent_color", "text", (c) => c.notNull())
    .addColumn("background_color", "text", (c) => c.notNull())
    .addColumn("text_color", "text", (c) => c.notNull())
    .addColumn("heading_font", "text", (c) => c.notNull())
    .addColumn("body_font", "text", (c) => c.notNull())
    .addColumn("corner_style", "text", (c) => c.notNull())
    .addColumn("import_url", "text")
    .addColumn("import_status", "text", (c) => c.notNull().defaultTo("none"))
    .addColumn("import_progress", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("import_step", "text")
    .addColumn("import_error", "text")
    .addColumn("import_found", "text")
    .addColumn("import_job_id", "text")
    .addColumn("import_updated_at", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("site_profiles")
    .addColumn("workspace_id", "text", (c) => c.primaryKey().references("workspaces.id").onDelete("cascade"))
    .addColumn("tagline", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("time_zone", "text", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("street", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("locality", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("region", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("postal_code", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("country", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("phone", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("email", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("opening_hours", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("hours_exceptions", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("site_profiles").execute();
  await db.schema.dropTable("site_branding").execute();
}
