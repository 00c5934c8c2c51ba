/**
 * Owned by `app/modules/sops` (SOPs, their triggers, verification failures, the replay store and runs).
 * Created in 0005-sops; 0010 added cancelled runs and the replay record's run; `sop_trigger_rate_windows`
 * (each trigger's hourly and burst windows, in the token API's shape) came in 0011-sops-trigger-limits.
 */
import type { ApiRateWindowsTable } from "./rate-limit";

export interface SopsTable {
  id: string;
  workspace_id: string;
  /** Unique across the deployment (the trigger path carries no workspace). */
  slug: string;
  name: string;
  description: string;
  enabled: number;
  /** JSON text: the ordered steps (app/modules/sops/steps). */
  steps: string;
  callback_url: string | null;
  /** The completion notices' Standard Webhooks secret, sealed with the app key. */
  callback_secret_enc: string | null;
  created_at: string;
  updated_at: string;
}

export interface SopTriggersTable {
  id: string;
  workspace_id: string;
  sop_id: string;
  /** The HMAC secret, sealed with the app key (it must be used again, so it cannot be hashed). */
  secret_enc: string;
  /** When the current secret was made: rotation renews it, the trigger keeps its id. */
  secret_created_at: string;
  created_at: string;
  failure_count: number;
  last_used_at: string | null;
}

export interface SopVerificationFailuresTable {
  id: string;
  workspace_id: string;
  sop_id: string;
  trigger_id: string | null;
  reason: string;
  ip: string | null;
  created_at: string;
}

export interface SopSignatureReplaysTable {
  /** SHA-256 of trigger id and signature. */
  signature_hash: string;
  expires_at: string;
  /** The run the accepted request queued: an identical copy is answered with it (0010). */
  run_id: string | null;
}

/** `cancelled`: stopped by the suspension of the workspace's owner, the reason in `error` (0010). */
export type RunStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";

export interface SopRunsTable {
  id: string;
  workspace_id: string;
  sop_id: string;
  trigger_id: string | null;
  status: RunStatus;
  /** JSON text. */
  input: string;
  /** JSON text: the SOP's steps as they were when it was triggered. */
  definition: string;
  /** JSON text: one result per step reached, in order. */
  steps: string;
  /** JSON text: values computed by `set` steps. */
  vars: string;
  error: string | null;
  attempts: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface SopsTables {
  sops: SopsTable;
  sop_triggers: SopTriggersTable;
  sop_verification_failures: SopVerificationFailuresTable;
  sop_signature_replays: SopSignatureReplaysTable;
  sop_runs: SopRunsTable;
  sop_trigger_rate_windows: ApiRateWindowsTable;
}
