/**
 * The editor API's side of pages (`/api/editor/pages*`, ADR 017): the caller's workspace and role from the
 * operator session (ADR 005's row for /api/editor/*), the same `pagesOf` the console uses, and the JSON a
 * page is answered with. Another workspace's page is a 404, as in the console.
 */
import { slugBase } from "~/lib/link-base";
import type { AppLoadContext } from "@remix-run/node";
import { requireWorkspace } from "~/modules/access/operator.server";
import type { Role } from "~/modules/tenancy/roles";
import { navigationOf } from "./navigation.server";
import { pagePath, pagesOf, type PageView } from "./pages.server";

export const NO_STORE = { "Cache-Control": "no-store" };

/** The operator's selected workspace at `minimum` role, with the repositories the routes need. */
export async function editorPages(request: Request, context: AppLoadContext, minimum: Role = "viewer") {
  const { workspace, session } = await requireWorkspace(request, context, minimum, "api");
  const { db } = context.services;
  return {
    workspace,
    actor: { userId: session.user.id, ip: context.request.ip },
    pages: pagesOf(db, workspace.id),
    navigation: navigationOf(db, workspace.id),
    json: (view: PageView) => pageJson(workspace.slug, view),
  };
}

/** A page as the API answers it: its state, its draft and published copies, and its public address. */
export function pageJson(siteSlug: string, view: PageView) {
  return { ...view, path: pagePath(slugBase(siteSlug), view) };
}
