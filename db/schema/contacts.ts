/**
 * Owned by `app/modules/contacts`. `contact_events` created in 0005-sops, whose `create_contact_event` step was
 * the first writer; `contact_messages` in 0019-contacts-messages.
 */

export interface ContactEventsTable {
  id: string;
  workspace_id: string;
  idempotency_key: string | null;
  email: string;
  /** The customer this event is about, once known (0026-customers; no foreign key, see there). */
  customer_id: string | null;
  type: string;
  note: string;
  source: string;
  created_at: string;
}

/** A message sent through a site's contact form: the rest of its contact event (same id). */
export interface ContactMessagesTable {
  id: string;
  workspace_id: string;
  name: string;
  message: string;
  /** When an operator of the workspace first opened it; null while unread. */
  read_at: string | null;
  created_at: string;
}

export interface ContactsTables {
  contact_events: ContactEventsTable;
  contact_messages: ContactMessagesTable;
}
