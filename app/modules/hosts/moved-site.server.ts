/**
 * A request for a site's former address (ADR 019: the workspace changed slug within 90 days), answered the same
 * way by the `$site` layout and by the site's technical routes (robots.txt, sitemap.xml, llms.txt, og-image):
 * the same path and query under the current address, 301, cached for an hour only (the slug may be changed
 * back).
 *
 * On the site's own domain (ADR 025) a former slug can only come from this node's list of domains being older
 * than the change (another node renamed it): the list is reloaded and the visitor sent to the same path again
 * (307, never kept), which the fresh list then rewrites to the current slug. A 301 to `/{new}/…` there would
 * loop: the domain answers a path that carries the slug with a 301 back to the path without it.
 */
import { redirect, type AppLoadContext } from "@remix-run/node";
import { atBase } from "~/lib/link-base";
import { linkBase } from "~/modules/sites/address.server";
import { sameHostLocation } from "./routing.server";

/** The answer to `request` (a path under a former slug, `/{old}/…` as Remix routed it), to throw or return. */
export function movedSite(request: Request, context: AppLoadContext, movedTo: string): Response {
  const url = new URL(request.url);
  const rest = url.pathname.split("/").slice(2).join("/");
  const sitePath = `${rest ? `/${rest}` : ""}${url.search}`;
  if (context.request.siteHost) {
    context.services.siteDomains.invalidate();
    return redirect(sameHostLocation(`/${sitePath}`), { status: 307, headers: { "Cache-Control": "no-store" } });
  }
  return redirect(`${atBase(linkBase(context, movedTo))}${sitePath}`, {
    status: 301,
    headers: { "Cache-Control": "public, max-age=3600" },
  });
}
