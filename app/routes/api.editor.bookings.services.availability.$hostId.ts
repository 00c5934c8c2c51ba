// GET /api/editor/bookings/services/availability/{id} — one staff member's or resource's hours; PUT replaces
// them (ADR 036). Bookings already made stay; only new times follow the new hours.
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { HostInput } from "~/modules/scheduling/api";
import { PRIVATE } from "~/modules/scheduling/customer-api.server";
import { hostsOf } from "~/modules/scheduling/services.server";

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  GET: async ({ request, params, context }) => {
    const { workspace } = await requireWorkspace(request, context, "viewer", "api");
    return Response.json(await hostsOf(context.services.db, workspace.id).get(params.hostId ?? ""), {
      headers: PRIVATE,
    });
  },
  PUT: async ({ request, params, context }) => {
    const { workspace, session } = await requireWorkspace(request, context, "editor", "api");
    const hosts = hostsOf(context.services.db, workspace.id);
    await hosts.get(params.hostId ?? "");
    const input = await readJson(request, HostInput, context);
    return Response.json(await hosts.update(session.user.id, params.hostId ?? "", input), { headers: PRIVATE });
  },
});
export const action = loader;
