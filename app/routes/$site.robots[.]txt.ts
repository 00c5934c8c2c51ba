// GET /{site}/robots.txt — crawler rules for the site (ADR 021): the site allowed, its portal, cart, checkout and
// account paths disallowed, its sitemap named at the final address; everything disallowed while the site asks
// not to be indexed or is protected by a password. The rules are under the link base of the host that serves
// the file (a robots.txt governs its own host): at the root on the site's domain, `/{slug}` on the deployment's.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { page } from "~/lib/routes.server";
import { robotsTxt } from "~/modules/discovery/public.server";
import { technicalSite } from "~/modules/discovery/technical.server";
import { siteUrl } from "~/modules/sites/address.server";
import { TECHNICAL_FILE_KINDS } from "~/modules/sites/page-cache";

export const loader = page("public", async ({ request, params, context }: LoaderFunctionArgs) => {
  const site = await technicalSite(request, context, params.site);
  const closed = site.settings.noindex || site.visibility === "protected";
  return new Response(robotsTxt(site.base, closed, siteUrl(site.address, "/sitemap.xml")), {
    headers: { "Content-Type": "text/plain; charset=utf-8", ...site.cacheHeaders(TECHNICAL_FILE_KINDS.robots) },
  });
});
