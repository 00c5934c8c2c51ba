/**
 * Stored conversations (0033-chat, ADR 037), built for one workspace and one owner: an integrator's user, or a site's
 * customer or visitor. There is no way to read a conversation by its id alone — the client's id is unique only per
 * workspace and owner, so a guessed id opens nothing of anyone else's.
 *
 * A turn is two writes: the user's message before the answer streams (so a follow-up has it even if the answer is
 * cut off), then the answer once it is complete. Each write is over the version it read; two answers in one
 * conversation at once (two tabs) each land after their own question.
 */
import type { UIMessage } from "ai";
import type { Db } from "~db/client";
import type { ChatChannel } from "~db/schema";
import { isoNow } from "~/lib/clock.server";
import { invalid, notFound } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { isUniqueViolation } from "~db/client";
import { MAX_HISTORY, textOf } from "./protocol";

export type ConversationOwner =
  | { kind: "user"; userId: string }
  | { kind: "customer"; customerId: string }
  | { kind: "visitor"; visitorHash: string };

export interface Conversation {
  id: string;
  clientId: string;
  channel: ChatChannel;
  title: string;
  messages: UIMessage[];
  ticketId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What `ticket_id` holds while a hand-over to the inbox is being made (never a ticket's id: those are ULIDs). */
export const HANDING_OVER = "handing-over:";

const ownerKey = (owner: ConversationOwner) =>
  owner.kind === "user"
    ? `user:${owner.userId}`
    : owner.kind === "customer"
      ? `customer:${owner.customerId}`
      : `visitor:${owner.visitorHash}`;

const TITLE_CHARS = 80;

function titleOf(text: string): string {
  const line = text.split("\n")[0]!.trim();
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}

/**
 * The history a new message makes of `stored`: the message last, after what came before it. A message the
 * conversation already has (a regenerated answer, an edited question) replaces it and everything after it. Refused
 * when it leaves no room for the answer.
 */
export function historyWith(stored: readonly UIMessage[], message: UIMessage): UIMessage[] {
  const again = stored.findIndex((m) => m.id === message.id);
  const history = [...(again >= 0 ? stored.slice(0, again) : stored), message];
  if (history.length + 1 > MAX_HISTORY) {
    throw invalid(`This conversation has reached ${MAX_HISTORY} messages: start a new one`, [
      { field: "id", message: `A conversation holds at most ${MAX_HISTORY} messages` },
    ]);
  }
  return history;
}

/** How many times a write over a stale version is tried again (another turn of the same conversation won). */
const ATTEMPTS = 5;

export function conversationsOf(db: Db, workspaceId: string, channel: ChatChannel, owner: ConversationOwner) {
  const key = ownerKey(owner);
  const rows = () =>
    db
      .selectFrom("chat_conversations")
      .where("workspace_id", "=", workspaceId)
      .where("channel", "=", channel)
      .where("owner_key", "=", key);

  const read = (clientId: string) => rows().selectAll().where("client_id", "=", clientId).executeTakeFirst();

  function toConversation(row: NonNullable<Awaited<ReturnType<typeof read>>>): Conversation {
    return {
      id: row.id,
      clientId: row.client_id,
      channel: row.channel,
      title: row.title,
      messages: JSON.parse(row.messages) as UIMessage[],
      ticketId: row.ticket_id,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  /** Saves `messages` over `version` (and a title, once); false when another write got there first. */
  async function save(id: string, version: number, messages: UIMessage[], title?: string): Promise<boolean> {
    const result = await db
      .updateTable("chat_conversations")
      .set({
        messages: JSON.stringify(messages),
        message_count: messages.length,
        version: version + 1,
        updated_at: isoNow(),
        ...(title ? { title } : {}),
      })
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", id)
      .where("version", "=", version)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** A new, empty conversation of this owner under `clientId`. */
  async function insert(clientId: string, title: string): Promise<void> {
    const at = isoNow();
    await db
      .insertInto("chat_conversations")
      .values({
        id: newId(),
        workspace_id: workspaceId,
        channel,
        owner_key: key,
        user_id: owner.kind === "user" ? owner.userId : null,
        customer_id: owner.kind === "customer" ? owner.customerId : null,
        client_id: clientId,
        title,
        messages: "[]",
        message_count: 0,
        version: 0,
        ticket_id: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }

  return {
    async get(clientId: string): Promise<Conversation> {
      const row = await read(clientId);
      if (!row) throw notFound("No such conversation");
      return toConversation(row);
    },

    async find(clientId: string): Promise<Conversation | undefined> {
      const row = await read(clientId);
      return row ? toConversation(row) : undefined;
    },

    /**
     * Stores the user's new message and answers the history the assistant answers from (the new message last).
     * A message the conversation already has (a regenerated answer, an edited question) replaces it and everything
     * after it. A conversation is created on its first message, titled by it.
     */
    async ask(
      clientId: string,
      message: UIMessage,
      options: { create?: boolean } = {},
    ): Promise<{ conversation: Conversation; history: UIMessage[] }> {
      for (let attempt = 1; ; attempt++) {
        let row = await read(clientId);
        if (!row && options.create === false) throw notFound("No such conversation");
        if (!row) {
          try {
            await insert(clientId, titleOf(textOf(message)));
          } catch (error) {
            // The same conversation's first message sent twice at once: the other insert won; use its row.
            if (!isUniqueViolation(error)) throw error;
          }
          row = await read(clientId);
          if (!row) throw notFound("No such conversation");
        }
        const history = historyWith(JSON.parse(row.messages) as UIMessage[], message);
        // A conversation opened empty (a site visitor's session) is titled by its first question.
        if (await save(row.id, row.version, history, row.title ? undefined : titleOf(textOf(message)))) {
          return { conversation: { ...toConversation(row), messages: history }, history };
        }
        if (attempt >= ATTEMPTS) throw new Error("the conversation kept changing while the message was saved");
      }
    },

    /**
     * Stores the assistant's `answer` right after the question it answers (`questionId`). A conversation deleted,
     * or cut back before that question meanwhile, keeps what it has now: the answer is dropped.
     */
    async answer(clientId: string, questionId: string, answer: UIMessage): Promise<void> {
      for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        const row = await read(clientId);
        if (!row) return;
        const stored = (JSON.parse(row.messages) as UIMessage[]).filter((m) => m.id !== answer.id);
        const at = stored.findIndex((m) => m.id === questionId);
        if (at < 0) return;
        const next = [...stored.slice(0, at + 1), answer, ...stored.slice(at + 1)].slice(0, MAX_HISTORY);
        if (await save(row.id, row.version, next)) return;
      }
    },

    /** Opens an empty conversation (a site visitor's session) under a new id, and answers it. */
    async start(): Promise<Conversation> {
      const clientId = newId().toLowerCase();
      await insert(clientId, "");
      return this.get(clientId);
    },

    /**
     * Claims the hand-over to the inbox (ADR 037) for `marker`: true when this request may open the ticket, false
     * when the conversation was handed over already or is being handed over by another request right now.
     */
    async claimHandoff(clientId: string, marker: string): Promise<boolean> {
      const claimed = await db
        .updateTable("chat_conversations")
        .set({ ticket_id: marker })
        .where("workspace_id", "=", workspaceId)
        .where("channel", "=", channel)
        .where("owner_key", "=", key)
        .where("client_id", "=", clientId)
        .where("ticket_id", "is", null)
        .executeTakeFirst();
      return Number(claimed.numUpdatedRows) === 1;
    },

    /** Ends a claimed hand-over: the ticket it opened, or null to release the claim (opening it failed). */
    async settleHandoff(clientId: string, marker: string, ticketId: string | null): Promise<void> {
      await db
        .updateTable("chat_conversations")
        .set({ ticket_id: ticketId, updated_at: isoNow() })
        .where("workspace_id", "=", workspaceId)
        .where("owner_key", "=", key)
        .where("client_id", "=", clientId)
        .where("ticket_id", "=", marker)
        .execute();
    },

    /** Deletes the conversation; false when there was none. */
    async remove(clientId: string): Promise<boolean> {
      const result = await db
        .deleteFrom("chat_conversations")
        .where("workspace_id", "=", workspaceId)
        .where("channel", "=", channel)
        .where("owner_key", "=", key)
        .where("client_id", "=", clientId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type ConversationsRepo = ReturnType<typeof conversationsOf>;

export interface InboxConversation {
  id: string;
  title: string;
  messageCount: number;
  customer: { id: string; name: string; email: string } | null;
  ticketId: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * The site assistant's conversations as the business sees them in its inbox (ADR 037): every visitor's and
 * customer's, newest first, those with at least one message. By the row's own id: the client's id is the visitor's.
 */
export function inboxConversationsOf(db: Db, workspaceId: string) {
  const rows = () =>
    db
      .selectFrom("chat_conversations as c")
      .leftJoin("customers as u", (j) => j.onRef("u.id", "=", "c.customer_id").on("u.workspace_id", "=", workspaceId))
      .where("c.workspace_id", "=", workspaceId)
      .where("c.channel", "=", "site")
      .where("c.message_count", ">", 0);
  const columns = [
    "c.id",
    "c.title",
    "c.message_count",
    "c.ticket_id",
    "c.created_at",
    "c.updated_at",
    "c.messages",
    "u.id as customer_id",
    "u.name as customer_name",
    "u.email as customer_email",
  ] as const;
  const toItem = (r: {
    id: string;
    title: string;
    message_count: number;
    ticket_id: string | null;
    created_at: string;
    updated_at: string;
    customer_id: string | null;
    customer_name: string | null;
    customer_email: string | null;
  }): InboxConversation => ({
    id: r.id,
    title: r.title,
    messageCount: Number(r.message_count),
    customer: r.customer_id ? { id: r.customer_id, name: r.customer_name ?? "", email: r.customer_email ?? "" } : null,
    ticketId: r.ticket_id?.startsWith(HANDING_OVER) ? null : r.ticket_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  });
  return {
    async list(page: { size: number; offset: number }): Promise<InboxConversation[]> {
      const found = await rows()
        .select(columns)
        .orderBy("c.updated_at", "desc")
        .orderBy("c.id", "desc")
        .limit(page.size)
        .offset(page.offset)
        .execute();
      return found.map(toItem);
    },
    async count(): Promise<number> {
      const row = await rows()
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async get(id: string): Promise<InboxConversation & { messages: UIMessage[] }> {
      const row = await rows().select(columns).where("c.id", "=", id).executeTakeFirst();
      if (!row) throw notFound("No such conversation");
      return { ...toItem(row), messages: JSON.parse(row.messages) as UIMessage[] };
    },
  };
}
