/**
 * Owned by `app/modules/accounts` (sign-up, account settings, deletion). `users` created in 0001-foundation,
 * `signup_requests` in 0009-accounts-signup-requests.
 * `Tier` is the plans module's vocabulary (`app/modules/plans`), stored on the account.
 */
import type { Selectable } from "kysely";

export type Tier = "free" | "pro" | "enterprise";
export const TIERS: readonly Tier[] = ["free", "pro", "enterprise"];

export type UserStatus = "active" | "suspended";

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

/** A sign-up waiting for its e-mailed link to be followed. */
export interface SignupRequestsTable {
  id: string;
  /** Lower-cased, as on `users`. */
  email: string;
  password_hash: string;
  /** SHA-256 (base64url) of the link's token; the token itself is only in the e-mail. */
  token_hash: string;
  /** Where the new account goes once signed in (a path on this site, checked by `safeRedirectTarget`). */
  redirect_to: string;
  expires_at: string;
  created_at: string;
}

export interface AccountsTables {
  users: UsersTable;
  signup_requests: SignupRequestsTable;
}

export type UserRow = Selectable<UsersTable>;
