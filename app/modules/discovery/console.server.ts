/**
 * What the Discovery console pages share: the operator's workspace and role, the repository, and the site's
 * final address for previews (the absolute URLs search engines will show).
 */
import type { AppLoadContext } from "@remix-run/node";
import { requireWorkspace } from "~/modules/access/operator.server";
import { resolveOrigin } from "~/modules/hosts/hosts.server";
import { siteAddressOf, siteUrl } from "~/modules/sites/address.server";
import { roleAtLeast, type Role } from "~/modules/tenancy/roles";
import { discoveryOf } from "./discovery.server";

export async function consoleDiscovery(request: Request, context: AppLoadContext, minimum: Role = "viewer") {
  const { workspace, role, session } = await requireWorkspace(request, context, minimum);
  const resolved = await resolveOrigin(request, context);
  const address = await siteAddressOf(context.services, workspace, resolved);
  return {
    workspace,
    canEdit: roleAtLeast(role, "editor"),
    actor: { userId: session.user.id, ip: context.request.ip },
    discovery: discoveryOf(context.services.db, workspace.id),
    address: address!,
    /** The absolute URL of a site path at the final address. */
    url: (sitePath = "") => siteUrl(address!, sitePath),
  };
}

/** A checkbox of a posted form. */
export const checked = (value: string | undefined) => value === "on" || value === "true" || value === "1";
