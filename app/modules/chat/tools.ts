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
