/** Owned by `app/modules/contacts`. Created in 0005-sops, whose `create_contact_event` step was the first writer. */

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

export interface ContactsTables {
  contact_events: ContactEventsTable;
}
