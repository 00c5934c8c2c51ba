/**
 * What the technical routes (`/{site}/robots.txt`, `/{site}/sitemap.xml`, `/{site}/llms.txt`) share: the site
 * as the `$site` layout resolves it (unknown: 404; its owner suspended: 503, never cached; a former address: 301
 * to the same file at the current one), its final address, its settings and visibility, and the Cache-Control
 * of a public page (revalidated at each use; `no-store` when the answer names an origin taken from the request).
 */
import { redirect, type AppLoadContext } from "@remix-run/node";
import { resolveSitePage } from "~/modules/access/site.server";
import { resolveOrigin } from "~/modules/hosts/hosts.server";
import { siteVisibilityOf } from "~/modules/site-access/visibility.server";
import { linkBase, siteAddressOf } from "~/modules/sites/address.server";
import { PUBLIC_CACHE } from "~/modules/sites/public-page.server";
import { discoverySettingsOf } from "./settings.server";

export async function technicalSite(request: Request, context: AppLoadContext, slug: string | undefined, file: string) {
  context.request.log.callerType = "public";
  const { db } = context.services;
  const site = await resolveSitePage(db, slug);
  if (site && "movedTo" in site)
    throw redirect(`/${site.movedTo}/${file}${new URL(request.url).search}`, {
      status: 301,
      headers: { "Cache-Control": "public, max-age=3600" },
    });
  if (!site) {
    context.request.log.failure = "missing-data";
    throw new Response("Not found\n", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  if ("unavailable" in site) {
    context.request.log.failure = "authorization";
    throw new Response("This site is unavailable\n", {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  const { workspace } = site;
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
    cacheControl: address.fromRequest ? "no-store" : PUBLIC_CACHE,
  };
}

export function notFoundText(message: string, context: AppLoadContext): Response {
  context.request.log.failure = "missing-data";
  return new Response(`${message}\n`, {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
