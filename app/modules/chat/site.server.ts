/**
 * The site assistant (ADR 037): a business's public site answers its visitors from its published content, its
 * services, products, opening hours and policies; a signed-in customer may also ask about their own orders and
 * bookings. A visitor is known only by an anonymous cookie (a random token, stored hashed, no personal data); a
 * customer by their session on this site. Either way the tools see the caller, never an id from the request, so a
 * conversation can only ever reach its own customer's records.
 *
 * A conversation is opened first (`POST /api/v1/{site}/chat/session`) and then spoken to in the same UI message
 * stream protocol as the token API's chat; it can be handed to the inbox as a ticket.
 */
import type { AppLoadContext } from "@remix-run/node";
import { parse, serialize } from "cookie";
import { z } from "zod";
import { conflict, forbidden, invalid, notFound, parseInput } from "~/lib/errors";
import { sha256Base64url } from "~/lib/hash.server";
import { newSecret } from "~/lib/ids.server";
import type { AssistantCaller } from "~/modules/access/customer.server";
import { CustomerEmail, CustomerName } from "~/modules/customers/customers.server";
import { ticketsOf, type Ticket } from "~/modules/customers/tickets.server";
import { publicOrigin } from "~/modules/hosts/hosts.server";
import { siteIsOpenTo } from "~/modules/site-access/gate.server";
import { toolContextFor } from "./context.server";
import { HANDING_OVER, conversationsOf, type Conversation, type ConversationOwner } from "./conversations.server";
import { textOf } from "./protocol";
import { rememberedAssistant } from "./settings.server";
import type { ChatCaller, ChatTool, ToolContext } from "./tools";
import type { Turn } from "./turn.server";

/** The visitor cookie lives this long in the browser; a new one starts a new, unconnected identity. */
const VISITOR_COOKIE_SECONDS = 30 * 86_400;

function visitorCookieName(context: AppLoadContext, slug: string): string {
  const name = context.request.siteHost ? "atrium_chat" : `atrium_chat_${slug}`;
  return context.services.env.cookieSecure ? `__Host-${name}` : name;
}

interface SiteChat {
  context: ToolContext;
  owner: ConversationOwner;
  /** Set-Cookie for a visitor seen for the first time (their anonymous token). */
  setCookie: string | null;
  greeting: string;
}

/**
 * The caller's side of a site's assistant: refused when the site has none switched on (404) or is protected and
 * not unlocked by this visitor (403). `start`: a visitor without a cookie gets one (opening a conversation);
 * otherwise such a visitor has no conversation to reach (404).
 */
async function siteChat(
  request: Request,
  context: AppLoadContext,
  caller: AssistantCaller,
  options: { start: boolean },
): Promise<SiteChat> {
  const { services } = context;
  const { workspace } = caller.site;
  const settings = await rememberedAssistant(services, workspace.id);
  if (!settings.enabled) throw notFound("This site has no assistant");
  if (!(await siteIsOpenTo(context, request, workspace))) throw forbidden("Unlock this site to ask its assistant");

  let owner: ConversationOwner;
  let setCookie: string | null = null;
  let chatCaller: ChatCaller;
  if (caller.customer) {
    owner = { kind: "customer", customerId: caller.customer.id };
    chatCaller = { kind: "customer", customerId: caller.customer.id, email: caller.customer.email };
  } else {
    const name = visitorCookieName(context, workspace.slug);
    let token = parse(request.headers.get("cookie") ?? "")[name];
    if (!token || !/^[A-Za-z0-9_-]{20,100}$/.test(token)) {
      if (!options.start) throw notFound("No such conversation");
      token = newSecret(32);
      setCookie = serialize(name, token, {
        httpOnly: true,
        sameSite: "lax",
        secure: services.env.cookieSecure,
        path: "/",
        maxAge: VISITOR_COOKIE_SECONDS,
      });
    }
    owner = { kind: "visitor", visitorHash: sha256Base64url(token) };
    chatCaller = { kind: "visitor" };
  }

  return {
    owner,
    setCookie,
    greeting: settings.greeting,
    context: await toolContextFor(request, context, workspace, chatCaller),
  };
}

const conversations = (chat: SiteChat) =>
  conversationsOf(chat.context.services.db, chat.context.workspace.id, "site", chat.owner);

/** The conversation as its visitor or customer may read it again (the widget reopening). */
function publicConversation(conversation: Conversation, greeting: string, signedIn: boolean) {
  return {
    id: conversation.clientId,
    greeting,
    signedIn,
    messages: conversation.messages,
    handedOver: conversation.ticketId !== null,
    createdAt: conversation.createdAt,
  };
}

