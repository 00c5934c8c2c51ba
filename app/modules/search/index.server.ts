/**
 * A workspace's public content as one full-text index (ADR 037): what the site assistant answers from and what the
 * operator's assistant searches, and what the site search of a later issue will serve. Each module contributes the
 * documents it owns as a `SearchSource` (pages, policies and the business profile from sites; products from
 * commerce; services from scheduling), so this module names none of them.
 *
 * The index is MiniSearch (BM25 ranking, prefix and fuzzy matching) in memory, built per workspace on first use and
 * kept in the page cache's tagged memo (ADR 031) under the cache tags of everything it was read from: a save that
 * purges a public page drops the index with it, on this node or, through the purge bus, on any other. One code
 * path on both dialects. Building it is synchronous work: about a fifth of a second for 1,000 documents (bench/, "Chat"), once per workspace and again after a purge of what it read.
 */
import MiniSearch from "minisearch";
import type { AppServices } from "~/lib/context";
import { cacheTags } from "~/modules/cache/tags";
import { defaultWeights, queryGroups, STOP_WORDS, stem, terms, words, type QueryGroup } from "./text";

export const DOCUMENT_KINDS = ["page", "product", "service", "policy", "profile"] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** One thing a visitor can read on the site, as plain text. */
export interface SearchDocument {
  /** `{kind}:{record id}`: unique in a workspace's index. */
  id: string;
  kind: DocumentKind;
  title: string;
  /** The plain text a reader sees (sentences and list lines), which answers are quoted from. */
  text: string;
  /** Words that find it without being shown (a product's type and tags, a page's description). */
  keywords: string;
  /** Its site path ("" for the home page, `/menu`, `/shop/{slug}`): an absolute URL is made per answer. */
  path: string;
}

/** A module's documents of one workspace, with the cache tags a change to any of them purges. */
export interface SearchSource {
  kinds: readonly DocumentKind[];
  documents(services: AppServices, workspaceId: string): Promise<{ documents: SearchDocument[]; tags: string[] }>;
}

export interface SearchHit extends SearchDocument {
  score: number;
  /** The weighted share of what the query asks for that the document contains anywhere (0–1). */
  coverage: number;
}

export interface ContentIndex {
  readonly size: number;
  /** The documents that say most of what `query` asks for (its words, their synonyms), best first (BM25). */
  search(query: string, options?: { kinds?: readonly DocumentKind[]; limit?: number }): SearchHit[];
  /** How much each of a question's groups counts in choosing an answer here: a word rare in this index, more. */
  weights(groups: readonly QueryGroup[]): number[];
  byId(id: string): SearchDocument | undefined;
  ofKind(kind: DocumentKind): SearchDocument[];
}

declare module "~/lib/module" {
  interface ModuleContributions {
    /** Documents for the content index; one module per kind. */
    searchSources: SearchSource[];
  }
}

const sources: SearchSource[] = [];

/** Called once at start with every module's sources (search/module.server.ts). */
export function registerSearchSources(list: readonly SearchSource[]): void {
  sources.length = 0;
  const seen = new Set<DocumentKind>();
  for (const source of list) {
    for (const kind of source.kinds) {
      if (seen.has(kind)) throw new Error(`two modules contribute search documents of kind ${kind}`);
      seen.add(kind);
    }
    sources.push(source);
  }
}

const tokenize = (text: string) => words(text);
const processTerm = (term: string) => (STOP_WORDS.has(term) ? null : stem(term));

/** Builds an index over `documents` (exported for unit tests; the app reaches it through `contentIndexOf`). */
export function buildIndex(documents: readonly SearchDocument[]): ContentIndex {
  const search = new MiniSearch<SearchDocument>({
    fields: ["title", "text", "keywords"],
    storeFields: [],
    tokenize,
    processTerm,
    searchOptions: {
      boost: { title: 3, keywords: 1.5 },
      prefix: (term) => term.length >= 4,
      fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
    },
  });
  search.addAll(documents);
  const byId = new Map(documents.map((d) => [d.id, d]));

  // Which documents hold each term anywhere, for how rare a question's words are here and how much a hit covers.
  const postings = new Map<string, Set<string>>();
  for (const d of documents) {
    for (const term of new Set(terms(`${d.title}\n${d.text}\n${d.keywords}`))) {
      const ids = postings.get(term) ?? new Set<string>();
      ids.add(d.id);
      postings.set(term, ids);
    }
  }
  const vocabulary = [...postings.keys()];
  const saying = (group: QueryGroup): Set<string> => {
    const found = new Set<string>();
    const add = (term: string) => postings.get(term)?.forEach((id) => found.add(id));
    for (const s of group.stems) {
      add(s);
      // As in the passages: a word may be the start of a longer one ("sourdough" in "sourdoughs").
      if (s.length >= 4) for (const term of vocabulary) if (term.length > s.length && term.startsWith(s)) add(term);
    }
    if (group.pattern) for (const d of documents) if (group.pattern.test(d.text)) found.add(d.id);
    return found;
  };
  // BM25's idf; a word no document has counts as one only one has (a typo must not outweigh the question).
  const idf = (df: number) => Math.log(1 + (documents.length - Math.max(df, 1) + 0.5) / (Math.max(df, 1) + 0.5));
  const weights = (groups: readonly QueryGroup[]) => defaultWeights(groups, (g) => idf(saying(g).size));

  return {
    size: documents.length,
    search(query, options = {}) {
      const groups = queryGroups(query);
      if (groups.length === 0) return [];
      // A question's verbs find documents only when it has nothing else to look for.
      const looked = groups.some((g) => g.kind !== "weak") ? groups.filter((g) => g.kind !== "weak") : groups;
      const stems = [...new Set(looked.flatMap((g) => g.stems))];
      if (stems.length === 0) return [];
      const weight = weights(groups);
      const total = weight.reduce((a, b) => a + b, 0);
      const holders = groups.map(saying);
      const kinds = options.kinds ? new Set(options.kinds) : null;
      return search
        .search(stems.join(" "), {
          // The stems are already the index's terms: stemmed again, "addres" (address) would become "addr".
          processTerm: (term) => term,
          ...(kinds ? { filter: (r) => kinds.has(byId.get(r.id as string)!.kind) } : {}),
        })
        .slice(0, options.limit ?? 5)
        .map((r) => ({
          ...byId.get(r.id as string)!,
          score: r.score,
          coverage: holders.reduce((a, ids, i) => a + (ids.has(r.id as string) ? weight[i]! : 0), 0) / total,
        }));
    },
    weights,
    byId: (id) => byId.get(id),
    ofKind: (kind) => documents.filter((d) => d.kind === kind),
  };
}

/**
 * The workspace's content index, from memory until a purge names one of the tags it was read under. The sources
 * run side by side; one that fails fails the whole index (an answer from half the content would be wrong without
 * saying so).
 */
export function contentIndexOf(services: AppServices, workspaceId: string): Promise<ContentIndex> {
  return services.pageCache
    .remember<{ index: ContentIndex; tags: string[] }>(
      `search-index:${workspaceId}`,
      (value) => value.tags,
      async () => {
        const read = await Promise.all(sources.map((s) => s.documents(services, workspaceId)));
        const tags = new Set([cacheTags.workspace(workspaceId), ...read.flatMap((r) => r.tags)]);
        return { index: buildIndex(read.flatMap((r) => r.documents)), tags: [...tags] };
      },
    )
    .then((value) => value.index);
}
