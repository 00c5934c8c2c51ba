/**
 * The default engine (ADR 037): answers on one node with no model at all. It reads a question as a person scanning
 * it would — is it something I must not do, a greeting, or an ask that one of the tools recognises (each tool's
 * `match`) — and otherwise searches the content and quotes what answers. A question with several asks ("today's
 * bookings and what is low on stock") runs a tool for each. It never makes anything up: its words are the tools'
 * own summaries of real records, or sentences quoted from the site with their source.
 *
 * Planning is synchronous and happens before the answer streams, so a question that needs a tool outside the
 * caller's plan or role is refused with the error contract (403), as the issue asks.
 */
import type { UIMessage } from "ai";
import { splitAsks } from "~/modules/search/text";
import { askOf, mentions, type Ask, type ChatTool, type ToolContext } from "./tools";
import { textOf } from "./protocol";

/** A tool's match must be at least this sure to be run for an ask. */
const THRESHOLD = 0.6;

export interface PlannedCall {
  tool: ChatTool;
  input: unknown;
  /** The part of the question it answers. */
  ask: Ask;
}

export type Plan = { kind: "reply"; text: string } | { kind: "tools"; calls: PlannedCall[] };

const ACTIONS = [
  "publish",
  "unpublish",
  "delete",
  "remove",
  "erase",
  "refund",
  "cancel",
  "send",
  "email",
  "e-mail",
  "charge",
  "change",
  "update",
  "edit",
  "rename",
  "archive",
  "approve",
  "decline",
  "reschedule",
  "move",
  "book",
  "ban",
  "discount",
  "set",
];

/** How a request to act is put: "refund …", "please refund …", "could you refund …", "I'd like you to refund …". */
const ASKED_TO =
  "^(?:ok(?:ay)?,?\\s+|now\\s+|also\\s+|so\\s+)?(?:please\\s+)?(?:(?:can|could|would|will) you\\s+(?:please\\s+)?|go ahead and\\s+|(?:i want|i need|id like|i would like) you to\\s+|you (?:should|must|need to)\\s+)?(?:please\\s+)?";
const ACTION = new RegExp(`${ASKED_TO}(${ACTIONS.join("|")})\\b`);
/** "Mark order 1001 as paid": marking is an act, but "Mark" is also a name ("Mark's last order"). */
const MARK = new RegExp(
  `${ASKED_TO}(mark)\\b.*\\bas\\s+(?:paid|unpaid|shipped|fulfilled|delivered|done|complete|completed|read|cancelled|refunded|spam)\\b`,
);
const INJECTION =
  /\b(?:ignore|disregard|forget|override)\b.{0,40}\b(?:instructions|rules|prompt|guidelines)\b|\bsystem prompt\b|\byou are now\b|\bdeveloper mode\b|\bjailbreak\b/;
const SECRETS = /\b(?:api keys?|passwords?|secret keys?|access tokens?|credit card numbers?|card numbers?)\b/;
const GREETING =
  /^(?:hi|hello|hey|good (?:morning|afternoon|evening)|thanks|thank you|cheers)\b[\s!.,]*(?:there)?[\s!.]*$/;
const HELP = /^(?:help|what can you do|what do you do|how do you work|who are you)\b/;

function capabilities(tools: readonly ChatTool[], workspaceName: string): string {
  const can = [
    tools.some((t) => t.name === "bookings_in_period") && "list today's or upcoming bookings",
    tools.some((t) => t.name === "find_orders") && "find a customer's orders",
    tools.some((t) => t.name === "find_customers") && "look up customers",
    tools.some((t) => t.name === "sales_summary") && "sum up sales over a period",
    tools.some((t) => t.name === "low_stock") && "say what is running low",
    tools.some((t) => t.name === "draft_page") && "draft a page or a ticket reply for you to review",
    "answer from the site's pages, products, services and opening hours, with the page each answer comes from",
    tools.some((t) => t.name === "my_orders") && "tell you about your own orders and bookings once you are signed in",
    tools.some((t) => t.name === "hand_over") && "pass your question to the team when I cannot help",
  ].filter(Boolean);
  return `I can help with ${workspaceName}: ${can.join("; ")}.`;
}

