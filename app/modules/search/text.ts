/**
 * Text handling shared by the content index and the assistant's extractive answers (ADR 037): one tokenizer for
 * what is indexed and what is asked, so a word matches itself; sentences split out of Markdown-ish text; and the
 * passages of a document that answer a question best. Plain functions, no server imports: unit tests drive them.
 */

/**
 * Words that say nothing about which document answers ("what are your …"): left out of the index and the query
 * alike, so a question is matched on its content words. Kept short on purpose: "open", "closed", "not" stay.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an the and or of to in on at for from by with about into as is are was were be been being am do does did " +
    "i me my we us our you your yours he she it its they them their this that these those there here " +
    "what which who whom whose when where why how can could would should will shall may might must " +
    "please tell show give let know find get any some much many very just also too so than then " +
    "have has had hi hello hey thanks thank"
  ).split(" "),
);

/** Lower-cased words (letters and digits, any script), apostrophes dropped: "Today's" → "todays". */
export function words(text: string): string[] {
  return (text
    .toLowerCase()
    .normalize("NFKC")
    .replace(/['’]/g, "")
    .match(/[\p{L}\p{N}]+/gu) ?? []) as string[];
}

/** A rough English stem, enough to let "bookings" find "booking" and "baked" find "bake" in both directions. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  for (const [suffix, keep] of [
    ["ies", "y"],
    ["ing", ""],
    ["ed", ""],
    ["es", ""],
    ["s", ""],
  ] as const) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) {
      const root = word.slice(0, -suffix.length) + keep;
      // "baking" → "bak" ≈ "bake" → "bak": drop a final e so both meet.
      return root.endsWith("e") && root.length > 3 ? root.slice(0, -1) : root;
    }
  }
  return word.endsWith("e") && word.length > 4 ? word.slice(0, -1) : word;
}

/** The content terms of a text: words, stop words out, stemmed. What the index stores and a query asks for. */
export function terms(text: string): string[] {
  return words(text)
    .filter((w) => !STOP_WORDS.has(w))
    .map(stem);
}

/** Markdown as the sentences a reader sees: links as their text, emphasis, headings and table rules dropped. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^[ \t]*\|?[ \t]*:?-{3,}.*$/gm, "")
    .replace(/^[ \t]*\|(.*)\|[ \t]*$/gm, (_, row: string) =>
      row
        .split("|")
        .map((c) => c.trim())
        .filter(Boolean)
        .join(": "),
    )
    .replace(/^\s{0,3}#{1,6}\s+(.*)$/gm, "$1.")
    .replace(/^\s*>\s?/gm, "")
    .replace(/^\s*[-*+]\s+/gm, "")
    .replace(/[*_`~]+/g, "")
    .replace(/<[^>]+>/g, "")
    .replace(/[ \t]+/g, " ")
    .trim();
}

/** Sentences and list lines of a plain text, each trimmed; a line break always ends one. */
export function sentences(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“(])/u))
    .map((s) => s.trim())
    .filter((s) => s.length > 1 && /[\p{L}\p{N}]/u.test(s));
}

export interface Passage {
  text: string;
  /** Distinct query terms it contains. */
  matched: number;
}

/**
 * The sentences of `text` that best answer `query`: those with the most distinct query terms, at most `limit`,
 * in the order they appear (a reader follows the document's own order). Sentences matching nothing are left out.
 */
export function bestPassages(text: string, query: string, limit = 2): Passage[] {
  const asked = new Set(terms(query));
  if (asked.size === 0) return [];
  const scored = sentences(text).map((s, index) => {
    const own = new Set(terms(s));
    let matched = 0;
    for (const t of asked)
      if (own.has(t) || [...own].some((o) => o.length >= 4 && t.length >= 4 && o.startsWith(t))) matched += 1;
    // A question in the text (an FAQ's) restates what was asked; the sentences after it answer.
    return { text: s, matched: s.endsWith("?") ? matched / 2 : matched, index };
  });
  return scored
    .filter((s) => s.matched > 0)
    .sort((a, b) => b.matched - a.matched || a.index - b.index)
    .slice(0, limit)
    .sort((a, b) => a.index - b.index)
    .map(({ text: t, matched }) => ({ text: t, matched }));
}

/** At most `max` characters, cut at a word and marked with an ellipsis. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.–-]+$/, "")}…`;
}
