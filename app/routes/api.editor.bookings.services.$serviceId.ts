// GET /api/editor/bookings/services/{id} — one service; PUT — replaces its settings (ADR 036).
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { ServiceInput } from "~/modules/scheduling/api";
import { PRIVATE } from "~/modules/scheduling/customer-api.server";
import { servicesOf } from "~/modules/scheduling/services.server";

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  GET: async ({ request, params, context }) => {
    const { workspace } = await requireWorkspace(request, context, "viewer", "api");
    const service = await servicesOf(context.services.db, workspace.id).get(params.serviceId ?? "");
    return Response.json(service, { headers: PRIVATE });
  },
  PUT: async ({ request, params, context }) => {
    const { workspace, session } = await requireWorkspace(request, context, "editor", "api");
    const services = servicesOf(context.services.db, workspace.id);
    await services.get(params.serviceId ?? "");
    const input = await readJson(request, ServiceInput, context);
    return Response.json(await services.update(session.user.id, params.serviceId ?? "", input), { headers: PRIVATE });
  },
});
export const action = loader;
