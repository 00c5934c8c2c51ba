/**
 * The assistant's customer tools (ADR 037): find customers, and draft a reply to an inbox ticket from the site's own
 * content. A draft is only text in the answer: nothing is sent or stored, the operator edits and sends it from the
 * ticket (the reply is the business's word, so a person sends it).
 */
import { z } from "zod";
import { defineTool, emailIn, mentions, personNamed } from "~/modules/chat/tools";
import { contentIndexOf } from "~/modules/search/index.server";
import { bestPassages } from "~/modules/search/text";
import { customersOf } from "./customers.server";
import { ticketsOf } from "./tickets.server";

export const findCustomers = defineTool({
  name: "find_customers",
  description:
    "Customers found by name, e-mail, phone or tag (or, without a query, the newest), newest first, with their tags and when they joined.",
  input: z.object({
    query: z
      .string()
      .trim()
      .min(2)
      .max(120)
      .optional()
      .describe("A name, e-mail address, phone number or tag; none for the newest customers"),
  }),
  audience: ["operator"],
  role: "viewer",
  match(ask) {
    if (
      !mentions(
        ask.plain,
        "customer",
        "customers",
        "client",
        "clients",
        "contact details",
        "email address",
        "phone number",
      )
    )
      return null;
    const email = emailIn(ask.text);
    // A tag is written as it is stored ("tagged wholesale"), in any case.
    const tag = /\b(?:tagged|with (?:the )?tag|labelled|labeled)\s+[“"']?([\p{L}\p{N}-]{2,40})/u.exec(ask.plain)?.[1];
    const named = personNamed(ask.text, {
      after: ["named", "called", "customer", "client", "find", "about", "for", "is"],
    });
    const query = email ?? named ?? tag;
    if (query) return { score: 0.75, input: { query } };
    // "Who are our customers?", "the newest customers": the latest who joined.
    const listing =
      /\b(?:who are|list|show(?: me)?|see)\s+(?:(?:our|my|the|all)\s+)?(?:(?:newest|latest|recent|new)\s+)?customers\b/.test(
        ask.plain,
      ) || /^(?:our\s+|the\s+)?(?:newest|latest|recent)\s+customers\b/.test(ask.plain);
    return listing ? { score: 0.7, input: {} } : null;
  },
  async run(context, { query }) {
    const customers = customersOf(context.services.db, context.workspace.id);
    const [found, total] = await Promise.all([
      customers.list({ query, size: 10, offset: 0 }),
      query ? Promise.resolve(null) : customers.count(),
    ]);
    const live = found.filter((c) => !c.erased);
    if (live.length === 0)
      return {
        output: { customers: [] },
        answer: query ? `I found no customer matching “${query}”.` : "There are no customers yet.",
        sources: [],
      };
    const joined = (iso: string) =>
      new Intl.DateTimeFormat("en-GB", {
        timeZone: context.workspace.timeZone,
        day: "numeric",
        month: "short",
        year: "numeric",
      }).format(new Date(iso));
    return {
      output: {
        customers: live.map((c) => ({
          id: c.id,
          name: c.name,
          email: c.email,
          phone: c.phone,
          tags: c.tags,
          joined: c.createdAt,
          url: context.consoleUrl(`/customers/${c.id}`),
        })),
      },
      answer: `${
        query
          ? `${live.length === 1 ? "One customer" : `${live.length} customers`} matching “${query}”`
          : `The newest ${live.length === 1 ? "customer" : `${live.length} customers`} of ${total!.toLocaleString("en")}`
      }:\n${live
        .map(
          (c) =>
            `- ${c.name || "(no name)"} <${c.email}>${c.phone ? `, ${c.phone}` : ""}${c.tags.length ? ` — ${c.tags.join(", ")}` : ""} — since ${joined(c.createdAt)}`,
        )
        .join("\n")}`,
      sources: [],
    };
  },
});

export const draftTicketReply = defineTool({
  name: "draft_ticket_reply",
  description:
    "Drafts a reply to an inbox ticket (by its number) from the site's own content, for the operator to edit and send. Never sends anything.",
  input: z.object({
    ticket: z.coerce.number().int().positive().describe("The ticket's number, e.g. 12"),
    guidance: z.string().trim().max(500).optional().describe("What the reply should say, in a few words"),
  }),
  audience: ["operator"],
  role: "editor",
  tiers: ["pro", "enterprise"],
  match(ask) {
    if (!mentions(ask.plain, "reply", "respond", "response", "answer", "draft")) return null;
    const number = /\b(?:ticket|request|message)\s*(?:number|no\.?)?\s*#?(\d{1,9})\b|#(\d{1,9})\b/.exec(ask.plain);
    if (!number) return null;
    const guidance = /\b(?:saying|say|tell (?:them|her|him)|that)\s+(.{3,200})$/i.exec(ask.text)?.[1];
    return { score: 0.9, input: { ticket: Number(number[1] ?? number[2]), ...(guidance ? { guidance } : {}) } };
  },
  async run(context, { ticket: number, guidance }) {
    const tickets = ticketsOf(context.services.db, context.workspace.id);
    const ticket = await tickets.byNumber(number);
    if (!ticket)
      return { output: { ticket: number, draft: null }, answer: `There is no ticket #${number}.`, sources: [] };
    const messages = await tickets.messagesOf(ticket.id);
    const asked = [...messages].reverse().find((m) => m.author === "customer")?.body ?? ticket.subject;
    const index = await contentIndexOf(context.services, context.workspace.id);
    const hit = index.search(`${ticket.subject} ${asked}`, { limit: 1 })[0];
    const passages = hit ? bestPassages(hit.text, `${ticket.subject} ${asked}`, 2) : [];
    const first = ticket.name.trim().split(/\s+/)[0] || "there";
    const draft = [
      `Hi ${first},`,
      "",
      `Thank you for your message about “${ticket.subject}”.`,
      ...(guidance ? ["", guidance.replace(/^./, (c) => c.toUpperCase()).replace(/([^.!?])$/, "$1.")] : []),
      ...(passages.length ? ["", passages.map((p) => p.text).join(" ")] : []),
      "",
      "Best wishes,",
      context.workspace.name,
    ].join("\n");
    const sources = hit && passages.length ? [{ url: context.siteUrl(hit.path), title: hit.title }] : [];
    const url = context.consoleUrl(`/inbox/tickets/${ticket.id}`);
    return {
      output: { ticket: { id: ticket.id, number: ticket.number, subject: ticket.subject, url }, draft, sent: false },
      answer: `A draft reply to ticket #${ticket.number} (“${ticket.subject}”). Nothing was sent: edit and send it from the ticket (${url}).\n\n${draft}`,
      sources,
    };
  },
});

export const customersChatTools = [findCustomers, draftTicketReply];
