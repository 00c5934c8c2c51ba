/** Owned by `app/modules/api-keys`. Created in 0003-api-keys. */

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

export interface ApiKeysTables {
  api_keys: ApiKeysTable;
}
