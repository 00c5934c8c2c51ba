// GET /api/health — readiness: the service answers, and its database answers and can write (503 otherwise).
import { apiRoute } from "~/lib/routes.server";
import { HealthSchema, checkHealth } from "~/modules/health/health.server";

export const loader = apiRoute({
  caller: "public",
  GET: {
    summary: "Readiness: the service and its database answer, and the database can write",
    description:
      '503 with the same body when the database does not answer (`status: "error"`, `database: "down"`) or ' +
      'refuses writes, e.g. on a full disk (`status: "degraded"`, `database: "read-only"`).',
    output: HealthSchema,
    handle: async ({ context }) => {
      const health = await checkHealth(context.services);
      return Response.json(health, {
        status: health.status === "ok" ? 200 : 503,
        headers: { "Cache-Control": "no-store" },
      });
    },
  },
});

export const action = loader;
