// GET /api/chat/v5/{id}/stream — where AI SDK's `resumeStream` reconnects to an answer still being written. Answers
// are not resumable here (ADR 037): 204 tells the client there is no stream to resume, as the protocol defines.
import { apiRoute } from "~/lib/routes.server";
import { requireIntegrator } from "~/modules/access/integrator.server";

export const loader = apiRoute({
  caller: "integrator",
  cors: true,
  GET: {
    summary: "Resume an answer's stream (none is resumable: 204)",
    handle: async ({ request, context }) => {
      await requireIntegrator(request, context, "read_data");
      return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
    },
  },
});

export const action = loader;