/** `POST /api/v1/{site}/chat/session`: a new conversation, with the visitor's cookie when they had none. */
export async function startSiteConversation(request: Request, context: AppLoadContext, caller: AssistantCaller) {
  const chat = await siteChat(request, context, caller, { start: true });
  const conversation = await conversations(chat).start();
  return {
    body: publicConversation(conversation, chat.greeting, caller.customer !== null),
    setCookie: chat.setCookie,
  };
}

export async function siteConversation(request: Request, context: AppLoadContext, caller: AssistantCaller, id: string) {
  const chat = await siteChat(request, context, caller, { start: false });
  return publicConversation(await conversations(chat).get(id), chat.greeting, caller.customer !== null);
}

/** A site visitor's or customer's turn: the site's tools (a customer's own records too), their allowance. */
export async function siteTurn(request: Request, context: AppLoadContext, caller: AssistantCaller): Promise<Turn> {
  const chat = await siteChat(request, context, caller, { start: false });
  const { services } = context;
  const visitorKey =
    chat.owner.kind === "customer"
      ? `customer:${chat.owner.customerId}`
      : `visitor:${(chat.owner as { visitorHash: string }).visitorHash}`;
  const repo = conversations(chat);
  return {
    context: chat.context,
    conversations: { ...repo, ask: (clientId, message) => repo.ask(clientId, message, { create: false }) },
    opened: true,
    tools: services.chat.all().filter((t: ChatTool) => t.audience.includes("site")),
    // Every site tool answers anyone on the site; a customer's own records answer only that customer (the tools
    // read the caller, and ask a visitor to sign in).
    permitted: (tool) => tool.audience.includes("site"),
    take: () => services.chatThrottle.takeVisitorMessage(chat.context.workspace.id, visitorKey, context.request.ip),
    model: services.chat.model,
    timeoutMs: services.env.AI_TIMEOUT_MS,
    headers: {},
    logError: (error) => context.request.logger.error({ err: error }, "site assistant answer failed"),
  };
}

export const HandoffInput = z.object({
  /** A visitor's address for the answer (a signed-in customer's is their account's). */
  email: CustomerEmail.optional(),
  name: CustomerName.optional(),
  /** What they want the team to know, beyond the conversation. */
  message: z.string().trim().max(2000, "Keep the message under 2,000 characters").optional(),
});

/** How much of a conversation a ticket quotes: the newest messages, enough to pick it up from. */
const HANDOFF_MESSAGES = 20;

/**
 * Hands the conversation to the business's inbox as a ticket, once: asked again (a double tap, a retry) it answers
 * the same ticket. The ticket quotes the conversation; a visitor leaves an address for the answer, a customer's is
 * their account's.
 */
export async function handOver(
  request: Request,
  context: AppLoadContext,
  caller: AssistantCaller,
  id: string,
  input: unknown,
): Promise<{ ticket: Ticket; created: boolean }> {
  const chat = await siteChat(request, context, caller, { start: false });
  const repo = conversations(chat);
  const tickets = ticketsOf(context.services.db, chat.context.workspace.id);
  const v = parseInput(HandoffInput, input);
  const email = caller.customer?.email ?? v.email;
  if (!email)
    throw invalid("Leave an e-mail address for the answer", [{ field: "email", message: "Enter your e-mail address" }]);
  const conversation = await repo.get(id);
  const marker = `${HANDING_OVER}${newSecret(8)}`;
  if (!(await repo.claimHandoff(id, marker))) {
    const current = (await repo.get(id)).ticketId;
    if (!current || current.startsWith(HANDING_OVER))
      throw conflict("This conversation is being passed to the team already");
    return { ticket: await tickets.byId(current), created: false };
  }
  try {
    const transcript = conversation.messages
      .slice(-HANDOFF_MESSAGES)
      .map((m) => ({ who: m.role === "user" ? "Visitor" : "Assistant", text: textOf(m) }))
      .filter((m) => m.text)
      .map((m) => `${m.who}: ${m.text}`)
      .join("\n\n");
    const body = [v.message, transcript ? `From the site assistant:\n\n${transcript}` : ""]
      .filter(Boolean)
      .join("\n\n---\n\n");
    const ticket = await tickets.open(
      {
        subject: (conversation.title ? `Assistant: ${conversation.title}` : "A question from the site assistant").slice(
          0,
          150,
        ),
        message: (body || "The visitor asked to talk to the team.").slice(0, 10_000),
      },
      { customerId: caller.customer?.id ?? null, email, name: caller.customer?.name || v.name || "" },
      await publicOrigin(request, context),
    );
    await repo.settleHandoff(id, marker, ticket.id);
    context.services.jobRunner.wake();
    return { ticket, created: true };
  } catch (error) {
    await repo.settleHandoff(id, marker, null);
    throw error;
  }
}
