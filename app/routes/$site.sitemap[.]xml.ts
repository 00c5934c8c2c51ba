// GET /{site}/sitemap.xml[?page=n] — the site's public URLs (ADR 021), valid against sitemaps.org's 0.9 schema:
// one urlset up to 50,000 URLs, past that an index of `?page=1…n`. Empty while the site asks not to be indexed
// or is protected by a password.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { page } from "~/lib/routes.server";
import { SITEMAP_MAX_URLS, sitemapEntries, sitemapIndexXml, sitemapXml } from "~/modules/discovery/public.server";
import { notFoundText, technicalSite } from "~/modules/discovery/technical.server";
import { TECHNICAL_FILE_KINDS } from "~/modules/sites/page-cache";

export const loader = page("public", async ({ request, params, context }: LoaderFunctionArgs) => {
  const site = await technicalSite(request, context, params.site);
  const closed = site.settings.noindex || site.visibility === "protected";
  const entries = closed ? [] : await sitemapEntries(context.services.db, site.workspace, site.address);
  const asked = new URL(request.url).searchParams.get("page");
  // The list of pages and policies (`pages`; policies are `settings`), one page of it per `?page=`.
  const headers = {
    "Content-Type": "application/xml; charset=utf-8",
    ...site.cacheHeaders(TECHNICAL_FILE_KINDS.sitemap, ["page"]),
  };
  const paged = entries.length > SITEMAP_MAX_URLS;
  if (asked === null) {
    return new Response(paged ? sitemapIndexXml(site.address, entries) : sitemapXml(entries), { headers });
  }
  const n = /^[1-9][0-9]{0,5}$/.test(asked) ? Number(asked) : 0;
  const pages = paged ? Math.ceil(entries.length / SITEMAP_MAX_URLS) : 1;
  if (n < 1 || n > pages) return notFoundText("No such sitemap page", context);
  return new Response(sitemapXml(entries.slice((n - 1) * SITEMAP_MAX_URLS, n * SITEMAP_MAX_URLS)), { headers });
});
