import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";

/**
 * Stored operating procedures and the shared services they are the first to need (docs/decisions/010-sops.md):
 * SOPs with their trigger, verification failures, the replay store, runs, the durable job queue, completion
 * deliveries, the mail outbox and contact events. Every tenant row carries `workspace_id` with ON DELETE
 * CASCADE, so deleting a workspace (or its owner) removes all of it in the same transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const workspace =
    (nullable = false) =>
    (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
      (nullable ? c : c.notNull()).references("workspaces.id").onDelete("cascade");

  await db.schema
    .createTable("sops")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", workspace())
    // Unique across the deployment: the trigger path names a SOP without its workspace.
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("enabled", "integer", (c) => c.notNull())
    .addColumn("steps", "text", (c) => c.notNull())
    .addColumn("callback_url", "text")
    .addColumn("callback_secret_enc", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sops_workspace_idx").on("sops").columns(["workspace_id", "name"]).execute();

  await db.schema
    .createTable("sop_triggers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", workspace())
    // One active trigger per SOP (the spec: "each SOP has a unique trigger secret").
    .addColumn("sop_id", "text", (c) => c.notNull().unique().references("sops.id").onDelete("cascade"))
    .addColumn("secret_enc", "text", (c) => c.notNull())
    .addColumn("secret_created_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("failure_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_used_at", "text")
    .execute();

  await db.schema
    .createTable("sop_verification_failures")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", workspace())
    .addColumn("sop_id", "text", (c) => c.notNull().references("sops.id").onDelete("cascade"))
    // No foreign key: a deleted trigger's failures stay in the SOP's history.
    .addColumn("trigger_id", "text")
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("ip", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("sop_verification_failures_sop_idx")
    .on("sop_verification_failures")
    .columns(["sop_id", "trigger_id", "created_at"])
    .execute();

  // Shared by every process: a signature seen within the window is a replay. Not tenant data (hashes only).
  await db.schema
    .createTable("sop_signature_replays")
    .addColumn("signature_hash", "text", (c) => c.primaryKey())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("sop_signature_replays_expiry_idx")
    .on("sop_signature_replays")
    .column("expires_at")
    .execute();

  await db.schema
    .createTable("sop_runs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", workspace())
    .addColumn("sop_id", "text", (c) => c.notNull().references("sops.id").onDelete("cascade"))
    .addColumn("trigger_id", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("input", "text", (c) => c.notNull())
    // The SOP's steps when it was triggered: an edit does not change a run already queued or resumed.
    .addColumn("definition", "text", (c) => c.notNull())
    .addColumn("steps", "text", (c) => c.notNull())
    .addColumn("vars", "text", (c) => c.notNull())
    .addColumn("error", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("started_at", "text")
    .addColumn("finished_at", "text")
    .addCheckConstraint("sop_runs_status_check", sql`status in ('queued', 'running', 'succeeded', 'failed')`)
    .execute();
  await db.schema.createIndex("sop_runs_sop_idx").on("sop_runs").columns(["sop_id", "created_at"]).execute();

  await db.schema
    .createTable("jobs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", workspace(true))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("run_at", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) => c.notNull())
    .addColumn("locked_by", "text")
    .addColumn("locked_until", "text")
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addCheckConstraint("jobs_status_check", sql`status in ('queued', 'running', 'done', 'failed')`)
    .execute();
  await db.schema.createIndex("jobs_due_idx").on("jobs").columns(["status", "run_at"]).execute();

  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", workspace())
    .addColumn("sop_id", "text", (c) => c.notNull().references("sops.id").onDelete("cascade"))
    .addColumn("run_id", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("event_type", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("response_status", "integer")
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("delivered_at", "text")
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_sop_idx")
    .on("webhook_deliveries")
    .columns(["sop_id", "created_at"])
    .execute();

  await db.schema
    .createTable("mail_messages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", workspace(true))
    // Retries of the same step reuse their key, so an at-least-once run does not write the message twice.
    .addColumn("idempotency_key", "text", (c) => c.unique())
    .addColumn("transport", "text", (c) => c.notNull())
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("mail_messages_workspace_idx")
    .on("mail_messages")
    .columns(["workspace_id", "created_at"])
    .execute();

  await db.schema
    .createTable("contact_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", workspace())
    .addColumn("idempotency_key", "text", (c) => c.unique())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("note", "text", (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("contact_events_workspace_idx")
    .on("contact_events")
    .columns(["workspace_id", "email"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "contact_events",
    "mail_messages",
    "webhook_deliveries",
    "jobs",
    "sop_runs",
    "sop_signature_replays",
    "sop_verification_failures",
    "sop_triggers",
    "sops",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
