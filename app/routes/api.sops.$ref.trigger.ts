// POST /api/sops/{id or slug}/trigger — HMAC-signed (X-SOP-Timestamp, X-SOP-Signature); 202 with the queued run.
import { parseJsonBytes } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { requireTrigger } from "~/modules/access/trigger.server";
import { AcceptedTriggerSchema, TriggerBody, acceptTrigger } from "~/modules/sops/trigger.server";

export const loader = apiRoute({
  caller: "trigger",
  POST: {
    summary: "Start a run of the SOP (id or slug), signed with its trigger's secret",
    description:
      "Each signature is accepted once; a replay or a timestamp outside the window is a 401. A 429 means the " +
      "trigger's rate limit (X-RateLimit-* headers) or the workspace's queue of runs is full: retry the same " +
      "request after Retry-After, or sign it afresh once its timestamp is too old.",
    input: TriggerBody,
    output: AcceptedTriggerSchema,
    status: 202,
    errors: [409],
    handle: async ({ request, context, params }) => {
      const verified = await requireTrigger(request, context, params.ref!);
      // The signed bytes as JSON: a malformed body is refused before the SOP's state is looked at.
      const parsed = parseJsonBytes(verified.body, verified.contentType);
      return Response.json(await acceptTrigger(context, verified, parsed), {
        status: 202,
        headers: { "Cache-Control": "no-store" },
      });
    },
  },
});
export const action = loader;
