import type { AppServices } from "~/lib/context";

export interface Health {
  status: "ok" | "error";
  service: "atrium";
  version: string;
  database: "ok" | "down";
}

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
