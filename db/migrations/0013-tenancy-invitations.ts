import type { Kysely } from "kysely";

/**
 * Invitations to a workspace (ADR 003): an e-mailed link, for an address that may not have an account yet.
 * Only a SHA-256 of the link's token is stored (DESIGN rule 4). One pending invitation per address and
 * workspace: inviting again replaces it. The inviter's account may go before the invitation does.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("workspace_invitations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("invited_by_user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("workspace_invitations_email_key", ["workspace_id", "email"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("workspace_invitations").execute();
}
