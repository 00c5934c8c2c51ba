import type { Kysely } from "kysely";

/**
 * Site visibility (issue 14): public, or protected by a password. The hash is scrypt's (the accounts
 * module's); `cookie_version` goes up when the password changes or protection is switched off, so every
 * unlock cookie issued before stops working.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("site_access")
    .addColumn("workspace_id", "text", (c) => c.primaryKey().references("workspaces.id").onDelete("cascade"))
    .addColumn("visibility", "text", (c) => c.notNull().defaultTo("public"))
    .addColumn("password_hash", "text")
    .addColumn("cookie_version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("site_access").execute();
}
