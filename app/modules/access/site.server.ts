/**
 * Site resolution, the first step for public callers (ADR 005) and, with the customers issue, of the customer
 * guard beside it: which workspace's site a request is for. Public pages name it in the path (`/{site}`); the customer API
 * names it with the `X-Atrium-Site` header or the `site` query parameter, never in the body. A request that came
 * in on a site's verified custom domain (server.ts set `siteHost`, ADR 025) is for that site, whatever a header
 * or the query says: a page on one site's domain cannot post into another site.
 *
 * A site whose owner is suspended is refused here, not flagged for each caller to remember: the resolvers
 * throw the spec's 403 (`Forbidden` / `Insufficient permissions`), saying nothing more about the account
 * (ADR 003). Only the `$site` page asks, by name, for the neutral 503 page instead (`resolveSitePage`).
 *
 * A site's former address (its workspace changed slug within 90 days, ADR 019) is not a site here: the API
 * resolvers answer null for it, and the `$site` layout redirects it (`resolveSitePage`'s `movedTo`).
 */
import type { Db } from "~db/client";
import type { RequestScope } from "~/lib/context";
import { forbidden } from "~/lib/errors";
import { findWorkspaceBySlug, movedSiteSlug, type Workspace } from "~/modules/tenancy/workspaces.server";
import { SLUG_PATTERN } from "~/modules/tenancy/slug";

export type SiteSource = "path" | "header" | "query" | "host";

/** A site that may be served: its owner is active. */
export interface ResolvedSite {
  workspace: Workspace;
  via: SiteSource;
}

/** What `resolveSitePage` answers for a suspended owner's site: no workspace to render by mistake. */
export interface UnavailableSite {
  unavailable: true;
}

export const SITE_HEADER = "x-atrium-site";

async function lookUp(db: Db, slug: string | undefined) {
  if (!slug || !SLUG_PATTERN.test(slug)) return null;
  return (await findWorkspaceBySlug(db, slug)) ?? null;
}

/** The site named `slug`, or null; the spec's 403 while its owner is suspended. */
export async function resolveSiteBySlug(
  db: Db,
  slug: string | undefined,
  via: SiteSource = "path",
): Promise<ResolvedSite | null> {
  const found = await lookUp(db, slug);
  if (!found) return null;
  const { ownerActive, ...workspace } = found;
  if (!ownerActive) throw forbidden();
  return { workspace, via };
}

/** What `resolveSitePage` answers for a former address of a site (within its 90 days): where it is now. */
export interface MovedSite {
  movedTo: string;
}

/**
 * For the `$site` layout only: a suspended owner's site is `{ unavailable: true }`, which its loader answers
 * with the neutral 503 page a visitor, who has no credential to fix, should see; a site's former address is
 * `{ movedTo }`, which the loader answers with a 301 to the same path under the current address.
 */
export async function resolveSitePage(
  db: Db,
  slug: string | undefined,
): Promise<ResolvedSite | UnavailableSite | MovedSite | null> {
  const found = await lookUp(db, slug);
  if (!found) {
    const movedTo = slug && SLUG_PATTERN.test(slug) ? await movedSiteSlug(db, slug) : undefined;
    return movedTo ? { movedTo } : null;
  }
  const { ownerActive, ...workspace } = found;
  return ownerActive ? { workspace, via: "path" } : { unavailable: true };
}

/**
 * For /api/* routes: the custom domain the request came in on (`siteHost` of the request scope), else the
 * header, then the query parameter; the spec's 403 while the site's owner is suspended.
 */
export function resolveSiteOfApiRequest(
  db: Db,
  request: Request,
  siteHost?: RequestScope["siteHost"],
): Promise<ResolvedSite | null> {
  if (siteHost) return resolveSiteBySlug(db, siteHost.slug, "host");
  const header = request.headers.get(SITE_HEADER);
  if (header) return resolveSiteBySlug(db, header.trim(), "header");
  const query = new URL(request.url).searchParams.get("site");
  return query ? resolveSiteBySlug(db, query, "query") : Promise.resolve(null);
}

/**
 * For the pages under `/{site}` that answer for the site itself (sign-in, sign-out, unlock, the portal): the
 * site named by the path. None: a bare 404, which the `$site` layout's own loader turns into the right answer
 * (its 404 page, the 503 of a suspended owner's site, the 301 of a former address).
 */
export async function siteOfPath(db: Db, slug: string | undefined): Promise<ResolvedSite> {
  const site = await resolveSiteBySlug(db, slug);
  if (!site) throw new Response(null, { status: 404, statusText: "Not Found" });
  return site;
}
