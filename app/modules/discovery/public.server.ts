/**
 * The public side of discovery (ADR 021): a page's search settings and translations for its head, the redirect
 * of a path no page answers, and the technical files: robots.txt, sitemap.xml and llms.txt. Absolute URLs are
 * built at the site's final address (`siteAddressOf`), never from the request.
 */
import type { Db } from "~db/client";
import { productsOf } from "~/modules/commerce/catalogue.server";
import type { LinkBase } from "~/lib/link-base";
import { siteUrl, type SiteAddress } from "~/modules/sites/address.server";
import { rebaseSiteHref } from "~/modules/sites/navigation.server";
import { pageSitePath } from "~/modules/sites/pages.server";
import { POLICY_KINDS, POLICY_LABELS } from "~/modules/sites/policy-kinds";
import { seoOf, type PageSeo } from "./discovery.server";
import { normaliseSitePath } from "./rules";
import type { DiscoverySettings } from "./settings.server";

/** The sitemaps.org protocol's limit of URLs in one sitemap file (and of sitemaps in one index). */
export const SITEMAP_MAX_URLS = 50_000;

/**
 * A site path the operator typed (a redirect's target, a canonical path), which may be the address they see on
 * the deployment's host (`/{slug}/menu`, `/{slug}`): the path inside the site (`/menu`, `/`), so that the link
 * base or the final address is put in front of it once, not twice (`/{slug}/{slug}/menu`).
 */
const ownSitePath = (path: string, slug: string) => rebaseSiteHref(path, slug, "");

/** The absolute URL a page's canonical setting names: a site path at the final address, else as written. */
function canonicalUrl(canonical: string | null, slug: string, address: SiteAddress): string | null {
  if (!canonical) return null;
  if (!canonical.startsWith("/")) return canonical;
  const path = ownSitePath(canonical, slug);
  return siteUrl(address, path === "/" ? "" : path);
}

// ---- Redirects --------------------------------------------------------------------------------------------

/** The redirect from `sitePath` (as a visitor typed it), or null. */
export async function redirectFor(
  db: Db,
  workspaceId: string,
  sitePath: string,
): Promise<{ target: string; status: 301 | 302 } | null> {
  const row = await db
    .selectFrom("site_redirects")
    .select(["target", "status"])
    .where("workspace_id", "=", workspaceId)
    .where("from_path", "=", normaliseSitePath(sitePath))
    .executeTakeFirst();
  return row ? { target: row.target, status: row.status === 302 ? 302 : 301 } : null;
}

/**
 * Where a redirect sends a visitor: a site path under the link base the request came in on (`/{slug}` on the
 * deployment's host, "" on the site's custom domain), a target typed with the slug (`/{slug}/menu`) included;
 * an absolute URL as it is. The visitor's query (a campaign's utm_* tags) goes along, after the target's own.
 */
export function redirectLocation(target: string, slug: string, base: LinkBase, search: string): string {
  const path = target.startsWith("/") ? ownSitePath(target, slug) : null;
  const location = path === null ? target : `${base}${path === "/" ? "" : path}` || "/";
  if (!search || search === "?") return location;
  const hash = location.indexOf("#");
  const [head, fragment] = hash === -1 ? [location, ""] : [location.slice(0, hash), location.slice(hash)];
  return `${head}${head.includes("?") ? `&${search.slice(1)}` : search}${fragment}`;
}

// ---- A page's head ----------------------------------------------------------------------------------------

export interface HeadSeo {
  title: string | null;
  description: string | null;
  /** Absolute. */
  canonical: string | null;
  noindex: boolean;
  locale: string | null;
  /** Absolute URLs of the page's language versions, itself included, and `x-default` (the original). */
  alternates: { hreflang: string; href: string }[];
}

interface GroupRow {
  id: string;
  slug: string;
  is_home: number;
  locale: string | null;
  translation_of: string | null;
}

/**
 * The `hreflang` alternates of a translation group (an original and the pages that translate it): each
 * published member with a language, and `x-default` at the original. Empty unless the group has translations.
 */
