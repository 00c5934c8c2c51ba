/**
 * The chat endpoints speak the Vercel AI SDK v5 UI message stream protocol (ADR 037): a request is what AI SDK's
 * `DefaultChatTransport` sends (`id`, `messages` as UI messages with `parts`, `trigger`, `messageId`, plus our own
 * `workspace` and `tools`), and the answer is a UI message stream. This file holds the request's shape and the
 * limits a request must keep, checked before any answer starts streaming.
 *
 * Only the newest user message is taken from the request: the history is what the server stored, never what the
 * client sends back, so a client cannot put words (or tool results) in the assistant's mouth.
 */
import { z } from "zod";
import type { UIMessage } from "ai";

/** Characters of text in one user message. */
export const MAX_MESSAGE_CHARS = 4_000;
/** Messages one conversation keeps (user and assistant); past it, a new conversation. */
export const MAX_HISTORY = 100;
/** Messages of history a model is given (the newest): enough for follow-ups, bounded in cost. */
export const MODEL_HISTORY = 20;

/** A client's conversation id: what `useChat` generates (nanoid-like), or any id an integrator picks. */
export const ChatId = z
  .string()
  .trim()
  .min(1, "Give the conversation an id")
  .max(100, "Use an id of at most 100 characters")
  .regex(/^[A-Za-z0-9_.:-]+$/, "Use letters, digits and - _ . : in the id");

const Part = z.looseObject({ type: z.string().min(1).max(100) });

const Message = z.object({
  id: z.string().min(1).max(200),
  role: z.enum(["system", "user", "assistant"]),
  parts: z.array(Part).max(200),
  metadata: z.unknown().optional(),
});

export const ChatRequest = z.object({
  id: ChatId,
  messages: z
    .array(Message)
    .min(1, "Send at least the new message")
    .max(MAX_HISTORY, `A conversation holds at most ${MAX_HISTORY} messages: start a new one`),
  trigger: z.enum(["submit-message", "regenerate-message"]).default("submit-message"),
  messageId: z.string().max(200).optional(),
  /** The workspace to talk about (its slug or id), when the key is not restricted to one. */
  workspace: z.string().trim().min(1).max(100).optional(),
  /** Only these tools (names); by default every tool the caller's plan and role allow. */
  tools: z.array(z.string().max(60)).max(30).optional(),
});
export type ChatRequest = z.output<typeof ChatRequest>;

export interface TextPart {
  type: "text";
  text: string;
}

/**
 * The new user message of a request, as it will be stored: its id and its text parts only (a file or data part is
 * refused: the assistant reads text). Field errors name the path in the request body.
 */
export function newUserMessage(
  request: ChatRequest,
): { message: UIMessage; text: string } | { issues: { field: string; message: string }[] } {
  const index = request.messages.length - 1;
  const last = request.messages[index]!;
  const field = `messages.${index}`;
  if (last.role !== "user")
    return { issues: [{ field: `${field}.role`, message: "The last message must be the user's" }] };
  const issues: { field: string; message: string }[] = [];
  const parts: TextPart[] = [];
  last.parts.forEach((part, i) => {
    if (part.type === "step-start") return;
    if (part.type !== "text" || typeof part.text !== "string") {
      issues.push({ field: `${field}.parts.${i}.type`, message: "The assistant reads text parts only" });
      return;
    }
    parts.push({ type: "text", text: part.text });
  });
  const text = parts
    .map((p) => p.text)
    .join("\n")
    .trim();
  if (!issues.length && !text) issues.push({ field: `${field}.parts`, message: "Write a message" });
  if (text.length > MAX_MESSAGE_CHARS)
    issues.push({
      field: `${field}.parts`,
      message: `Keep a message under ${MAX_MESSAGE_CHARS.toLocaleString("en")} characters`,
    });
  if (issues.length) return { issues };
  return { message: { id: last.id, role: "user", parts: [{ type: "text", text }] }, text };
}

/** The text of a stored message (its text parts), for titles and the offline engine's follow-ups. */
export function textOf(message: Pick<UIMessage, "parts">): string {
  return message.parts
    .flatMap((p) => (p.type === "text" ? [p.text] : []))
    .join("\n")
    .trim();
}
