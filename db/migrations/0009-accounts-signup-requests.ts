import type { Kysely } from "kysely";

/**
 * Sign-up by e-mail link (ADR 004): a request holds the chosen password's hash until the link in the e-mail
 * is followed. Only a SHA-256 of the link's token is stored (DESIGN rule 4). No foreign key: the account does
 * not exist yet, and the e-mail is not unique here (several requests may wait; the first link used wins).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("signup_requests")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("redirect_to", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("signup_requests_email_idx").on("signup_requests").column("email").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("signup_requests").execute();
}
