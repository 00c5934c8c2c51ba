/**
 * The database as Kysely sees it. Portable types only (DESIGN rule 5): text ids (ULID), ISO-8601 UTC
 * text timestamps, 0/1 flags, JSON as text. Both dialects read and write exactly these shapes.
 */
import type { Generated, Selectable } from "kysely";

export type Tier = "free" | "pro" | "enterprise";
export const TIERS: readonly Tier[] = ["free", "pro", "enterprise"];

export type UserStatus = "active" | "suspended";

export type Role = "owner" | "admin" | "editor" | "viewer";
/** Ordered from least to most privileged: a role satisfies every role at or before it. */
export const ROLES: readonly Role[] = ["viewer", "editor", "admin", "owner"];

export interface UsersTable {
  id: string;
  /** Stored lower-cased, so uniqueness is case-insensitive on both dialects. */
  email: string;
  password_hash: string;
  tier: Tier;
  status: UserStatus;
  /** Enterprise accounts' custom API limits (null: the tier's defaults). */
  rate_limit_per_hour: number | null;
  rate_limit_burst: number | null;
  created_at: string;
  updated_at: string;
}

export interface WorkspacesTable {
  id: string;
  owner_user_id: string;
  slug: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface WorkspaceMembersTable {
  workspace_id: string;
  user_id: string;
  role: Role;
  created_at: string;
}

export interface SessionsTable {
  /** SHA-256 (hex) of the cookie's secret; the secret itself is never stored. */
  id: string;
  user_id: string;
  selected_workspace_id: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  ip: string | null;
  user_agent: string | null;
}

export interface AuditEventsTable {
  id: string;
  /** Set for events inside a workspace; removed with it. */
  workspace_id: string | null;
  /** Set for events about an account itself (sign-in, sign-up); removed with the account. */
  user_id: string | null;
  /** Who did it; kept as null when that account is deleted so the workspace keeps its history. */
  actor_user_id: string | null;
  /** The account an event is about (a member added, say); null once that account is deleted. */
  target_user_id: string | null;
  action: string;
  /** JSON text; never holds a user id or email (those go in the columns above, which deletion clears). */
  detail: string;
  ip: string | null;
  created_at: Generated<string>;
}

export type KeyEnvironment = "live" | "test";

export interface ApiKeysTable {
  id: string;
  user_id: string;
  /** Set when the key may act only in this workspace; null = every workspace of its user. */
  workspace_id: string | null;
  name: string;
  environment: KeyEnvironment;
  /** The key's visible start, e.g. `atr_live_4fZ8qL`; the rest is never stored. */
  display_prefix: string;
  /** SHA-256 (hex) of the whole key. */
  key_hash: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  /** The key that replaced this one when it was rolled. */
  replaced_by_id: string | null;
}

export interface ApiRateWindowsTable {
  key_id: string;
  /** Unix ms at which the key's current hourly window opened. */
  hour_start: number;
  /** Requests admitted in that window. */
  hour_count: number;
  burst_start: number;
  burst_count: number;
  /** 1 when the request that last wrote the row was admitted. */
  admitted: number;
}

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
}

export type RunStatus = "queued" | "running" | "succeeded" | "failed";

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

export type JobStatus = "queued" | "running" | "done" | "failed";

export interface JobsTable {
  id: string;
  workspace_id: string | null;
  kind: string;
  /** JSON text. */
  payload: string;
  status: JobStatus;
  run_at: string;
  attempts: number;
  max_attempts: number;
  /** The runner holding the lease, until `locked_until`. */
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export type DeliveryStatus = "pending" | "delivered" | "failed";

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

export interface MailMessagesTable {
  id: string;
  workspace_id: string | null;
  idempotency_key: string | null;
  transport: "outbox" | "smtp";
  to_address: string;
  subject: string;
  body: string;
  status: "outbox" | "sent" | "failed";
  error: string | null;
  created_at: string;
}

export interface ContactEventsTable {
  id: string;
  workspace_id: string;
  idempotency_key: string | null;
  email: string;
  type: string;
  note: string;
  source: string;
  created_at: string;
}

export type OAuthClientType = "confidential" | "public";

export interface OAuthClientsTable {
  /** The public `client_id`. */
  id: string;
  owner_user_id: string;
  name: string;
  client_type: OAuthClientType;
  /** JSON text: the exact redirect URIs. */
  redirect_uris: string;
  /** SHA-256 (hex) of the client secret; null for public clients. */
  secret_hash: string | null;
  secret_created_at: string | null;
  created_at: string;
}

export interface OAuthGrantsTable {
  id: string;
  client_id: string;
  user_id: string;
  /** Space-separated scopes the user consented to. */
  scopes: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface OAuthCodesTable {
  code_hash: string;
  grant_id: string;
  client_id: string;
  redirect_uri: string;
  scopes: string;
  code_challenge: string | null;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface OAuthTokensTable {
  id: string;
  token_hash: string;
  kind: "access" | "refresh";
  grant_id: string;
  code_hash: string | null;
  scopes: string;
  expires_at: string;
  /** Refresh tokens: when it was exchanged (rotation); presenting it again revokes the grant. */
  used_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export interface Database {
  users: UsersTable;
  workspaces: WorkspacesTable;
  workspace_members: WorkspaceMembersTable;
  sessions: SessionsTable;
  audit_events: AuditEventsTable;
  api_keys: ApiKeysTable;
  api_rate_windows: ApiRateWindowsTable;
  sops: SopsTable;
  sop_triggers: SopTriggersTable;
  sop_verification_failures: SopVerificationFailuresTable;
  sop_signature_replays: SopSignatureReplaysTable;
  sop_runs: SopRunsTable;
  jobs: JobsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  mail_messages: MailMessagesTable;
  contact_events: ContactEventsTable;
  oauth_clients: OAuthClientsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_codes: OAuthCodesTable;
  oauth_tokens: OAuthTokensTable;
  oauth_rate_windows: ApiRateWindowsTable;
}

export type UserRow = Selectable<UsersTable>;
export type WorkspaceRow = Selectable<WorkspacesTable>;
export type SessionRow = Selectable<SessionsTable>;
