/**
 * The stale-page diagnosis (issue 15, item 4; ADR 026 "Diagnosis"): for one public URL, how its host and path
 * route (the same `routeHost` server.ts applies), which site and page answer it, whether the page cache may
 * keep it for an anonymous visitor (and why not), what the cache holds for it now (`pageCache.inspect`), its
 * tags and what purges each of them (event families, console pages). Read by `/api/routing-test` and the
 * console's "Page status"; `refreshPage` is the console's "Refresh now".
 *
 * Nothing here renders the page: the diagnosis must not change what it looks at (a render would fill the
 * cache). So the tags of a URL the cache does not hold are the ones its route is expected to declare, marked
 * `tagsFrom: "expected"`; the cached entry's own tags, when there is one, are the truth (`"cache"`).
 */
import type { AppServices } from "~/lib/context";
import { contractFor } from "~/lib/access-contract.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { parseTag } from "~/modules/cache/tags";
import { writeAndPurge } from "~/modules/cache/purge.server";
import type { CachedPageInfo } from "~/modules/cache/module.server";
import { mediaOf } from "~/modules/files/media.server";
import { routeHost } from "~/modules/hosts/routing.server";
import { siteVisibilityOf } from "~/modules/site-access/visibility.server";
import { PAGE_SLUG_PATTERN } from "~/modules/sites/blocks";
import { pageAtAddress, publishedTitles } from "~/modules/sites/pages.server";
import {
  indexNowKeyTags,
  ogImageTags,
  pageOwnTags,
  siteFrameTags,
  technicalFileTags,
  TECHNICAL_FILE_KINDS,
  themeTags,
} from "~/modules/sites/page-cache";
import { workspaceOf } from "~/modules/tenancy/workspaces.server";
import { findWorkspaceBySlug, movedSiteSlug } from "~/modules/tenancy/workspaces.server";
import { SLUG_PATTERN } from "~/modules/tenancy/slug";
import { declaredPolicy } from "~/modules/cache/cookies";
import { countedParams } from "~/modules/cache/store.server";
import { refreshersOf, type TagRefresher } from "./refreshed-by";

type Services = Pick<AppServices, "db" | "siteDomains" | "pageCache">;

/** Why an answer is not cached, in the order the checks run. */
export type BypassReason =
  | "refused"
  | "redirect"
  | "not-public"
  | "no-site"
  | "moved"
  | "unavailable"
  | "protected"
  | "not-found"
  | "method"
  | "cookie"
  | "query";

/** What answers a site path: its page, the home page, or one of the site's technical routes. */
export type TargetKind =
  | "home"
  | "page"
  | "contact"
  | "policies"
  | "policy"
  | "sitemap"
  | "robots"
  | "llms"
  | "theme"
  | "media"
  | "og-image"
  | "indexnow"
  | "unlock"
  | "other";

const TARGET_LABELS: Record<TargetKind, string> = {
  home: "The home page",
  page: "A page",
  contact: "The contact page",
  policies: "The policies",
  policy: "A policy",
  sitemap: "sitemap.xml",
  robots: "robots.txt",
  llms: "llms.txt",
  theme: "The site's theme (theme.css)",
  media: "A media file",
  "og-image": "A sharing image",
  indexnow: "The IndexNow key file",
  unlock: "The password page",
  other: "No route of the site (its 404, or a redirect set up in Discovery)",
};

export interface DiagnosedPage {
  id: string;
  /** The published copy's title; null for a draft (a draft's title is never shown here). */
  title: string | null;
  slug: string;
  isHome: boolean;
  status: "draft" | "published";
}

export interface CacheDiagnosis {
  /** Whether the page cache may keep the answer to this request (an anonymous GET: no cookie). */
  cacheable: boolean;
  reason: BypassReason | null;
  /** In words, for a person. */
  why: string;
  /** Whether the cache holds an answer for this URL now. */
  cached: boolean;
  key: string | null;
  renderedAt: string | null;
  expiresAt: string | null;
  hits: number | null;
  bytes: number | null;
  /** The cached entry's tags, else the ones its route is expected to declare. */
  tags: string[];
  tagsFrom: "cache" | "expected" | null;
  purgedBy: TagRefresher[];
}

