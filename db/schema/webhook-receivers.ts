/** Owned by `app/modules/events` (event receivers under /api/webhooks/*). Created in 0024-webhook-receivers. */

export interface WebhookReceiverSecretsTable {
  id: string;
  workspace_id: string;
  /** The family it signs for: `branding`, `pages`, `shipping/provider`… */
  family: string;
  /** `whsec_…`, sealed with the app key (services.secrets). */
  secret_enc: string;
  /** Its last four characters, shown in the console. */
  hint: string;
  created_by: string | null;
  created_at: string;
  /** When a rotated secret stops working; null while it is the current one. */
  expires_at: string | null;
  revoked_at: string | null;
}

/** `received`: claimed and being applied (or its process died: retried after a while). */
export type ReceiverEventStatus = "received" | "applied" | "failed" | "duplicate" | "refused";

export interface WebhookReceiverEventsTable {
  id: string;
  workspace_id: string;
  family: string;
  event_id: string;
  status: ReceiverEventStatus;
  reason: string | null;
  event_type: string | null;
  received_at: string;
  applied_at: string | null;
  /** The raw body (≤ 256 KB), as UTF-8 text. */
  body: string;
  /** JSON object of the signed headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`). */
  headers: string;
  /** 0/1: its signature was verified (only such events may be replayed). */
  verified: number;
  replays: number;
}

export interface WebhookReceiversTables {
  webhook_receiver_secrets: WebhookReceiverSecretsTable;
  webhook_receiver_events: WebhookReceiverEventsTable;
}
