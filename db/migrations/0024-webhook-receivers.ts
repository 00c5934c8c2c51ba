import { sql, type Kysely } from "kysely";

/**
 * Event receivers (issue 15, ADR 027): the secrets operators give senders of `/api/webhooks/{family}`, and the
 * record of every event received. A secret is sealed with the app key (`services.secrets`) and shown once;
 * rotating it sets `expires_at` on the old one (the overlap window) instead of deleting it. The unique
 * (workspace, family, event id) over the rows that own their id (received, applied, failed) is what makes a
 * duplicate change nothing: the claim is inserted before the apply, so two deliveries racing each other cannot
 * both apply. Refused and duplicate deliveries are recorded beside it, outside the index (a forged event must
 * not take a real event's id).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("webhook_receiver_secrets")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("family", "text", (c) => c.notNull())
    .addColumn("secret_enc", "text", (c) => c.notNull())
    /** The last characters of the secret, so an operator can tell which one a sender holds. */
    .addColumn("hint", "text", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    /** Set on the old secret when it is rotated: it keeps working until then (the overlap window). */
    .addColumn("expires_at", "text")
    .addColumn("revoked_at", "text")
    .execute();
  await db.schema
    .createIndex("webhook_receiver_secrets_family")
    .on("webhook_receiver_secrets")
    .columns(["workspace_id", "family"])
    .execute();

  await db.schema
    .createTable("webhook_receiver_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("family", "text", (c) => c.notNull())
    /** The sender's `webhook-id` ("" when it sent none). */
    .addColumn("event_id", "text", (c) => c.notNull())
    /** "received" (being applied) | "applied" | "failed" | "duplicate" | "refused" */
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("reason", "text")
    .addColumn("event_type", "text")
    .addColumn("received_at", "text", (c) => c.notNull())
    .addColumn("applied_at", "text")
    /** The body as received (at most the 256 KB cap), and the signed headers, to show and to replay. */
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("headers", "text", (c) => c.notNull())
    /** 0/1: the signature was verified, so the event may be replayed from the console. */
    .addColumn("verified", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("replays", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  // Partial, so only the delivery that owns an id holds it; the same statement on both dialects.
  await sql`create unique index webhook_receiver_events_once on webhook_receiver_events (workspace_id, family, event_id) where status in ('received', 'applied', 'failed')`.execute(
    db,
  );
  await db.schema
    .createIndex("webhook_receiver_events_log")
    .on("webhook_receiver_events")
    .columns(["workspace_id", "received_at"])
    .execute();
  await db.schema
    .createIndex("webhook_receiver_events_received")
    .on("webhook_receiver_events")
    .column("received_at")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("webhook_receiver_events").execute();
  await db.schema.dropTable("webhook_receiver_secrets").execute();
}
