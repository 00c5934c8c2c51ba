/**
 * Owned by `app/modules/oauth` (clients, grants, authorization codes, tokens). Created in 0006-oauth, which
 * also made the rate-limit module's `oauth_rate_windows` (see rate-limit.ts).
 */

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

export interface OAuthTables {
  oauth_clients: OAuthClientsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_codes: OAuthCodesTable;
  oauth_tokens: OAuthTokensTable;
}
