import { z } from "zod";
import type { AppServices } from "~/lib/context";

/**
 * The answer of GET /api/health (as a schema for the API reference). `ok` (200): the database answers and
 * can write. `degraded` (503): it answers but refuses writes (a full disk, a read-only volume), so nothing
 * can be saved — signing in included. `error` (503): it does not answer.
 */
export const HealthSchema = z.object({
  status: z.enum(["ok", "degraded", "error"]),
  service: z.literal("atrium"),
  version: z.string().describe("The server's version"),
  database: z.enum(["ok", "read-only", "down"]),
});

export type Health = z.infer<typeof HealthSchema>;

const STATUS = { ok: "ok", "read-only": "degraded", down: "error" } as const;

/** The body the desktop shell recognises an Atrium server by (issue: desktop console). */
export async function checkHealth(services: AppServices): Promise<Health> {
  const database = await services.ping().then(
    // Reads answer; whether writes do is a rate-limited write probe (app/lib/write-health.server.ts).
    async () => ((await services.writes.canWrite()) ? ("ok" as const) : ("read-only" as const)),
    (error: unknown) => {
      services.logger.error({ err: error }, "health check: database unreachable");
      return "down" as const;
    },
  );
  return { status: STATUS[database], service: "atrium", version: services.version, database };
}
