// POST /api/sops/{sopId}/triggers/{triggerId}/rotate — a new secret, shown once; the old one stops at once.
// Operators with the admin role in the SOP's workspace (bearer key, or console session).
import { apiRoute } from "~/lib/routes.server";
import { requireSopAccess } from "~/modules/access/sop-member.server";

export const loader = apiRoute({
  caller: "operator",
  POST: async ({ request, context, params }) => {
    const { triggers, actor } = await requireSopAccess(request, context, params.sopId!, "admin");
    const issued = await triggers.rotate(actor, params.sopId!, params.triggerId!);
    return Response.json(issued, { headers: { "Cache-Control": "no-store" } });
  },
});
export const action = loader;
