// GET /api/health/live — liveness: the process answers; touches nothing else (also the bench's bare route).
import { z } from "zod";
import { apiRoute } from "~/lib/routes.server";

export const loader = apiRoute({
  caller: "public",
  GET: {
    summary: "Liveness: the process answers",
    output: z.object({ status: z.literal("ok") }),
    handle: () => Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } }),
  },
});

export const action = loader;
