import { sql, type Kysely } from "kysely";

/**
 * API keys (the token API's credentials) and per-account custom rate limits for Enterprise. A key belongs
 * to its user (cascade) and may be restricted to one workspace (cascade with it). Only a SHA-256 of the
 * key is stored; `display_prefix` is what the console shows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("api_keys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("workspace_id", "text", (c) => c.references("workspaces.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("environment", "text", (c) => c.notNull())
    .addColumn("display_prefix", "text", (c) => c.notNull())
    .addColumn("key_hash", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_used_at", "text")
    .addColumn("expires_at", "text")
    .addColumn("revoked_at", "text")
    .addColumn("replaced_by_id", "text")
    .addCheckConstraint("api_keys_environment_check", sql`environment in ('live', 'test')`)
    .execute();
  await db.schema.createIndex("api_keys_user_idx").on("api_keys").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("api_keys_workspace_idx").on("api_keys").column("workspace_id").execute();

  await db.schema.alterTable("users").addColumn("rate_limit_per_hour", "integer").execute();
  await db.schema.alterTable("users").addColumn("rate_limit_burst", "integer").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("rate_limit_burst").execute();
  await db.schema.alterTable("users").dropColumn("rate_limit_per_hour").execute();
  await db.schema.dropTable("api_keys").execute();
}
