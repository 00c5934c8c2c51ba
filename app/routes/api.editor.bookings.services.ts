// GET  /api/editor/bookings/services — the workspace's services (not archived), who delivers them, and the booking
//      setup state (ADR 036).
// POST /api/editor/bookings/services { name, durationMinutes, hostIds, … } — a new service; 201.
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { ServiceInput } from "~/modules/scheduling/api";
import { PRIVATE } from "~/modules/scheduling/customer-api.server";
import { hostsOf, servicesOf } from "~/modules/scheduling/services.server";
import { schedulingSetup } from "~/modules/scheduling/setup.server";

export const loader = apiRoute({
  caller: "operator",
  // The console's own family, like the other /api/editor routes: not in the public API reference.
  internal: true,
  GET: async ({ request, context }) => {
    const { workspace } = await requireWorkspace(request, context, "viewer", "api");
    const { db } = context.services;
    const [services, hosts, setup] = await Promise.all([
      servicesOf(db, workspace.id).list(),
      hostsOf(db, workspace.id).list(),
      schedulingSetup(db, workspace.id),
    ]);
    return Response.json({ ready: setup.every((s) => s.done), setup, services, hosts }, { headers: PRIVATE });
  },
  POST: async ({ request, context }) => {
    const { workspace, session } = await requireWorkspace(request, context, "editor", "api");
    const input = await readJson(request, ServiceInput, context);
    const created = await servicesOf(context.services.db, workspace.id).create(session.user.id, input);
    return Response.json(created, { status: 201, headers: PRIVATE });
  },
});
export const action = loader;
