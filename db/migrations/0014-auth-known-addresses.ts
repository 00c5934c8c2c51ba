import type { Kysely } from "kysely";

/**
 * Addresses an account has signed in from (ADR 004, "Throttle"): past the per-e-mail cap on sign-in guesses,
 * only these may still try, so an attack spread over many addresses neither guesses on nor locks the owner out
 * of the places they use. One row per account and address, under a hash; deleted with the account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("auth_known_addresses")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("address_hash", "text", (c) => c.notNull())
    .addColumn("last_signed_in_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("auth_known_addresses_pkey", ["user_id", "address_hash"])
    .execute();
  await db.schema
    .createIndex("auth_known_addresses_expires_idx")
    .on("auth_known_addresses")
    .column("expires_at")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("auth_known_addresses").execute();
}