export interface UrlDiagnosis {
  host: string;
  /** The path and query asked about, before any rewrite. */
  path: string;
  hostKind: "deployment" | "custom-domain";
  /** The path Remix matches (after a custom domain's rewrite); null when a redirect answers instead. */
  rewrittenPath: string | null;
  redirect: string | null;
  refused: string | null;
  site: { workspaceId: string; slug: string; name: string } | null;
  /** The site's current address, when the path names a former one (a 301 answers). */
  movedTo: string | null;
  target: { kind: TargetKind; label: string } | null;
  page: DiagnosedPage | null;
  cache: CacheDiagnosis;
}

export interface DiagnoseInput {
  /** As a request's `Host` names it. */
  host: string;
  /** Path and query, as requested. */
  pathWithQuery: string;
  /** The method of the request asked about (GET when a person asks about a URL). */
  method?: string;
  /** The names of the cookies it carries. */
  cookies?: readonly string[];
}

/** The cookie names of a `Cookie` header (values are never read). */
export function cookieNames(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(";")
    .map((pair) => pair.split("=")[0]!.trim())
    .filter(Boolean);
}

function classify(rest: string): { kind: TargetKind; pageSlug?: string } {
  if (rest === "" || rest === "/") return { kind: "home" };
  const segments = rest.slice(1).split("/");
  const [first, second] = segments;
  if (segments.length === 1) {
    switch (first) {
      case "contact":
        return { kind: "contact" };
      case "policies":
        return { kind: "policies" };
      case "sitemap.xml":
        return { kind: "sitemap" };
      case "robots.txt":
        return { kind: "robots" };
      case "llms.txt":
        return { kind: "llms" };
      case "theme.css":
        return { kind: "theme" };
      case "og-image":
        return { kind: "og-image" };
      case "indexnow":
        return { kind: "indexnow" };
      case "unlock":
        return { kind: "unlock" };
      default:
        return PAGE_SLUG_PATTERN.test(first!) ? { kind: "page", pageSlug: first } : { kind: "other" };
    }
  }
  if (segments.length === 2 && first === "policies" && second) return { kind: "policy" };
  if (segments.length === 2 && first === "media" && second) return { kind: "media" };
  return { kind: "other" };
}

/**
 * The tags a route of the site declares (ADR 026 "Tags"), from the functions the routes themselves use: no
 * second copy of the route table (maintainer review F10; page-status.test.ts compares them with real answers).
 * A page's own tags are added by the caller, which knows the page.
 */
function expectedTags(workspaceId: string, kind: TargetKind): string[] {
  switch (kind) {
    case "robots":
    case "sitemap":
    case "llms":
      return technicalFileTags(workspaceId, TECHNICAL_FILE_KINDS[kind]);
    case "theme":
      return themeTags(workspaceId);
    case "og-image":
      return ogImageTags(workspaceId);
    case "indexnow":
      return indexNowKeyTags(workspaceId);
    default:
      // Pages under the site's layout: its frame, and (home, page) the page's own tags.
      return siteFrameTags(workspaceId);
  }
}

const NOT_CACHED = { cached: false, key: null, renderedAt: null, expiresAt: null, hits: null, bytes: null };

const WHY: Record<BypassReason, string> = {
  refused: "The host refuses this path (400): it would leave the site.",
  redirect: "A redirect answers this address before any page does; the cache keeps pages, not host redirects.",
  "not-public": "This is not a public page: only the sites' public pages are cached.",
  "no-site": "No site has this address: the 404 is not cached.",
  moved: "This is a site's former address: it answers 301 to the current one, which is what the cache keeps.",
  unavailable: "The site's owner is suspended: its neutral 503 page is never cached.",
  protected: "The site is protected by a password: its pages are private to the visitors who unlocked it.",
  "not-found":
    "Nothing is published at this address (404, or a redirect set up in Discovery): the cache keeps only pages that answer 200.",
  method: "Only GET and HEAD requests are cached.",
  cookie:
    "This request carries cookies: a request with a session, unlock, cart or other product cookie is never served from the cache (analytics cookies aside).",
  query:
    "The query has parameters the cache does not ignore: unless the page declares it varies on them, such a request bypasses the cache.",
};

