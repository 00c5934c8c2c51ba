// POST /api/sops/{sopId}/triggers/{triggerId}/rotate — a new secret, shown once; the old one stops at once.
// Operators with the admin role in the SOP's workspace (bearer key, or console session).
import { apiRoute } from "~/lib/routes.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { requireSopAccess } from "~/modules/access/sop-member.server";

export const loader = apiRoute({
  caller: "operator",
  POST: async ({ request, context, params }) => {
    const access = await requireSopAccess(request, context, params.sopId!, "admin");
    const issued = await access.sops.rotateTrigger(params.sopId!, params.triggerId!);
    await recordWorkspaceEvent(context.services.db, access.workspaceId, {
      action: "sop.trigger.rotated",
      actorUserId: access.userId,
      detail: { sopId: params.sopId, triggerId: issued.triggerId },
      ip: context.request.ip,
    });
    return Response.json(issued, { headers: { "Cache-Control": "no-store" } });
  },
});
export const action = loader;
