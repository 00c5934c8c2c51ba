// GET /api/health — readiness: the service answers and its database does (503 when it does not).
import { apiRoute } from "~/lib/routes.server";
import { HealthSchema, checkHealth } from "~/modules/health/health.server";

export const loader = apiRoute({
  caller: "public",
  GET: {
    summary: "Readiness: the service and its database answer",
    description: '503 with the same body (`database: "down"`) when the database does not answer.',
    output: HealthSchema,
    handle: async ({ context }) => {
      const health = await checkHealth(context.services);
      return Response.json(health, {
        status: health.database === "ok" ? 200 : 503,
        headers: { "Cache-Control": "no-store" },
      });
    },
  },
});

export const action = loader;
