/**
 * What the technical routes (`/{site}/robots.txt`, `/{site}/sitemap.xml`, `/{site}/llms.txt`) share: the site
 * as the `$site` layout resolves it (`publicSiteOf`), its final address, its settings and visibility, and the Cache-Control
 * headers of a cacheable answer (tagged, ADR 026; `no-store` when the answer names an origin taken from the request).
 */
import type { AppLoadContext } from "@remix-run/node";
import { resolveSitePage } from "~/modules/access/site.server";
import { resolveOrigin } from "~/modules/hosts/hosts.server";
import { movedSite } from "~/modules/hosts/moved-site.server";
import type { Workspace } from "~/modules/tenancy/workspaces.server";
import { siteVisibilityOf } from "~/modules/site-access/visibility.server";
import { linkBase, siteAddressOf } from "~/modules/sites/address.server";
import { publicCacheHeaders } from "~/modules/cache/headers";
import type { TagKind } from "~/modules/cache/tags";
import { technicalFileTags } from "~/modules/sites/page-cache";
import { discoverySettingsOf } from "./settings.server";

const plainText = (body: string, status: number) =>
  new Response(`${body}\n`, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });

/**
 * The site-resolution preamble of every technical route (robots.txt, sitemap.xml, llms.txt, og-image,
 * indexnow): the site a public request names, or the answer to throw instead: 404 for an unknown site, 503
 * (never cached) while its owner is suspended, and for a former address the layout's own answer (`movedSite`:
 * 301 to the same file at the current address, or on the site's domain a reload of a stale list and 307), or
 * 404 where a former address has nothing to offer (`formerAddress: "not-found"`).
 */
export async function publicSiteOf(
  request: Request,
  context: AppLoadContext,
  slug: string | undefined,
  options: { formerAddress?: "redirect" | "not-found" } = {},
): Promise<Workspace> {
  context.request.log.callerType = "public";
  const site = await resolveSitePage(context.services.db, slug);
  if (site && "movedTo" in site && options.formerAddress !== "not-found")
    throw movedSite(request, context, site.movedTo);
  if (!site || "movedTo" in site) {
    context.request.log.failure = "missing-data";
    throw plainText("Not found", 404);
  }
  if ("unavailable" in site) {
    context.request.log.failure = "authorization";
    throw plainText("This site is unavailable", 503);
  }
  return site.workspace;
}

export async function technicalSite(request: Request, context: AppLoadContext, slug: string | undefined) {
  const { db } = context.services;
  const workspace = await publicSiteOf(request, context, slug);
  const [address, settings, visibility] = await Promise.all([
    resolveOrigin(request, context).then((resolved) => siteAddressOf(context.services, workspace, resolved)),
    discoverySettingsOf(db, workspace.id),
    siteVisibilityOf(db, workspace.id),
  ]);
  // With the request's origin as the fallback there is always an address; the type allows none for jobs.
  if (!address) throw new Error("A request always has an origin");
  return {
    workspace,
    address,
    /** The link base of this request: `/{slug}`, or "" on the site's own domain. */
    base: linkBase(context, workspace.slug),
    settings,
    visibility,
    /**
     * The answer's cache headers (ADR 026): the workspace, its settings (discovery, visibility) and domains (the
     * addresses it names) and the `kinds` the file shows besides; `varyQuery` the parameters it answers to.
     * Without PUBLIC_URL it names the request's own origin, which the cache's key includes.
     */
    cacheHeaders: (kinds: readonly TagKind[] = [], varyQuery?: readonly string[]): Record<string, string> =>
      publicCacheHeaders({
        tags: technicalFileTags(workspace.id, kinds),
        varyQuery,
      }),
  };
}

export function notFoundText(message: string, context: AppLoadContext): Response {
  context.request.log.failure = "missing-data";
  return new Response(`${message}\n`, {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