function alternatesOf(address: SiteAddress, originalId: string, members: readonly GroupRow[]) {
  if (!members.some((m) => m.translation_of === originalId)) return [];
  const alternates: { hreflang: string; href: string }[] = [];
  const seen = new Set<string>();
  for (const member of members) {
    if (!member.locale || seen.has(member.locale.toLowerCase())) continue;
    seen.add(member.locale.toLowerCase());
    alternates.push({
      hreflang: member.locale,
      href: siteUrl(address, pageSitePath({ slug: member.slug, isHome: member.is_home === 1 })),
    });
  }
  const original = members.find((m) => m.id === originalId);
  if (original && alternates.length)
    alternates.push({
      hreflang: "x-default",
      href: siteUrl(address, pageSitePath({ slug: original.slug, isHome: original.is_home === 1 })),
    });
  return alternates;
}

/** The published members of the translation group of `originalId`. */
function groupMembers(db: Db, workspaceId: string, originalId: string) {
  return db
    .selectFrom("site_pages")
    .leftJoin("site_page_seo", "site_page_seo.page_id", "site_pages.id")
    .select([
      "site_pages.id",
      "site_pages.slug",
      "site_pages.is_home",
      "site_page_seo.locale",
      "site_page_seo.translation_of",
    ])
    .where("site_pages.workspace_id", "=", workspaceId)
    .where("site_pages.published", "is not", null)
    .where((eb) => eb.or([eb("site_pages.id", "=", originalId), eb("site_page_seo.translation_of", "=", originalId)]))
    .where((eb) => eb.or([eb("site_page_seo.noindex", "is", null), eb("site_page_seo.noindex", "=", 0)]))
    .orderBy("site_pages.is_home", "desc")
    .orderBy("site_pages.slug")
    .execute();
}

/**
 * What a published page's head needs from discovery, in one query when the page is in no translation group:
 * its own search settings and its translations' rows; a second for the group's published members otherwise.
 */
export async function headSeoOf(
  db: Db,
  workspace: { id: string; slug: string },
  pageId: string,
  address: SiteAddress,
  site: DiscoverySettings,
): Promise<HeadSeo> {
  const rows = await db
    .selectFrom("site_page_seo")
    .selectAll()
    .where("workspace_id", "=", workspace.id)
    // Its own row and its translations' (a handful: one a language).
    .where((eb) => eb.or([eb("page_id", "=", pageId), eb("translation_of", "=", pageId)]))
    .execute();
  const own: PageSeo = seoOf(rows.find((r) => r.page_id === pageId));
  const originalId = own.translationOf ?? (rows.some((r) => r.translation_of === pageId) ? pageId : null);
  const canonical = canonicalUrl(own.canonical, workspace.slug, address);
  const noindex = own.noindex || site.noindex;
  return {
    title: own.title,
    description: own.description,
    canonical,
    noindex,
    locale: own.locale,
    // A page asking not to be indexed names no language versions: they would point engines back at it.
    alternates:
      originalId && !noindex
        ? alternatesOf(address, originalId, (await groupMembers(db, workspace.id, originalId)) as GroupRow[])
        : [],
  };
}

// ---- robots.txt -------------------------------------------------------------------------------------------

/** The portal, cart, checkout and account paths: nothing for a search engine, and private to each visitor. */
export const PRIVATE_SITE_PATHS = [
  "/account",
  "/orders",
  "/billing",
  "/tickets",
  "/profile",
  "/saved",
  "/cart",
  "/checkout",
  "/login",
  "/unlock",
] as const;

/**
 * robots.txt (RFC 9309). A robots.txt governs the host that serves it, so its rules are under the link base of
 * the request (`rulesBase`): "" on the site's own domain, where crawlers read it at `/robots.txt`; `/{slug}` on
 * the deployment's host, where the site is part of a shared origin and the rules name that prefix, both as the
 * bare path (`$`, the end of the path) and as a directory, so `/{slug}/account` is kept out without
 * `/{slug}/accounting` (a page) being kept out with it. Only the Sitemap line is at the site's final address.
 */
export function robotsTxt(rulesBase: LinkBase, closed: boolean, sitemapUrl: string): string {
  const base = rulesBase;
  const lines = ["User-agent: *"];
  if (closed) {
    lines.push(...(base ? [`Disallow: ${base}$`, `Disallow: ${base}/`] : ["Disallow: /"]));
  } else {
    lines.push(...(base ? [`Allow: ${base}$`, `Allow: ${base}/`] : ["Allow: /"]));
    for (const path of PRIVATE_SITE_PATHS) lines.push(`Disallow: ${base}${path}$`, `Disallow: ${base}${path}/`);
  }
  lines.push("", `Sitemap: ${sitemapUrl}`, "");
  return lines.join("\n");
}

