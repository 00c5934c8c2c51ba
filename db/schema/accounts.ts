/**
 * Owned by `app/modules/accounts` (sign-up, account settings, deletion). Created in 0001-foundation.
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

export interface AccountsTables {
  users: UsersTable;
}

export type UserRow = Selectable<UsersTable>;
