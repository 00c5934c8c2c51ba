// GET /api/auth/me — the current user of an API key or of an OAuth access token with read_profile (spec: Token API).
import { apiRoute } from "~/lib/http.server";
import { requireIntegrator } from "~/modules/auth/bearer.server";

export const loader = apiRoute({
  GET: async ({ request, context }) => {
    const { user } = await requireIntegrator(request, context, "read_profile");
    const { id, email, tier, created_at } = user;
    return Response.json({ id, email, tier, created_at }, { headers: { "Cache-Control": "no-store" } });
  },
});

export const action = loader;
