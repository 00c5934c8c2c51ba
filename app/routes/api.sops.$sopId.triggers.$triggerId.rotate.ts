// POST /api/sops/{sopId}/triggers/{triggerId}/rotate — a new secret, shown once; the old one stops at once.
// Operators with the admin role in the SOP's workspace (bearer key, or console session).
import { apiRoute } from "~/lib/http.server";
import { requireSopAccess } from "~/modules/sops/sop-access.server";
import { triggersOf } from "~/modules/sops/sop-triggers.server";

export const loader = apiRoute({
  POST: async ({ request, context, params }) => {
    const access = await requireSopAccess(request, context, params.sopId!, "admin");
    const { db, secrets } = context.services;
    const actor = { userId: access.userId, ip: context.request.ip };
    const issued = await triggersOf(db, access.workspaceId, secrets).rotate(actor, params.sopId!, params.triggerId!);
    return Response.json(issued, { headers: { "Cache-Control": "no-store" } });
  },
});
export const action = loader;