// ---- sitemap.xml ------------------------------------------------------------------------------------------

export interface SitemapEntry {
  loc: string;
  lastmod: string | null;
  alternates: { hreflang: string; href: string }[];
}

const xmlEscape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);

/**
 * Every URL of the site a search engine should know, in a stable order: the home page, the published pages
 * that are not noindex and whose canonical URL is their own (by address), the policies index and the published
 * policies, the shop and its active products. A site asking not to be indexed, or protected by a password, lists none.
 */
export async function sitemapEntries(
  db: Db,
  workspace: { id: string; slug: string },
  address: SiteAddress,
): Promise<SitemapEntry[]> {
  const workspaceId = workspace.id;
  const [pages, policies, products] = await Promise.all([
    db
      .selectFrom("site_pages")
      .leftJoin("site_page_seo", "site_page_seo.page_id", "site_pages.id")
      .select([
        "site_pages.id",
        "site_pages.slug",
        "site_pages.is_home",
        "site_pages.published_at",
        "site_page_seo.noindex",
        "site_page_seo.canonical",
        "site_page_seo.locale",
        "site_page_seo.translation_of",
      ])
      .where("site_pages.workspace_id", "=", workspaceId)
      .where("site_pages.published", "is not", null)
      .orderBy("site_pages.is_home", "desc")
      .orderBy("site_pages.slug")
      .execute(),
    db
      .selectFrom("site_policies")
      .select(["kind", "updated_at"])
      .where("workspace_id", "=", workspaceId)
      .where("published", "=", 1)
      .execute(),
    // The shop's active products (ADR 030), and with them the shop's own page.
    productsOf(db, workspaceId).activeAddresses(),
  ]);
  const urlOf = (page: { slug: string; is_home: number }) =>
    siteUrl(address, pageSitePath({ slug: page.slug, isHome: page.is_home === 1 }));
  // A page whose canonical names another URL tells engines to index that one instead: listing it would
  // contradict it (Google's sitemap guidelines: canonical URLs only).
  const indexed = pages.filter((p) => {
    if (p.noindex === 1) return false;
    const canonical = canonicalUrl(p.canonical, workspace.slug, address);
    return canonical === null || canonical === urlOf(p);
  });
  const groups = new Map<string, GroupRow[]>();
  for (const page of indexed) {
    const original = page.translation_of ?? page.id;
    groups.set(original, [...(groups.get(original) ?? []), page]);
  }
  const entries: SitemapEntry[] = [];
  // The welcome of a site with no home page published yet answers at the home address too.
  if (!pages.some((p) => p.is_home === 1)) entries.push({ loc: siteUrl(address), lastmod: null, alternates: [] });
  for (const page of indexed) {
    const original = page.translation_of ?? page.id;
    entries.push({
      loc: urlOf(page),
      lastmod: page.published_at,
      alternates: alternatesOf(address, original, groups.get(original) ?? []),
    });
  }
  const published = POLICY_KINDS.flatMap((kind) => policies.filter((p) => p.kind === kind));
  if (published.length) {
    const latest =
      published
        .map((p) => p.updated_at)
        .sort()
        .at(-1) ?? null;
    entries.push({ loc: siteUrl(address, "/policies"), lastmod: latest, alternates: [] });
    for (const policy of published)
      entries.push({ loc: siteUrl(address, `/policies/${policy.kind}`), lastmod: policy.updated_at, alternates: [] });
  }
  if (products.length) {
    const latest =
      products
        .map((p) => p.updated_at)
        .sort()
        .at(-1) ?? null;
    entries.push({ loc: siteUrl(address, "/shop"), lastmod: latest, alternates: [] });
    for (const product of [...products].sort((a, b) => a.slug.localeCompare(b.slug)))
      entries.push({ loc: siteUrl(address, `/shop/${product.slug}`), lastmod: product.updated_at, alternates: [] });
  }
  return entries;
}

/** W3C datetime, to the second, in UTC: what the sitemaps.org schema's `xsd:dateTime` accepts. */
const w3cDate = (iso: string) => `${new Date(iso).toISOString().slice(0, 19)}+00:00`;

