import { sql, type Kysely } from "kysely";

/**
 * Portable DDL only: text ids and timestamps, check constraints instead of enums, and foreign keys with
 * ON DELETE CASCADE so deleting a user removes everything they own on both dialects.
 */
// Migrations are frozen history: they take Kysely<unknown>, never today's schema type.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("tier", "text", (c) => c.notNull().defaultTo("free"))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addCheckConstraint("users_tier_check", sql`tier in ('free', 'pro', 'enterprise')`)
    .addCheckConstraint("users_status_check", sql`status in ('active', 'suspended')`)
    .addCheckConstraint("users_email_lower_check", sql`email = lower(email)`)
    .execute();

  await db.schema
    .createTable("workspaces")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("owner_user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("workspaces_owner_idx").on("workspaces").column("owner_user_id").execute();

  await db.schema
    .createTable("workspace_members")
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("workspace_members_pk", ["workspace_id", "user_id"])
    .addCheckConstraint("workspace_members_role_check", sql`role in ('owner', 'admin', 'editor', 'viewer')`)
    .execute();
  await db.schema.createIndex("workspace_members_user_idx").on("workspace_members").column("user_id").execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("selected_workspace_id", "text", (c) => c.references("workspaces.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_seen_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("ip", "text")
    .addColumn("user_agent", "text")
    .execute();
  await db.schema.createIndex("sessions_user_idx").on("sessions").column("user_id").execute();
  await db.schema.createIndex("sessions_workspace_idx").on("sessions").column("selected_workspace_id").execute();

  await db.schema
    .createTable("audit_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.references("workspaces.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("actor_user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("target_user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("detail", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("ip", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addCheckConstraint("audit_events_scope_check", sql`workspace_id is not null or user_id is not null`)
    .execute();
  await db.schema
    .createIndex("audit_events_workspace_idx")
    .on("audit_events")
    .columns(["workspace_id", "created_at"])
    .execute();
  await db.schema.createIndex("audit_events_user_idx").on("audit_events").column("user_id").execute();
  await db.schema.createIndex("audit_events_actor_idx").on("audit_events").column("actor_user_id").execute();
  await db.schema.createIndex("audit_events_target_idx").on("audit_events").column("target_user_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["audit_events", "sessions", "workspace_members", "workspaces", "users"]) {
    await db.schema.dropTable(table).execute();
  }
}
