// GET /api/auth/me — the current user of an API key or of an OAuth access token with read_profile (spec: Token API).
import { z } from "zod";
import { apiRoute } from "~/lib/routes.server";
import { requireIntegrator } from "~/modules/access/integrator.server";

const CurrentUser = z.object({
  id: z.string(),
  email: z.string(),
  tier: z.enum(["free", "pro", "enterprise"]),
  created_at: z.string().describe("ISO 8601, UTC"),
});

export const loader = apiRoute({
  caller: "integrator",
  cors: true,
  GET: {
    summary: "The user the API key or access token acts for",
    description: "An OAuth access token needs the read_profile scope.",
    output: CurrentUser,
    handle: async ({ request, context }) => {
      const { user } = await requireIntegrator(request, context, "read_profile");
      const { id, email, tier, created_at } = user;
      return Response.json({ id, email, tier, created_at }, { headers: { "Cache-Control": "no-store" } });
    },
  },
});

export const action = loader;
