/**
 * How a public answer declares itself to the page cache in server.ts (issue 15, ADR 026). A route that may be
 * cached says so with these headers; the cache stores only a 200 to an anonymous GET that carries them, and
 * removes the internal ones (`Atrium-Cache-*`) before the answer leaves. Plain functions (no server imports).
 */

/** Comma-separated tags (./tags.ts): kept on the answer, so a CDN in front can purge by the same tags. */
export const CACHE_TAG_HEADER = "Cache-Tag";
/** Internal: ISO time after which this process must not serve the stored answer (a page that shows "today"). */
export const CACHE_UNTIL_HEADER = "Atrium-Cache-Until";
/**
 * Internal: the query parameters the answer varies on (comma-separated). They are part of the cache key; a
 * request with any other parameter bypasses the cache (except the marketing ones the cache ignores).
 */
export const CACHE_VARY_QUERY_HEADER = "Atrium-Cache-Vary-Query";

/** What a CDN may keep between purges, and serve while it refreshes. */
export const SHARED_MAX_AGE_SECONDS = 300;
export const STALE_WHILE_REVALIDATE_SECONDS = 60;

/** Browsers revalidate every time (a cheap 304 from the cache); shared caches keep it until purged or s-maxage. */
export const PUBLIC_CACHE_CONTROL = `public, max-age=0, must-revalidate, s-maxage=${SHARED_MAX_AGE_SECONDS}, stale-while-revalidate=${STALE_WHILE_REVALIDATE_SECONDS}`;

/**
 * An address whose content never changes (a `?v=` hash of it: theme.css, og-image): kept a year by browsers and
 * shared caches, and by this process's cache (`s-maxage` is what makes an answer storable); purged by its tags.
 */
export const IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, s-maxage=31536000, immutable";

/** Tags joined as the header carries them: deduplicated, in a stable order. */
export function joinTags(...lists: ReadonlyArray<ReadonlyArray<string> | string | null | undefined>): string {
  const all = new Set<string>();
  for (const list of lists) {
    if (!list) continue;
    for (const tag of typeof list === "string" ? list.split(",") : list) if (tag.trim()) all.add(tag.trim());
  }
  return [...all].sort().join(",");
}

/** The headers of a cacheable public answer. */
export function publicCacheHeaders(options: {
  tags: ReadonlyArray<string>;
  until?: Date;
  varyQuery?: ReadonlyArray<string>;
}): Record<string, string> {
  const headers: Record<string, string> = {
    "Cache-Control": PUBLIC_CACHE_CONTROL,
    [CACHE_TAG_HEADER]: joinTags(options.tags),
  };
  if (options.until) headers[CACHE_UNTIL_HEADER] = options.until.toISOString();
  if (options.varyQuery?.length) headers[CACHE_VARY_QUERY_HEADER] = [...options.varyQuery].sort().join(",");
  return headers;
}
