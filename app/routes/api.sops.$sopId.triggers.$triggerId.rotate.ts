// POST /api/sops/{sopId}/triggers/{triggerId}/rotate — a new secret, shown once; the old one stops at once.
// Operators with the admin role in the SOP's workspace (bearer key, or console session); 409 for a rotation
// that another one, under way at the same time, beat.
import { apiRoute } from "~/lib/routes.server";
import { requireSopAccess } from "~/modules/access/sop-member.server";
import { IssuedSecretSchema } from "~/modules/sops/sop-triggers.server";

export const loader = apiRoute({
  caller: "operator",
  POST: {
    summary: "Rotate the trigger's secret: the new one is shown once, the old one stops at once",
    description:
      "The admin role in the SOP's workspace, with an API key or the console session. Of rotations under way " +
      "at once one wins; the others answer 409.",
    output: IssuedSecretSchema,
    errors: [404, 409],
    handle: async ({ request, context, params }) => {
      const { triggers, actor } = await requireSopAccess(request, context, params.sopId!, "admin");
      const issued = await triggers.rotate(actor, params.sopId!, params.triggerId!);
      return Response.json(issued, { headers: { "Cache-Control": "no-store" } });
    },
  },
});
export const action = loader;
