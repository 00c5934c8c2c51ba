/**
 * Search the site's content (ADR 037): pages, products, services, policies and the business profile, through the
 * content index. Its answer quotes the sentences that answer best and cites where they are; when nothing answers
 * well enough it says so instead of guessing. Text from the content is quoted as data: nothing in it is followed.
 *
 * The index finds candidates by their words (BM25); the answer is chosen by its passages: the document whose
 * sentences say most of what was asked — weighing a rare word more than a common one, and wanting an amount for
 * "how much" or a time for "when" — is quoted, so a page that merely mentions the words does not outrank the one
 * that answers. A question with several asks ("is the class full and is the consultation free?") is answered ask by
 * ask, each document quoted once.
 */
import { z } from "zod";
import { contentIndexOf, DOCUMENT_KINDS, type ContentIndex, type SearchHit } from "~/modules/search/index.server";
import { answerFrom, bestPassages, clip, queryGroups, splitAsks, subjectOf } from "~/modules/search/text";
import { defineTool, type ToolContext, type ToolResult } from "./tools";

/** A document answers when its passages hold at least this weighted share of what was asked. */
const MIN_STRENGTH = 0.5;
/** A second document is quoted too when it answers nearly as fully as the first, and as fully in one passage… */
const SECOND_STRENGTH = 0.9;
/**
 * …and the index ranks it at least this share of the first's score, or it answers as fully, words and all (the
 * menu's price of a croissant beside the shop's box of them, whose title the index ranks far higher).
 */
const SECOND_SCORE = 0.6;
/** Candidates read for each ask: the index's best by words, re-ranked by how well their passages answer. */
const CANDIDATES = 8;

const KIND_WORDS: Record<string, (typeof DOCUMENT_KINDS)[number]> = {
  product: "product",
  products: "product",
  service: "service",
  services: "service",
  page: "page",
  pages: "page",
  policy: "policy",
  policies: "policy",
};

type Kinds = readonly (typeof DOCUMENT_KINDS)[number][] | undefined;

interface Quote {
  hit: SearchHit;
  passages: string[];
}

/** The documents that answer one ask, best first (at most two), with the passages to quote. */
function answersTo(index: ContentIndex, ask: string, kinds: Kinds): Quote[] {
  const groups = queryGroups(ask);
  if (groups.length === 0) return [];
  const weights = index.weights(groups);
  const read = index
    .search(ask, { kinds, limit: CANDIDATES })
    .map((hit) => ({ hit, ...answerFrom(hit.text, groups, { title: hit.title, weights, limit: 2 }) }))
    .filter((r) => r.strength >= MIN_STRENGTH && r.passages.length > 0)
    // By how fully it answers, then how fully in one place (in tenths, so near-equal answers fall back to the
    // index's ranking), then by score.
    .sort(
      (a, b) =>
        Math.round(b.strength * 10) - Math.round(a.strength * 10) ||
        Math.round(b.lead * 10) - Math.round(a.lead * 10) ||
        b.hit.score - a.hit.score,
    );
  const [first, second] = read;
  if (!first) return [];
  const quotes = [{ hit: first.hit, passages: first.passages.map((p) => p.text) }];
  if (
    second &&
    second.strength >= first.strength * SECOND_STRENGTH &&
    second.lead >= first.lead * SECOND_STRENGTH &&
    (second.hit.score >= first.hit.score * SECOND_SCORE ||
      (second.strength >= first.strength && groups.some((g) => g.kind === "content")))
  )
    quotes.push({ hit: second.hit, passages: second.passages.map((p) => p.text) });
  return quotes;
}

/** A list line quoted beside a sentence ends like one: "Baguette: €2.60." */
const sentence = (text: string) => (/[.!?…:;)"”]$/.test(text) ? text : `${text}.`);

export async function searchContent(context: ToolContext, query: string, kinds?: Kinds): Promise<ToolResult> {
  const index = await contentIndexOf(context.services, context.workspace.id);
  const parts = splitAsks(query).filter((part) => queryGroups(part).length > 0);
  // "What's the price of the class and where is it held?": an ask naming nothing is about the ask before it.
  const asks =
    parts.length > 1
      ? parts.map((part, i) =>
          i > 0 && !queryGroups(part).some((g) => g.kind === "content") ? `${part} ${subjectOf(parts[i - 1]!)}` : part,
        )
      : [query];
  const quoted: Quote[] = [];
  const unanswered: string[] = [];
  for (const ask of asks) {
    const found = answersTo(index, ask, kinds);
    if (found.length === 0) unanswered.push(ask);
    // One document answering two asks is quoted once, with the passages of both.
    for (const quote of found) {
      const same = quoted.find((q) => q.hit.id === quote.hit.id);
      if (!same) quoted.push({ hit: quote.hit, passages: [...quote.passages] });
      else for (const p of quote.passages) if (!same.passages.includes(p)) same.passages.push(p);
    }
  }
  const hits = index.search(query, { kinds, limit: 5 });
  const output = {
    query,
    results: hits.map((h) => ({
      title: h.title,
      kind: h.kind,
      url: context.siteUrl(h.path),
      score: Math.round(h.score * 100) / 100,
      excerpt: clip(bestPassages(h.text, query, 1, h.title)[0]?.text ?? h.text, 240),
    })),
  };
  if (quoted.length === 0) {
    return {
      output,
      answer: `I could not find that in ${context.workspace.name}'s pages, products or services.`,
      sources: [],
    };
  }
  const answer = [
    ...quoted.map((q) => `${q.passages.map((p) => sentence(clip(p, 400))).join(" ")} (from “${q.hit.title}”)`),
    ...unanswered.map((ask) => `Nothing in ${context.workspace.name}'s pages says “${ask}”.`),
  ].join("\n\n");
  return {
    output,
    answer,
    sources: quoted.map((q) => ({ url: context.siteUrl(q.hit.path), title: q.hit.title })),
  };
}

export const searchContentTool = defineTool({
  name: "search_content",
  description:
    "Searches the site's published content — pages, products, services, policies, opening hours and contact details — and quotes what answers the question, with its address.",
  input: z.object({
    query: z.string().trim().min(1).max(500).describe("What to look for, in the visitor's or operator's words"),
    kinds: z.array(z.enum(DOCUMENT_KINDS)).max(5).optional().describe("Only these kinds of content"),
  }),
  audience: ["operator", "site"],
  role: "viewer",
  match(ask) {
    const kind = Object.entries(KIND_WORDS).find(([word]) =>
      new RegExp(`\\b(?:search|find|look for|look up)\\b.*\\b${word}\\b`).test(ask.plain),
    );
    return { score: 0.3, input: { query: ask.text, ...(kind ? { kinds: [kind[1]] } : {}) } };
  },
  run: (context, { query, kinds }) => searchContent(context, query, kinds),
});