/** Diagnoses one URL. Reads only (the cache's own entry through `inspect`); never renders it. */
export async function diagnoseUrl(services: Services, input: DiagnoseInput): Promise<UrlDiagnosis> {
  const { db, siteDomains, pageCache } = services;
  const route = await routeHost(siteDomains, input.host, input.pathWithQuery);
  const routed = route.url.split(/[?#]/)[0]!;
  const search = (() => {
    const at = input.pathWithQuery.search(/[?#]/);
    return at === -1 ? "" : input.pathWithQuery.slice(at).split("#")[0]!;
  })();
  const base: Omit<UrlDiagnosis, "cache"> = {
    host: input.host,
    path: input.pathWithQuery,
    hostKind: route.kind,
    rewrittenPath: route.redirect === null && !route.refused ? routed : null,
    redirect: route.redirect,
    refused: route.refused ?? null,
    site: null,
    movedTo: null,
    target: null,
    page: null,
  };
  // What the cache holds is reported whatever the verdict: an entry stored before the verdict changed (a site
  // protected since) is exactly what a stale-page report is about.
  const held = pageCache.inspect(input.host, input.pathWithQuery);

  const answer = async (reason: BypassReason | null, expected: string[] = []): Promise<UrlDiagnosis> => ({
    ...base,
    cache: await cacheOf(services, base.site?.workspaceId ?? null, reason, held, expected),
  });

  if (route.refused) return answer("refused");
  if (route.redirect !== null) return answer("redirect");
  if (routed.startsWith("/api/") || contractFor(routed).caller !== "public") return answer("not-public");

  const slug = routed.split("/")[1];
  const found = slug && SLUG_PATTERN.test(slug) ? await findWorkspaceBySlug(db, slug) : undefined;
  if (!found) {
    const movedTo = slug && SLUG_PATTERN.test(slug) ? await movedSiteSlug(db, slug) : undefined;
    if (movedTo) base.movedTo = `/${movedTo}${routed.slice(1 + slug!.length)}`;
    return answer(movedTo ? "moved" : "no-site");
  }
  base.site = { workspaceId: found.id, slug: found.slug, name: found.name };
  const frame = siteFrameTags(found.id);
  if (!found.ownerActive) return answer("unavailable", frame);

  const target = classify(routed.slice(1 + found.slug.length));
  base.target = { kind: target.kind, label: TARGET_LABELS[target.kind] };
  const expected = expectedTags(found.id, target.kind);
  if (target.kind === "home" || target.kind === "page") {
    // One row, and only its published title: a draft's title is nobody's business here (attacker review #1).
    const page = await pageAtAddress(
      db,
      found.id,
      target.kind === "home" ? { home: true } : { slug: target.pageSlug! },
    );
    if (page)
      base.page = {
        id: page.id,
        title: page.publishedTitle,
        slug: page.slug,
        isHome: page.isHome,
        status: page.status,
      };
    expected.push(...pageOwnTags(found.id, page?.status === "published" ? page.id : null, target.kind === "home"));
  }

  if ((await siteVisibilityOf(db, found.id)) === "protected") return answer("protected", expected);
  // An unknown or unpublished page is the site's 404; the home page asked for by its slug a 301 to `/`.
  const missing =
    target.kind === "other" ||
    (target.kind === "page" && (!base.page || base.page.status !== "published" || base.page.isHome));
  if (missing) return answer("not-found", frame);
  const method = (input.method ?? "GET").toUpperCase();
  if (method !== "GET" && method !== "HEAD") return answer("method", expected);
  // The cache's own rule: a declared "bypass" cookie or an undeclared one keeps the request away; analytics do not.
  if (input.cookies?.some((name) => declaredPolicy(name) !== "ignore")) return answer("cookie", expected);
  const counted = countedParams(search);
  if (counted.length && !held) return answer("query", expected);
  return answer(null, expected);
}

async function cacheOf(
  services: Services,
  workspaceId: string | null,
  reason: BypassReason | null,
  held: CachedPageInfo | null,
  expected: string[],
): Promise<CacheDiagnosis> {
  // Most telling first: the page's own tag, then what its frame shows, the whole-site tag last.
  const tags = [...(held ? held.tags : expected)].sort((a, b) => rank(a) - rank(b));
  const names = workspaceId ? await namesOf(services, workspaceId, tags) : new Map<string, string>();
  return {
    cacheable: reason === null,
    reason,
    why:
      reason === null
        ? "An anonymous visitor's GET of this address is answered from the cache once rendered."
        : WHY[reason],
    ...(held
      ? {
          cached: true,
          key: held.key,
          renderedAt: held.renderedAt,
          expiresAt: held.expiresAt,
          hits: held.hits,
          bytes: held.bytes,
        }
      : NOT_CACHED),
    tags,
    tagsFrom: held ? "cache" : tags.length ? "expected" : null,
    purgedBy: refreshersOf(tags, names),
  };
}

const RANKS: Record<string, number> = { page: 0, pages: 1, workspace: 9 };
const rank = (tag: string) => {
  const parsed = parseTag(tag);
  if (!parsed) return 10;
  return parsed.kind === "media" && parsed.id ? 0 : (RANKS[parsed.kind] ?? 5);
};

/** The titles of the pages and the names of the files that tags of `workspaceId` name by id. */
async function namesOf(services: Services, workspaceId: string, tags: readonly string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const ids = { page: [] as string[], media: [] as string[] };
  for (const tag of tags) {
    const parsed = parseTag(tag);
    if (parsed?.workspaceId !== workspaceId || !parsed.id) continue;
    if (parsed.kind === "page") ids.page.push(parsed.id);
    if (parsed.kind === "media") ids.media.push(parsed.id);
  }
  if (ids.page.length) {
    for (const [id, title] of await publishedTitles(services.db, workspaceId, ids.page)) names.set(id, title);
  }
  if (ids.media.length) {
    for (const [id, item] of await mediaOf(services.db, workspaceId).byIds(ids.media)) names.set(id, item.filename);
  }
  return names;
}

/** What `/api/routing-test` tells anyone about a URL's cache: whether it may be kept (or why not) and whether it is. */
export interface PublicCacheDiagnosis {
  cacheable: boolean;
  reason: BypassReason | null;
  cached: boolean;
}

export type RoutingDiagnosis =
  | { full: true; target: UrlDiagnosis["target"]; page: DiagnosedPage | null; cache: CacheDiagnosis }
  | { full: false; target: null; page: null; cache: PublicCacheDiagnosis };

/**
 * `/api/routing-test`'s diagnosis, cut to what its caller may see (attacker review #1). The route is public: an
 * anonymous caller learns the routing and three words about the cache (cacheable, why not, cached), never the
 * page, its tags, the names they resolve to, hit counts or the key: those say what a workspace holds (its ids,
 * file names, unpublished pages, a protected site's pages) and how often it is visited. An operator who is a
 * member of the site's workspace (`userId`, from their console session) sees the whole diagnosis, as the
 * console's Page status shows it.
 */
export async function routingDiagnosis(
  services: Services,
  input: DiagnoseInput,
  userId: string | null,
): Promise<RoutingDiagnosis> {
  const diagnosis = await diagnoseUrl(services, input);
  const member =
    userId !== null &&
    diagnosis.site !== null &&
    (await workspaceOf(services.db, diagnosis.site.workspaceId).roleOf(userId)) !== undefined;
  if (member) return { full: true, target: diagnosis.target, page: diagnosis.page, cache: diagnosis.cache };
  const { cacheable, reason, cached } = diagnosis.cache;
  return { full: false, target: null, page: null, cache: { cacheable, reason, cached } };
}

/**
 * "Refresh now" (console, admin): purges the tags a URL of `workspaceId`'s site carries, and records who did
 * it. Only tags of that workspace: a URL's tags come from what the cache stored, and an operator refreshes
 * their own site only. Through `writeAndPurge`, so the purge reaches every node (Postgres NOTIFY at commit)
 * and the audit event commits with it.
 */
export async function refreshPage(
  db: AppServices["db"],
  workspaceId: string,
  actor: { userId: string; ip: string | null },
  input: { url: string; tags: readonly string[] },
): Promise<string[]> {
  const own = input.tags.filter((tag) => parseTag(tag)?.workspaceId === workspaceId);
  if (own.length === 0) return [];
  await writeAndPurge(db, async (trx, purge) => {
    await recordWorkspaceEvent(trx, workspaceId, {
      action: "page-cache.refreshed",
      actorUserId: actor.userId,
      ip: actor.ip,
      detail: { url: input.url, tags: own },
    });
    purge(...own);
  });
  return own;
}

/** Where a site's pages are: its verified primary domain's root, else `{deployment origin}/{slug}`. */
export async function siteHomeUrl(
  services: Pick<AppServices, "siteDomains">,
  site: { id: string; slug: string },
  deploymentOrigin: string,
): Promise<string> {
  const domain = await services.siteDomains.primaryDomainOf(site.id);
  return domain ? `https://${domain}/` : `${deploymentOrigin}/${site.slug}`;
}

export type PageStatusAnswer =
  | { state: "answered"; url: string; diagnosis: UrlDiagnosis }
  /** The address is another workspace's site: nothing about it is shown here. */
  | { state: "other-site"; url: string; siteName: string }
  | { state: "invalid"; url: string; message: string };

/**
 * The console's question: `asked` is a full URL on one of this deployment's hosts, or a path of `site`'s site
 * (`/about`, at its primary domain when it has one, else `/{slug}/about` on the deployment's host). Only
 * `site`'s own addresses are answered in full: the console shows one workspace's cache, never another's.
 */
export async function pageStatusOf(
  services: Services & Pick<AppServices, "hosts">,
  site: { id: string; slug: string },
  deploymentOrigin: string,
  asked: string,
): Promise<PageStatusAnswer> {
  const text = asked.trim();
  let host: string;
  let pathWithQuery: string;
  if (/^https?:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return {
        state: "invalid",
        url: text,
        message: "That is not a web address. Enter https://… or a path such as /about.",
      };
    }
    if (!(await services.hosts.serves(url.host)))
      return {
        state: "invalid",
        url: text,
        message: `${url.hostname} is not served by this deployment: enter your site's address or one of its verified domains.`,
      };
    host = url.host;
    pathWithQuery = `${url.pathname}${url.search}`;
  } else if (text.startsWith("/")) {
    const deploymentHost = new URL(deploymentOrigin).host;
    const domain = await services.siteDomains.primaryDomainOf(site.id);
    const own = text === `/${site.slug}` || /^\/[^/?#]+(?=[/?#]|$)/.exec(text)?.[0] === `/${site.slug}`;
    if (own) [host, pathWithQuery] = [deploymentHost, text];
    else if (domain) [host, pathWithQuery] = [domain, text];
    else [host, pathWithQuery] = [deploymentHost, `/${site.slug}${text === "/" ? "" : text}`];
  } else {
    return {
      state: "invalid",
      url: text,
      message: "Enter a full address starting with https:// or a path of your site starting with /, such as /about.",
    };
  }
  const diagnosis = await diagnoseUrl(services, { host, pathWithQuery });
  const url = `${host === new URL(deploymentOrigin).host ? new URL(deploymentOrigin).protocol : "https:"}//${host}${pathWithQuery}`;
  if (diagnosis.site && diagnosis.site.workspaceId !== site.id)
    return { state: "other-site", url, siteName: diagnosis.site.name };
  return { state: "answered", url, diagnosis };
}
