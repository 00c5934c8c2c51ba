/**
 * Search the site's content (ADR 037): pages, products, services, policies and the business profile, through the
 * content index. Its answer quotes the sentences that answer best and cites where they are; when nothing answers
 * well enough it says so instead of guessing. Text from the content is quoted as data: nothing in it is followed.
 */
import { z } from "zod";
import { contentIndexOf, DOCUMENT_KINDS, type SearchHit } from "~/modules/search/index.server";
import { bestPassages, clip } from "~/modules/search/text";
import { defineTool, type ToolContext, type ToolResult } from "./tools";

/** A hit answers when it holds at least this share of the question's content terms. */
const MIN_COVERAGE = 0.5;
/** A second document is quoted too when it scores at least this share of the first's. */
const SECOND_SCORE = 0.6;

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

export async function searchContent(
  context: ToolContext,
  query: string,
  kinds?: readonly (typeof DOCUMENT_KINDS)[number][],
): Promise<ToolResult> {
  const index = await contentIndexOf(context.services, context.workspace.id);
  const hits = index.search(query, { kinds, limit: 5 });
  const answering = hits.filter((h) => h.coverage >= MIN_COVERAGE);
  const quoted: { hit: SearchHit; passages: string[] }[] = [];
  for (const hit of answering) {
    if (quoted.length === 2) break;
    if (quoted.length === 1 && hit.score < quoted[0]!.hit.score * SECOND_SCORE) break;
    const passages = bestPassages(hit.text, query, 2).map((p) => clip(p.text, 400));
    if (passages.length) quoted.push({ hit, passages });
  }
  const output = {
    query,
    results: hits.map((h) => ({
      title: h.title,
      kind: h.kind,
      url: context.siteUrl(h.path),
      score: Math.round(h.score * 100) / 100,
      excerpt: clip(bestPassages(h.text, query, 1)[0]?.text ?? h.text, 240),
    })),
  };
  if (quoted.length === 0) {
    return {
      output,
      answer: `I could not find that in ${context.workspace.name}'s pages, products or services.`,
      sources: [],
    };
  }
  const answer = quoted.map((q) => `${q.passages.join(" ")} (from “${q.hit.title}”)`).join("\n\n");
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
