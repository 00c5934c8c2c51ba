/**
 * What a site's public answers tell the page cache (issue 15, ADR 026 "tags"): the tags every answer of a site
 * carries, the next local midnight of a site that shows "today", and how a Remix `headers` function merges a
 * layout's cache headers with its page's. Plain functions (no server imports): route `headers` exports use them.
 */
import {
  CACHE_TAG_HEADER,
  CACHE_UNTIL_HEADER,
  CACHE_VARY_QUERY_HEADER,
  joinTags,
  publicCacheHeaders,
} from "~/modules/cache/headers";
import { cacheTags, type TagKind } from "~/modules/cache/tags";

/**
 * What every page of a site shows, whichever page it is: the workspace itself (its name, suspension, address),
 * its look (branding, theme.css), its header and footer links, its settings (profile, policies, visibility,
 * discovery), its domains (the canonical addresses in the head), its media (logo, favicon, sharing image) and
 * whether its shop has anything on sale (the header's cart link).
 */
export function siteFrameTags(workspaceId: string): string[] {
  return [
    cacheTags.shop(workspaceId),
    cacheTags.workspace(workspaceId),
    cacheTags.branding(workspaceId),
    cacheTags.navigation(workspaceId),
    cacheTags.settings(workspaceId),
    cacheTags.domains(workspaceId),
    cacheTags.media(workspaceId),
  ];
}

/**
 * A page's own tags, merged with its layout's frame: the page (when one answers); on the home address also the
 * list of pages, as which page is home (or the welcome, while none is published) changes with it.
 */
export function pageOwnTags(workspaceId: string, pageId: string | null, homeAddress: boolean): string[] {
  return [
    ...(pageId ? [cacheTags.page(workspaceId, pageId)] : []),
    ...(homeAddress ? [cacheTags.pages(workspaceId)] : []),
  ];
}

/** What each of a site's technical files shows besides its settings and domains (`technicalFileTags`). */
export const TECHNICAL_FILE_KINDS = {
  robots: [],
  sitemap: ["pages", "shop"],
  llms: ["pages"],
} as const satisfies Record<string, readonly TagKind[]>;

/**
 * A technical file's tags (robots.txt, sitemap.xml, llms.txt): no frame, only the workspace, its settings
 * (discovery, visibility) and domains (the addresses it names), and the `kinds` the file shows besides.
 */
export function technicalFileTags(workspaceId: string, kinds: readonly TagKind[] = []): string[] {
  return [
    cacheTags.workspace(workspaceId),
    cacheTags.settings(workspaceId),
    cacheTags.domains(workspaceId),
    ...kinds.map((kind) => cacheTags.of(workspaceId, kind)),
  ];
}

/** The IndexNow key file's tags: a replaced key (`settings`) purges it. */
export const indexNowKeyTags = (workspaceId: string) => [
  cacheTags.workspace(workspaceId),
  cacheTags.settings(workspaceId),
];

/** theme.css's tags (as `$site.theme[.]css.ts` declares them): the site's look. */
export const themeTags = (workspaceId: string) => [cacheTags.workspace(workspaceId), cacheTags.branding(workspaceId)];

/** A share image's tags (`$site.og-image.ts` declares these): the look, the name and the logo it draws. */
export const ogImageTags = (workspaceId: string) => [
  cacheTags.workspace(workspaceId),
  cacheTags.branding(workspaceId),
  cacheTags.media(workspaceId),
];

/** Never kept by a shared cache: what an answer says when it may not be cached. */
export const NOT_CACHEABLE = { "Cache-Control": "no-store" } as const;

const dayFormats = new Map<string, Intl.DateTimeFormat>();
function dayIn(timeZone: string, at: number): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormats.set(timeZone, format);
  }
  return format.format(at);
}

/**
 * The first instant after `at` that is another day in `timeZone` (the site's next local midnight): a page that
 * shows "today" (the footer's year, the upcoming exceptions to its opening hours) may be served until then.
 * Found by bisection over the next 27 hours (a day is 23 to 25 hours long where clocks change), to the
 * millisecond (27 steps): no offset arithmetic to get wrong around a clock change.
 */
export function nextLocalMidnight(timeZone: string, at: Date): Date {
  const today = dayIn(timeZone, at.getTime());
  let before = at.getTime();
  let after = before + 27 * 3_600_000;
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2);
    if (dayIn(timeZone, middle) === today) before = middle;
    else after = middle;
  }
  // The first millisecond that is already the next day.
  return new Date(after);
}

const CACHE_HEADERS = ["Cache-Control", CACHE_TAG_HEADER, CACHE_UNTIL_HEADER, CACHE_VARY_QUERY_HEADER] as const;

const isPublic = (cacheControl: string | null) => cacheControl !== null && /\bs-maxage=/.test(cacheControl);

/** The cache headers of one set of headers (a loader's), or null when it says nothing about caching. */
function cacheHeadersIn(headers: Headers | undefined): Record<string, string> | null {
  const cacheControl = headers?.get("Cache-Control");
  if (!headers || !cacheControl) return null;
  const out: Record<string, string> = {};
  for (const name of CACHE_HEADERS) {
    const value = headers.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}

/**
 * A page's cache headers from its layout's (`parent`) and its own loader's (`own`): cacheable only when every
 * part that says something is cacheable; then the union of their tags and query parameters and the earliest
 * `until`. Anything else (a `no-store`, a `private`) wins, and carries no tags.
 */
export function mergeCacheHeaders(...parts: Array<Headers | undefined>): Record<string, string> {
  const found = parts.map(cacheHeadersIn).filter((part): part is Record<string, string> => part !== null);
  if (found.length === 0) return { ...NOT_CACHEABLE };
  const refusal = found.find((part) => !isPublic(part["Cache-Control"] ?? null));
  if (refusal) return { "Cache-Control": refusal["Cache-Control"] ?? "no-store" };
  const untils = found.flatMap((part) => (part[CACHE_UNTIL_HEADER] ? [Date.parse(part[CACHE_UNTIL_HEADER])] : []));
  return publicCacheHeaders({
    tags: joinTags(...found.map((part) => part[CACHE_TAG_HEADER])).split(","),
    until: untils.length ? new Date(Math.min(...untils)) : undefined,
    varyQuery: joinTags(...found.map((part) => part[CACHE_VARY_QUERY_HEADER]))
      .split(",")
      .filter(Boolean),
  });
}

/** Whether a set of headers declares a cacheable answer (carries tags). */
export const isCacheableAnswer = (headers: Headers): boolean =>
  isPublic(headers.get("Cache-Control")) && headers.has(CACHE_TAG_HEADER);

/** Removes what makes an answer cacheable: for error answers and protected sites, whatever a route declared. */
export function stripCacheHeaders(headers: Headers, cacheControl: string): void {
  for (const name of [CACHE_TAG_HEADER, CACHE_UNTIL_HEADER, CACHE_VARY_QUERY_HEADER]) headers.delete(name);
  headers.set("Cache-Control", cacheControl);
}
