import { sql, type Kysely } from "kysely";

/**
 * The OAuth 2.0 provider (docs/decisions/011-oauth.md): apps (clients) registered by an operator, grants (a
 * user's consent to an app, with its scopes), authorization codes and tokens (SHA-256 only), and per-grant
 * rate windows for access tokens. Everything is removed with its owner: apps with the developer who
 * registered them, grants and tokens with the user who consented or with the app.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("oauth_clients")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("owner_user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("client_type", "text", (c) => c.notNull())
    .addColumn("redirect_uris", "text", (c) => c.notNull())
    .addColumn("secret_hash", "text")
    .addColumn("secret_created_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("oauth_clients_owner_idx").on("oauth_clients").column("owner_user_id").execute();

  await db.schema
    .createTable("oauth_grants")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("client_id", "text", (c) => c.notNull().references("oauth_clients.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_used_at", "text")
    .addColumn("revoked_at", "text")
    .execute();
  // One live grant per user and app: a double-clicked Approve cannot make two.
  await db.schema
    .createIndex("oauth_grants_live_idx")
    .on("oauth_grants")
    .columns(["user_id", "client_id"])
    .unique()
    .where(sql.ref("revoked_at"), "is", null)
    .execute();

  await db.schema
    .createTable("oauth_codes")
    .addColumn("code_hash", "text", (c) => c.primaryKey())
    .addColumn("grant_id", "text", (c) => c.notNull().references("oauth_grants.id").onDelete("cascade"))
    .addColumn("client_id", "text", (c) => c.notNull())
    .addColumn("redirect_uri", "text", (c) => c.notNull())
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("code_challenge", "text")
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("oauth_tokens")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("grant_id", "text", (c) => c.notNull().references("oauth_grants.id").onDelete("cascade"))
    // The code it was issued for: a second use of that code revokes what the first one issued.
    .addColumn("code_hash", "text")
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("revoked_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("oauth_tokens_grant_idx").on("oauth_tokens").column("grant_id").execute();
  await db.schema.createIndex("oauth_tokens_code_idx").on("oauth_tokens").column("code_hash").execute();

  await db.schema
    .createTable("oauth_rate_windows")
    .addColumn("key_id", "text", (c) => c.primaryKey().references("oauth_grants.id").onDelete("cascade"))
    .addColumn("hour_start", "bigint", (c) => c.notNull())
    .addColumn("hour_count", "integer", (c) => c.notNull())
    .addColumn("burst_start", "bigint", (c) => c.notNull())
    .addColumn("burst_count", "integer", (c) => c.notNull())
    .addColumn("admitted", "integer", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["oauth_rate_windows", "oauth_tokens", "oauth_codes", "oauth_grants", "oauth_clients"]) {
    await db.schema.dropTable(table).execute();
  }
}
