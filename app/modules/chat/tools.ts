/**
 * What the assistant can do (ADR 037): tools, each a module function with a zod input schema, run with the
 * caller's own permissions in one workspace. The modules that own the data contribute them (`chatTools`), as they
 * contribute event families and search sources; the chat module only chooses and runs them.
 *
 * A tool says who may run it (`audience`, the operator's least role, whether it writes), which plan tiers include
 * it, and how a plain-English question asks for it (`match`, for the offline engine; the model engine lets the
 * model choose from the descriptions). Its result carries what the stream shows as the tool's output, the text the
 * offline engine answers with, and the content it drew from, cited as `source-url` parts.
 */
import type { z } from "zod";
import type { Tier } from "~db/schema";
import type { AppServices } from "~/lib/context";
import type { Role } from "~/modules/tenancy/roles";
import { isPeriodWord } from "./periods";

/** Who is asking: an operator through the token API, or a site's customer or anonymous visitor. */
export type ChatCaller =
  | { kind: "operator"; userId: string; role: Role; tier: Tier; credential: "api_key" | "oauth" }
  | { kind: "customer"; customerId: string; email: string }
  | { kind: "visitor" };

export interface ChatWorkspace {
  id: string;
  slug: string;
  name: string;
  timeZone: string;
  currency: string;
}

export interface ToolContext {
  services: AppServices;
  workspace: ChatWorkspace;
  caller: ChatCaller;
  /** The moment the question is answered (the injectable clock). */
  at: Date;
  /** The absolute URL of a site path ("" for the home page, `/menu`). */
  siteUrl(path: string): string;
  /** The absolute URL of a console path (`/shop/orders/{id}`), for operators. */
  consoleUrl(path: string): string;
}

export interface Source {
  url: string;
  title: string;
}

export interface ToolResult {
  /** JSON shown as the tool's output (`tool-output-available`) and given to a model. */
  output: unknown;
  /** The answer in plain sentences (Markdown lists allowed), as the offline engine says it. */
  answer: string;
  /** The site content the answer quotes, cited with `source-url` parts. */
  sources: Source[];
}

/** A question as the offline engine reads it. */
export interface Ask {
  /** As written. */
  text: string;
  /** Lower case, apostrophes dropped, one space between words. */
  plain: string;
}

export interface ToolMatch<I> {
  /** How surely the question asks for this tool: 0–1; the engine runs the best above its threshold. */
  score: number;
  input: I;
}

export type Audience = "operator" | "site";

export interface ChatTool<S extends z.ZodType = z.ZodType> {
  /** snake_case; also the tool part's type in the stream (`tool-{name}`). */
  name: string;
  description: string;
  input: S;
  /** Operators through the token API, and/or the site assistant's visitors and customers. */
  audience: readonly Audience[];
  /** The operator's least role in the workspace (operator tools). */
  role?: Role;
  /** Changes something (a draft): an API key's act, never an OAuth token's (their scopes only read). */
  writes?: boolean;
  /** The plan tiers that include it (operator tools); site tools are the workspace's own, with no tier. */
  tiers?: readonly Tier[];
  match?(ask: Ask, context: ToolContext): ToolMatch<z.input<S>> | null;
  run(context: ToolContext, input: z.output<S>): Promise<ToolResult>;
}

/** A typed tool from its parts (the input type flows from the schema to `match` and `run`). */
export const defineTool = <S extends z.ZodType>(tool: ChatTool<S>): ChatTool<S> => tool;

declare module "~/lib/module" {
  interface ModuleContributions {
    /** The assistant's tools; one module per name. */
    chatTools: ChatTool[];
  }
}

/** Lower-cased, apostrophes dropped ("Today's" → "todays"), one space between words, punctuation kept. */
export function askOf(text: string): Ask {
  return {
    text,
    plain: text.toLowerCase().replace(/['’]/g, "").replace(/\s+/g, " ").trim(),
  };
}

/** Whether `plain` has any of `words` as a whole word (or a phrase). */
export const mentions = (plain: string, ...words: string[]): boolean =>
  words.some((w) =>
    new RegExp(`(?:^|[^\\p{L}\\p{N}])${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?:$|[^\\p{L}\\p{N}])`, "u").test(
      plain,
    ),
  );

/** An e-mail address in the question, if any. */
export const emailIn = (text: string): string | undefined =>
  /[^\s@<>()"',;]+@[^\s@<>()"',;]+\.[a-z]{2,}/i.exec(text)?.[0];

/** A capitalised name of one or two words, as a customer's is written ("Priya", "Jane Doe"). */
const NAME = String.raw`\p{Lu}[\p{L}-]+(?:\s+\p{Lu}[\p{L}-]+)?`;
/** Capitalised words that start a question rather than name someone ("What's", "Does …"). */
const NOT_A_NAME =
  /^(?:what|when|who|which|where|how|has|have|does|did|do|is|are|was|can|could|show|list|find|any|the|i|please)$/i;

/**
 * Who a question is about, if it names someone: a possessive ("Jane's last order"), a name after one of `after`
 * ("bookings for Tom Ellison", "does Tom Ellison have…") or before one of `before` ("what Jane ordered"). A day is
 * not a person ("bookings for Tuesday"); of several names, the last (a follow-up's "and Tom's?" is read after the
 * question it follows). The tools that look people up read names with this one rule.
 */
export function personNamed(
  text: string,
  options: { after: readonly string[]; before?: readonly string[] },
): string | undefined {
  const either = (w: string) => `[${w[0]!.toUpperCase()}${w[0]!.toLowerCase()}]${w.slice(1)}`;
  const patterns = [
    new RegExp(`(${NAME})['’]s\\b`, "gu"),
    new RegExp(`\\b(?:${options.after.map(either).join("|")})\\s+(${NAME})`, "gu"),
    ...(options.before?.length ? [new RegExp(`(${NAME})\\s+(?:${options.before.join("|")})\\b`, "gu")] : []),
  ];
  const found = patterns
    .flatMap((pattern) => [...text.matchAll(pattern)])
    .map((m) => ({ at: m.index + m[0].indexOf(m[1]!), name: m[1]!.trim() }))
    .map(({ at, name }) => {
      // "Does Tom Ellison": the question's first word is not part of the name.
      const [head, ...rest] = name.split(/\s+/);
      return NOT_A_NAME.test(head!) && rest.length ? { at: at + head!.length + 1, name: rest.join(" ") } : { at, name };
    })
    .filter(({ name }) => !name.split(/\s+/).some((w) => NOT_A_NAME.test(w) || isPeriodWord(w)));
  return found.sort((a, b) => a.at - b.at).at(-1)?.name;
}
