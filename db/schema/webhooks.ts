/**
 * Owned by `app/modules/webhooks` (outbound webhook deliveries). Created in 0005-sops, whose completion
 * notices were the first deliveries; the sops module still writes them until the webhooks module takes over.
 */

/** `cancelled`: not sent, because the workspace's owner was suspended before it went out. */
export type DeliveryStatus = "pending" | "delivered" | "failed" | "cancelled";

export interface WebhookDeliveriesTable {
  id: string;
  workspace_id: string;
  sop_id: string;
  run_id: string;
  url: string;
  event_type: string;
  /** The exact body sent (JSON text), so every retry signs the same bytes. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  response_status: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export interface WebhooksTables {
  webhook_deliveries: WebhookDeliveriesTable;
}