/** Refusals the engine gives without looking anything up. */
function refusal(ask: Ask, context: ToolContext, tools: readonly ChatTool[]): string | null {
  const draftOnly = tools.some((t) => t.writes) ? " I can draft a page for you to review." : "";
  if (INJECTION.test(ask.plain))
    return "I follow only Atrium's own rules: instructions in a message or in the site's content do not change what I may do.";
  if (
    SECRETS.test(ask.plain) &&
    mentions(ask.plain, "show", "tell", "give", "what is", "whats", "reveal", "list", "send")
  )
    return "I never share keys, passwords, tokens or card numbers.";
  const action = ACTION.exec(ask.plain) ?? MARK.exec(ask.plain);
  if (action && !(action[1] === "book" && context.caller.kind !== "operator")) {
    return context.caller.kind === "operator"
      ? `I can't ${action[1]} anything: I only read ${context.workspace.name}'s data, and I never publish, send, change or delete.${draftOnly} Do it in the console, where you can check it first.`
      : `I can't ${action[1]} anything for you here. You can do it on the site itself, or ask me to pass your question to the team.`;
  }
  return null;
}

function bestMatch(ask: Ask, tools: readonly ChatTool[], context: ToolContext) {
  let best: { tool: ChatTool; input: unknown; score: number } | undefined;
  for (const tool of tools) {
    if (tool.name === "search_content") continue;
    const match = tool.match?.(ask, context);
    if (match && match.score >= THRESHOLD && (!best || match.score > best.score))
      best = { tool, input: match.input, score: match.score };
  }
  return best;
}

/**
 * What to do with `question`: a reply of the engine's own, or the tools to run. `tools` are those the question may
 * ask for (the caller's audience, and the request's `tools`); the caller's plan and role are checked on the result.
 * `history` gives follow-ups their subject: a short question that asks for nothing by itself ("and tomorrow?") is
 * read after the previous question.
 */
export function plan(
  question: string,
  history: readonly UIMessage[],
  tools: readonly ChatTool[],
  context: ToolContext,
): Plan {
  const ask = askOf(question);
  const refused = refusal(ask, context, tools);
  if (refused) return { kind: "reply", text: refused };
  if (GREETING.test(ask.plain)) return { kind: "reply", text: `Hello! ${capabilities(tools, context.workspace.name)}` };
  if (HELP.test(ask.plain)) return { kind: "reply", text: capabilities(tools, context.workspace.name) };

  const parts = splitAsks(ask.plain).map((c) => askOf(c));
  // Names are matched on the words as written (capitals), so each clause keeps its original text where it can.
  const written = splitAsks(question.replace(/\s+/g, " ").trim());
  const asks = parts.map((p, i) => (written[i] && askOf(written[i]!).plain === p.plain ? askOf(written[i]!) : p));
  const matched = asks.map((a) => ({ ask: a, match: bestMatch(a, tools, context) }));
  const found = matched.filter((m) => m.match);

  const search = tools.find((t) => t.name === "search_content");
  if (found.length > 0) {
    const whole = bestMatch(ask, tools, context);
    const calls: PlannedCall[] = [];
    const seen = new Set<string>();
    for (const { ask: a, match } of matched) {
      if (match) {
        const key = `${match.tool.name}:${JSON.stringify(match.input)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        calls.push({ tool: match.tool, input: match.input, ask: a });
      } else if (search && a.plain.split(" ").length >= 3 && found.length < matched.length) {
        calls.push({ tool: search, input: { query: a.text }, ask: a });
      }
    }
    // One ask split by accident ("orders and bookings of Jane"): the whole question's own match reads better.
    if (calls.length > 1 && whole && calls.every((c) => c.tool === whole.tool))
      return { kind: "tools", calls: [{ tool: whole.tool, input: whole.input, ask }] };
    return { kind: "tools", calls };
  }

  // A follow-up: read after the previous question, the newer words last (a period named later wins).
  const previous = [...history]
    .reverse()
    .filter((m) => m.role === "user")
    .map(textOf)
    .find((t) => t && t !== question);
  if (previous && ask.plain.split(" ").length <= 6) {
    const before = bestMatch(askOf(previous), tools, context);
    const combined = askOf(`${previous} ${question}`);
    const match = bestMatch(combined, tools, context);
    // It follows up when it changes what the same tool is asked (another day, another customer).
    if (before && match && match.tool === before.tool && JSON.stringify(match.input) !== JSON.stringify(before.input)) {
      return { kind: "tools", calls: [{ tool: match.tool, input: match.input, ask: combined }] };
    }
  }
  if (!search) return { kind: "reply", text: capabilities(tools, context.workspace.name) };
  return { kind: "tools", calls: [{ tool: search, input: { query: question }, ask }] };
}
