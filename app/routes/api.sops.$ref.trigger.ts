// POST /api/sops/{id or slug}/trigger — HMAC-signed (X-SOP-Timestamp, X-SOP-Signature); 202 with the queued run.
import { apiRoute } from "~/lib/routes.server";
import { defineGuard } from "~/lib/callers.server";
import { acceptTrigger } from "~/modules/sops/trigger.server";

// acceptTrigger checks the HMAC signature before it queues anything.
const receiveTrigger = defineGuard("trigger", acceptTrigger);

export const loader = apiRoute({
  caller: "trigger",
  POST: async ({ request, context, params }) =>
    Response.json(await receiveTrigger(request, context, params.ref!), {
      status: 202,
      headers: { "Cache-Control": "no-store" },
    }),
});
export const action = loader;
