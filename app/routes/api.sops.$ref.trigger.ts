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
      "Each signature queues one run: an identical copy of an accepted request answers 202 with the same run and " +
      "Idempotent-Replayed: true; a timestamp outside the window is a 401. A 429 means the trigger's rate limit " +
      "(X-RateLimit-* headers) or the workspace's queue of runs is full: retry the same request after Retry-After, " +
      "or sign it afresh once its timestamp is too old.",
    input: TriggerBody,
    output: AcceptedTriggerSchema,
    status: 202,
    errors: [403, 409],
    handle: async ({ request, context, params }) => {
      const verified = await requireTrigger(request, context, params.ref!);
      // The signed bytes as JSON: a malformed body is refused before the SOP's state is looked at.
      const parsed = parseJsonBytes(verified.body, verified.contentType);
      const { accepted, replayed } = await acceptTrigger(context, verified, parsed);
      const headers: Record<string, string> = { "Cache-Control": "no-store" };
      if (replayed) headers["Idempotent-Replayed"] = "true";
      return Response.json(accepted, { status: 202, headers });
    },
  },
});
export const action = loader;
