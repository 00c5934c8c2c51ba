/**
 * The editor API's side of discovery (`/api/editor/discovery/seo*`, ADR 021): the caller's workspace and role
 * from the operator session (ADR 005's row for /api/editor/*: viewers read, editors change) and the same
 * `discoveryOf` the console's pages call. Another workspace's page or redirect is a 404, as in the console.
 */
import type { AppLoadContext } from "@remix-run/node";
import { requireWorkspace } from "~/modules/access/operator.server";
import type { Role } from "~/modules/tenancy/roles";
import { discoveryOf } from "./discovery.server";
import type { DiscoverySettings } from "./settings.server";

export const NO_STORE = { "Cache-Control": "no-store" };

export async function editorDiscovery(request: Request, context: AppLoadContext, minimum: Role = "viewer") {
  const { workspace, session } = await requireWorkspace(request, context, minimum, "api");
  return {
    workspace,
    actor: { userId: session.user.id, ip: context.request.ip },
    discovery: discoveryOf(context.services.db, workspace.id),
  };
}

/** The site-wide settings as `/api/editor/discovery/seo` answers them (IndexNow is its own family's). */
export const siteSeoJson = (settings: DiscoverySettings) => ({ noindex: settings.noindex });

export const llmsJson = (settings: DiscoverySettings, slug: string) => ({
  enabled: settings.llms.enabled,
  summary: settings.llms.summary,
  path: `/${slug}/llms.txt`,
});
