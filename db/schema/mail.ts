/** Owned by `app/modules/mail` (the outbox and sent-mail record). Created in 0005-sops, the first mail sender. */

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

export interface MailTables {
  mail_messages: MailMessagesTable;
}
