/**
 * The customer API's guard (ADR 005's `/api/v1/*` row): the site a request is for, from the `X-Atrium-Site`
 * header or the `site` query parameter — never the body; on a site's custom domain, the host (ADR 025). A request naming no site, or an unknown one, is a 404; a suspended owner's site the spec's 403.
 * Routes whose records are private add the customer session or manage token on top, with the customers issue;
 * the contact form needs neither.
 */
import type { AppLoadContext } from "@remix-run/node";
import { defineGuard } from "~/lib/callers.server";
import { notFound } from "~/lib/errors";
import { resolveSiteOfApiRequest, type ResolvedSite } from "./site.server";

export const requireSite = defineGuard(
  "customer",
  async function requireSite(request: Request, context: AppLoadContext): Promise<ResolvedSite> {
    const site = await resolveSiteOfApiRequest(context.services.db, request, context.request.siteHost);
    if (!site) {
      context.request.log.failure = "missing-data";
      throw notFound("No site at that address: name it with the X-Atrium-Site header or the site query parameter");
    }
    return site;
  },
);
