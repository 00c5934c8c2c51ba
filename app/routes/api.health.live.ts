// GET /api/health/live — liveness: the process answers; touches nothing else (also the bench's bare route).
import { apiRoute } from "~/lib/http.server";

export const loader = apiRoute({
  GET: () => Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } }),
});

export const action = loader;
