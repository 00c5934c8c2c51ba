// GET /api/sops/{sopId}/runs/{runId} — a run's status, input and step results (bearer key of a workspace
// member, or console session).
import { apiRoute } from "~/lib/routes.server";
import { requireSopAccess } from "~/modules/access/sop-member.server";
import { RunViewSchema } from "~/modules/sops/sop-runs.server";

export const loader = apiRoute({
  caller: "operator",
  GET: {
    summary: "A run's status, input and step results",
    description: "Any member of the SOP's workspace; an OAuth access token needs the read_data scope.",
    output: RunViewSchema,
    errors: [404],
    handle: async ({ request, context, params }) => {
      const { runs } = await requireSopAccess(request, context, params.sopId!, "viewer");
      return Response.json(await runs.get(params.sopId!, params.runId!), { headers: { "Cache-Control": "no-store" } });
    },
  },
});
export const action = loader;
