// POST /api/sops/{id or slug}/trigger — HMAC-signed (X-SOP-Timestamp, X-SOP-Signature); 202 with the queued run.
import { apiRoute } from "~/lib/http.server";
import { acceptTrigger } from "~/modules/sops/trigger.server";

export const loader = apiRoute({
  POST: async ({ request, context, params }) =>
    Response.json(await acceptTrigger(request, context, params.ref!), {
      status: 202,
      headers: { "Cache-Control": "no-store" },
    }),
});
export const action = loader;
