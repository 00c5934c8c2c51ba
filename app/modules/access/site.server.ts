/**
 * Site resolution, the first step for public callers (ADR 005) and, with the customers issue, of the customer
 * guard beside it: which workspace's site a request is for. Public pages name it in the path (`/{site}`); the customer API
 * names it with the `X-Atrium-Site` header or the `site` query parameter, never in the body. Verified
 * custom domains come first once the domains issue adds them.
 */
import type { Db } from "~db/client";
import { findWorkspaceBySlug, type Workspace } from "~/modules/tenancy/workspaces.server";
import { SLUG_PATTERN } from "~/modules/tenancy/slug";

export type SiteSource = "path" | "header" | "query";

export interface ResolvedSite {
  workspace: Workspace;
  via: SiteSource;
  /**
   * False while the workspace's owner is suspended: its pages answer the neutral "unavailable" page (503) and
   * its customer API the spec's 403, saying nothing about the account (ADR 003).
   */
  available: boolean;
}

export const SITE_HEADER = "x-atrium-site";

export async function resolveSiteBySlug(db: Db, slug: string | undefined, via: SiteSource = "path") {
  if (!slug || !SLUG_PATTERN.test(slug)) return null;
  const found = await findWorkspaceBySlug(db, slug);
  if (!found) return null;
  const { ownerActive, ...workspace } = found;
  return { workspace, via, available: ownerActive } satisfies ResolvedSite;
}

/** For /api/* routes: the header, then the query parameter. */
export function resolveSiteOfApiRequest(db: Db, request: Request): Promise<ResolvedSite | null> {
  const header = request.headers.get(SITE_HEADER);
  if (header) return resolveSiteBySlug(db, header.trim(), "header");
  const query = new URL(request.url).searchParams.get("site");
  return query ? resolveSiteBySlug(db, query, "query") : Promise.resolve(null);
}
