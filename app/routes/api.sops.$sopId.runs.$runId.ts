// GET /api/sops/{sopId}/runs/{runId} — a run's status, input and step results (bearer key of a workspace
// member, or console session).
import { apiRoute } from "~/lib/http.server";
import { requireSopAccess } from "~/modules/sops/sop-access.server";

export const loader = apiRoute({
  GET: async ({ request, context, params }) => {
    const { runs } = await requireSopAccess(request, context, params.sopId!, "viewer");
    return Response.json(await runs.get(params.sopId!, params.runId!), { headers: { "Cache-Control": "no-store" } });
  },
});
export const action = loader;
