// GET  /api/editor/bookings/services/availability — who can be booked (staff and resources) with their weekly
//      hours, zone and dated exceptions (ADR 036).
// POST /api/editor/bookings/services/availability { name, timeZone, weekly, overrides } — a new one; 201.
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { HostInput } from "~/modules/scheduling/api";
import { PRIVATE } from "~/modules/scheduling/customer-api.server";
import { hostsOf } from "~/modules/scheduling/services.server";

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  GET: async ({ request, context }) => {
    const { workspace } = await requireWorkspace(request, context, "viewer", "api");
    return Response.json({ hosts: await hostsOf(context.services.db, workspace.id).list() }, { headers: PRIVATE });
  },
  POST: async ({ request, context }) => {
    const { workspace, session } = await requireWorkspace(request, context, "editor", "api");
    const input = await readJson(request, HostInput, context);
    const created = await hostsOf(context.services.db, workspace.id).create(session.user.id, input);
    return Response.json(created, { status: 201, headers: PRIVATE });
  },
});
export const action = loader;
