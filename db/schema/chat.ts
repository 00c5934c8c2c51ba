/** Owned by `app/modules/chat` (0033-chat, ADR 037). */

export type ChatChannel = "integrator" | "site";

export interface ChatConversationsTable {
  id: string;
  workspace_id: string;
  channel: ChatChannel;
  /** `user:{id}`, `customer:{id}` or `visitor:{hash}`: whose conversation it is. */
  owner_key: string;
  user_id: string | null;
  customer_id: string | null;
  /** The id the client gave the conversation (unique per workspace and owner only). */
  client_id: string;
  title: string;
  /** The UI messages as JSON. */
  messages: string;
  message_count: number;
  version: number;
  /** The inbox ticket the conversation was handed to, once it was. */
  ticket_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface ChatSettingsTable {
  workspace_id: string;
  site_assistant: number;
  greeting: string;
  updated_at: string;
}

export interface ChatTables {
  chat_conversations: ChatConversationsTable;
  chat_settings: ChatSettingsTable;
}