export function sitemapXml(entries: readonly SitemapEntry[]): string {
  const xhtml = entries.some((e) => e.alternates.length) ? ' xmlns:xhtml="http://www.w3.org/1999/xhtml"' : "";
  const urls = entries.map((entry) => {
    const parts = [`<loc>${xmlEscape(entry.loc)}</loc>`];
    if (entry.lastmod) parts.push(`<lastmod>${w3cDate(entry.lastmod)}</lastmod>`);
    for (const alt of entry.alternates)
      parts.push(`<xhtml:link rel="alternate" hreflang="${xmlEscape(alt.hreflang)}" href="${xmlEscape(alt.href)}"/>`);
    return `<url>${parts.join("")}</url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"${xhtml}>\n${urls.join("\n")}\n</urlset>\n`;
}

/** The index of a site with more URLs than one sitemap holds: `sitemap.xml?page=1…n`, each ≤ 50,000 URLs. */
export function sitemapIndexXml(address: SiteAddress, entries: readonly SitemapEntry[]): string {
  const sitemaps: string[] = [];
  for (let start = 0, n = 1; start < entries.length; start += SITEMAP_MAX_URLS, n++) {
    const chunk = entries.slice(start, start + SITEMAP_MAX_URLS);
    const lastmod = chunk
      .map((e) => e.lastmod ?? "")
      .sort()
      .at(-1);
    sitemaps.push(
      `<sitemap><loc>${xmlEscape(siteUrl(address, `/sitemap.xml?page=${n}`))}</loc>${lastmod ? `<lastmod>${w3cDate(lastmod)}</lastmod>` : ""}</sitemap>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${sitemaps.join("\n")}\n</sitemapindex>\n`;
}

// ---- llms.txt ---------------------------------------------------------------------------------------------

/** One line of Markdown link text or description: no line breaks, no brackets that would end the link. */
const inline = (text: string) => text.replace(/\s+/g, " ").replace(/[[\]]/g, "").trim();

/**
 * llms.txt (llmstxt.org): `# {site name}`, `> {summary}`, then a "Pages" section linking the published pages
 * that are not noindex with their descriptions, and the policies under "## Optional" (what a reader may skip).
 */
export async function llmsTxt(
  db: Db,
  workspace: { id: string; name: string },
  address: SiteAddress,
  summary: string,
): Promise<string> {
  const [pages, policies] = await Promise.all([
    db
      .selectFrom("site_pages")
      .leftJoin("site_page_seo", "site_page_seo.page_id", "site_pages.id")
      .select([
        "site_pages.slug",
        "site_pages.is_home",
        "site_pages.published",
        "site_page_seo.title",
        "site_page_seo.description",
        "site_page_seo.noindex",
      ])
      .where("site_pages.workspace_id", "=", workspace.id)
      .where("site_pages.published", "is not", null)
      .orderBy("site_pages.is_home", "desc")
      .orderBy("site_pages.slug")
      .execute(),
    db
      .selectFrom("site_policies")
      .select(["kind", "title"])
      .where("workspace_id", "=", workspace.id)
      .where("published", "=", 1)
      .execute(),
  ]);
  const lines = [`# ${inline(workspace.name)}`, ""];
  const quote = summary.trim();
  if (quote) lines.push(...quote.split(/\r?\n/).map((l) => (l.trim() ? `> ${l.trim()}` : ">")), "");
  const links = pages
    .filter((p) => p.noindex !== 1)
    .map((p) => {
      const content = JSON.parse(p.published!) as { title: string; description: string };
      const title = inline(p.title || content.title) || (p.is_home === 1 ? "Home" : p.slug);
      const description = inline(p.description || content.description);
      const url = siteUrl(address, pageSitePath({ slug: p.slug, isHome: p.is_home === 1 }));
      return `- [${title}](${url})${description ? `: ${description}` : ""}`;
    });
  if (links.length) lines.push("## Pages", "", ...links, "");
  const published = POLICY_KINDS.flatMap((kind) => policies.filter((p) => p.kind === kind));
  if (published.length) {
    lines.push("## Optional", "");
    for (const policy of published)
      lines.push(
        `- [${inline(policy.title || POLICY_LABELS[policy.kind].title)}](${siteUrl(address, `/policies/${policy.kind}`)}): ${POLICY_LABELS[policy.kind].about}`,
      );
    lines.push("");
  }
  return lines.join("\n");
}
