// POST /api/sops/{id or slug}/trigger — HMAC-signed (X-SOP-Timestamp, X-SOP-Signature); 202 with the queued run.
import { apiRoute } from "~/lib/routes.server";
import { requireTrigger } from "~/modules/access/trigger.server";
import { acceptTrigger } from "~/modules/sops/trigger.server";

export const loader = apiRoute({
  caller: "trigger",
  POST: async ({ request, context, params }) => {
    const verified = await requireTrigger(request, context, params.ref!);
    return Response.json(await acceptTrigger(context, verified), {
      status: 202,
      headers: { "Cache-Control": "no-store" },
    });
  },
});
export const action = loader;
