import { z } from "zod";
import type { AppServices } from "~/lib/context";

/** The answer of GET /api/health (as a schema for the API reference): 200 when the database is ok, else 503. */
export const HealthSchema = z.object({
  status: z.enum(["ok", "error"]),
  service: z.literal("atrium"),
  version: z.string().describe("The server's version"),
  database: z.enum(["ok", "down"]),
});

export type Health = z.infer<typeof HealthSchema>;

/** The body the desktop shell recognises an Atrium server by (issue: desktop console). */
export async function checkHealth(services: AppServices): Promise<Health> {
  const database = await services.ping().then(
    () => "ok" as const,
    (error: unknown) => {
      services.logger.error({ err: error }, "health check: database unreachable");
      return "down" as const;
    },
  );
  return { status: database === "ok" ? "ok" : "error", service: "atrium", version: services.version, database };
}
