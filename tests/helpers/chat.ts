/**
 * Talking to the assistant as an integrator's AI SDK v5 client does (issue 20, ADR 037): every answer goes through
 * `DefaultChatTransport` — the same request, the same stream parsing and chunk validation `useChat` uses — and is
 * read into a UI message with the SDK's own `readUIMessageStream`. Nothing here decodes the stream by hand.
 */
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import type { Db } from "~db/client";
import { apiKeysOf } from "~/modules/api-keys/api-keys.server";
import { pagesOf } from "~/modules/sites/pages.server";
import { DEFAULT_PROFILE, profileInputOf, profileOf } from "~/modules/sites/profile.server";
import type { Client } from "./client";

/** A live API key of the user with `email`, restricted to `workspaceId` when given. */
export async function chatKey(db: Db, email: string, workspaceId: string | null = null): Promise<string> {
  const user = await db.selectFrom("users").select(["id", "tier"]).where("email", "=", email).executeTakeFirstOrThrow();
  const { key } = await apiKeysOf(db, user).generate({
    name: "chat",
    environment: "live",
    expiresInDays: null,
    workspaceId,
  });
  return key;
}

export interface Answer {
  /** The assistant's message as `useChat` holds it once the stream ended. */
  message: UIMessage;
  /** Every chunk, in order, as the transport parsed and validated it. */
  chunks: UIMessageChunk[];
  /** The answer's text parts, joined. */
  text: string;
  /** The `source-url` parts. */
  sources: { url: string; title?: string }[];
  /** The tool parts: name, input and output. */
  tools: { name: string; input: unknown; output: unknown; state: string }[];
}

export interface AskOptions {
  /** The conversation id (what `useChat` calls the chat id). */
  chatId?: string;
  workspace?: string;
  tools?: string[];
  /** Messages sent before the new one (what the client holds of the conversation). */
  before?: UIMessage[];
  trigger?: "submit-message" | "regenerate-message";
  messageId?: string;
  /** The new message's id (by default a fresh one). */
  questionId?: string;
}

let asked = 0;

export const userMessage = (text: string, id = `user-${process.pid}-${++asked}`): UIMessage => ({
  id,
  role: "user",
  parts: [{ type: "text", text }],
});

/** Sends `text` as `token`'s client would; rejects (as `useChat` would show an error) on a non-2xx answer. */
export function ask(base: string, token: string, text: string, options: AskOptions = {}): Promise<Answer> {
  const transport = new DefaultChatTransport<UIMessage>({
    api: `${base}/api/chat/v5`,
    headers: { authorization: `Bearer ${token}` },
    body: {
      ...(options.workspace ? { workspace: options.workspace } : {}),
      ...(options.tools ? { tools: options.tools } : {}),
    },
  });
  return answerOf(transport, text, options);
}

/**
 * Sends `text` to a site's assistant in conversation `sessionId` as the widget (or any `useChat` client) would, with
 * `client`'s cookies: its visitor cookie or customer session.
 */
export function askSite(client: Client, slug: string, sessionId: string, text: string): Promise<Answer> {
  const transport = new DefaultChatTransport<UIMessage>({
    api: `${client.base}/api/v1/${slug}/chat/session/${sessionId}/messages`,
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input));
      return client.request(url.pathname + url.search, init);
    }) as typeof fetch,
  });
  return answerOf(transport, text, { chatId: sessionId });
}

async function answerOf(
  transport: DefaultChatTransport<UIMessage>,
  text: string,
  options: AskOptions,
): Promise<Answer> {
  const stream = await transport.sendMessages({
    chatId: options.chatId ?? `chat-${process.pid}-${++asked}`,
    messages: [...(options.before ?? []), userMessage(text, options.questionId)],
    trigger: options.trigger ?? "submit-message",
    messageId: options.messageId,
    abortSignal: undefined,
  });
  const chunks: UIMessageChunk[] = [];
  const [forMessage, forChunks] = stream.tee();
  const collecting = (async () => {
    const reader = forChunks.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
  })();
  let message: UIMessage | undefined;
  for await (const state of readUIMessageStream({ stream: forMessage })) message = state;
  await collecting;
  if (!message) throw new Error("the stream carried no message");
  return {
    message,
    chunks,
    text: message.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n"),
    sources: message.parts.flatMap((p) => (p.type === "source-url" ? [{ url: p.url, title: p.title }] : [])),
    tools: message.parts.flatMap((p) =>
      p.type.startsWith("tool-")
        ? [
            {
              name: p.type.slice("tool-".length),
              input: (p as { input?: unknown }).input,
              output: (p as { output?: unknown }).output,
              state: (p as { state: string }).state,
            },
          ]
        : [],
    ),
  };
}

/** The same request by plain fetch, for what a transport hides: status, headers and the raw event stream. */
export function postChat(base: string, token: string | null, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${base}/api/chat/v5`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** A body as `DefaultChatTransport` sends it, for `postChat`. */
export const chatBody = (text: string, extra: Record<string, unknown> = {}) => ({
  id: `chat-${process.pid}-${++asked}`,
  messages: [userMessage(text)],
  trigger: "submit-message",
  ...extra,
});

/**
 * What the assistant answers a bakery's questions from: its hours in Berlin (closed Monday and Sunday, Saturday
 * 9:00–14:00) and one published page, "Allergies and ingredients" (an FAQ on rye and wheat). Answers its page's id.
 */
export async function bakeryContent(db: Db, workspaceId: string): Promise<string> {
  await profileOf(db, workspaceId).save(null, {
    ...profileInputOf(DEFAULT_PROFILE),
    timeZone: "Europe/Berlin",
    currency: "EUR",
    hours: {
      mon: [],
      tue: [{ open: "08:00", close: "18:00" }],
      wed: [{ open: "08:00", close: "18:00" }],
      thu: [{ open: "08:00", close: "18:00" }],
      fri: [{ open: "08:00", close: "20:00" }],
      sat: [{ open: "09:00", close: "14:00" }],
      sun: [],
    },
  });
  const pages = pagesOf(db, workspaceId);
  const actor = { userId: null, ip: null };
  const page = await pages.create(
    actor,
    { title: "Allergies and ingredients", description: "What goes into our bread." },
    [
      {
        type: "faq",
        heading: "Allergies",
        items: [
          {
            question: "Is your rye bread wheat-free?",
            answer: "Our seeded rye is baked with rye flour only, so it contains no wheat, but it does contain gluten.",
          },
        ],
      },
    ],
  );
  await pages.publish(actor, page.id);
  return page.id;
}
