/**
 * Owned by `app/modules/customers` (issue 16, ADR 029). All created in 0026-customers, which also added
 * `contact_events.customer_id` (owned by contacts, typed in ./contacts.ts).
 */
import type { Selectable } from "kysely";

export interface CustomersTable {
  id: string;
  workspace_id: string;
  /** Lower-cased; unique per workspace. An erased customer's is `erased-{id}@invalid`. */
  email: string;
  email_verified_at: string | null;
  name: string;
  phone: string | null;
  /** scrypt (the accounts module's format); null for a customer who signs in by e-mail only. */
  password_hash: string | null;
  marketing_consent: number;
  marketing_consent_at: string | null;
  /** Where consent was given or withdrawn: "portal", "console", "api", "checkout". */
  marketing_consent_source: string | null;
  /** JSON: `{ ticketReplies, orderUpdates, bookingReminders }` (booleans). */
  notifications: string;
  /** JSON array of strings. */
  tags: string;
  notes: string;
  erased_at: string | null;
  created_at: string;
  last_seen_at: string | null;
}

export interface CustomerSettingsTable {
  workspace_id: string;
  /** "open": anyone may create an account by signing in; "invite": only customers the business added. */
  signup: string;
  updated_at: string;
}

/** An e-mailed sign-in (or e-mail change) challenge: a six-digit code and a link, both stored hashed. */
export interface CustomerChallengesTable {
  id: string;
  workspace_id: string;
  email: string;
  /** "sign-in" | "email-change". */
  purpose: string;
  /** The customer changing their e-mail (email-change); null for sign-in. */
  customer_id: string | null;
  /** SHA-256 (base64url) of the challenge id and the code: a code is only worth trying with its challenge. */
  code_hash: string;
  link_hash: string;
  attempts: number;
  redirect_to: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface CustomerSessionsTable {
  /** SHA-256 (hex) of the cookie's or bearer token's secret. */
  id: string;
  workspace_id: string;
  customer_id: string;
  /** "cookie" | "bearer". */
  kind: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  ip: string | null;
  user_agent: string | null;
}

export interface ManageTokensTable {
  /** SHA-256 (base64url) of the token. */
  id: string;
  workspace_id: string;
  /** "ticket" now; "order" and "booking" with commerce and scheduling. */
  subject_type: string;
  subject_id: string;
  /** JSON array of allowed actions ("view", "reply", "close", "cancel", "reschedule"). */
  actions: string;
  /** The address the link was sent to. */
  email: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface TicketsTable {
  id: string;
  workspace_id: string;
  /** 1, 2, 3… per workspace: what the customer and the operator quote. */
  number: number;
  customer_id: string | null;
  email: string;
  name: string;
  subject: string;
  /** "open" | "pending" | "closed". */
  status: string;
  assigned_user_id: string | null;
  operator_read_at: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
}

export interface TicketMessagesTable {
  id: string;
  workspace_id: string;
  ticket_id: string;
  /** "customer" | "operator". */
  author: string;
  author_user_id: string | null;
  body: string;
  created_at: string;
}

export interface SavedItemsTable {
  workspace_id: string;
  customer_id: string;
  /** "page" now; "product", "service", "story" later. */
  kind: string;
  ref: string;
  created_at: string;
}

/** A member's choice of e-mails about the inbox (absent: on for owners and admins, off for the rest). */
export interface MemberNotificationsTable {
  workspace_id: string;
  user_id: string;
  new_tickets: number;
  new_messages: number;
  /** Added by 0027-commerce; null until the member chooses (their role's default). */
  new_orders: number | null;
  updated_at: string;
}

export interface CustomersTables {
  member_notifications: MemberNotificationsTable;
  customers: CustomersTable;
  customer_settings: CustomerSettingsTable;
  customer_challenges: CustomerChallengesTable;
  customer_sessions: CustomerSessionsTable;
  manage_tokens: ManageTokensTable;
  tickets: TicketsTable;
  ticket_messages: TicketMessagesTable;
  saved_items: SavedItemsTable;
}

export type CustomerRow = Selectable<CustomersTable>;
export type TicketRow = Selectable<TicketsTable>;
