import { sql, type Kysely } from "kysely";

/**
 * Custom domains (issue 14): host names a workspace claims for its site. A claim is pending until its TXT
 * record is seen; any number of workspaces may claim a name, but only one can hold it verified (a partial
 * unique index, on both dialects). `diagnostics` is the last check's findings as JSON, for the console.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("site_domains")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("hostname", "text", (c) => c.notNull())
    .addColumn("token", "text", (c) => c.notNull())
    /** "pending" | "verified" | "failing" (was verified, the last checks did not find it). */
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("is_primary", "integer", (c) => c.notNull().defaultTo(0))
    /** 0/1: `/{site}/*` on the deployment's own host answers 301 to this domain (the primary one only). */
    .addColumn("redirect_path", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("diagnostics", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("last_checked_at", "text")
    .addColumn("next_check_at", "text")
    .addColumn("verified_at", "text")
    /** When a verified domain's checks started failing; 72 hours later it is pending again (ADR 024). */
    .addColumn("failing_since", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("site_domains_workspace_host_key", ["workspace_id", "hostname"])
    .execute();
  await db.schema
    .createIndex("site_domains_verified_host")
    .on("site_domains")
    .column("hostname")
    .unique()
    .where(sql.ref("status"), "<>", "pending")
    .execute();
  await db.schema.createIndex("site_domains_next_check").on("site_domains").column("next_check_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("site_domains").execute();
}
