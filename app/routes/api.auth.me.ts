// GET /api/auth/me — the current user of an API key or of an OAuth access token with read_profile (spec: Token API).
import { apiRoute } from "~/lib/http.server";
import { requireIntegrator, requireScope } from "~/modules/auth/bearer.server";

export const loader = apiRoute({
  GET: async ({ request, context }) => {
    const integrator = await requireIntegrator(request, context);
    requireScope(integrator, "read_profile");
    const { user } = integrator;
    const { id, email, tier, created_at } = user;
    return Response.json({ id, email, tier, created_at }, { headers: { "Cache-Control": "no-store" } });
  },
});

export const action = loader;
