/**
 * Is this address an Atrium server? It must answer GET /api/health with the foundation's body
 * (`{ status, service: "atrium", version, database }`); a 503 with that body is still Atrium, only unwell.
 * The check runs in the main process, so the picker page itself never talks to the network.
 */
import { z } from "zod";
import { HEALTH_PATH, parseDeploymentUrl } from "../shared/deployment-url";
import type { Outcome, ProbeSuccess } from "../shared/ipc";

const HealthBody = z.object({
  service: z.literal("atrium"),
  // "degraded": it answers but its database cannot write (a full disk); Atrium all the same, only unwell.
  status: z.enum(["ok", "degraded", "error"]),
  version: z.string().max(100),
});

export const PROBE_TIMEOUT_MS = 8_000;

export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export async function probeDeployment(
  input: string,
  fetchImpl: Fetch,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<Outcome<ProbeSuccess>> {
  const address = parseDeploymentUrl(input);
  if (!address.ok) return address;
  const { origin } = address;
  let response: Response;
  try {
    response = await fetchImpl(`${origin}${HEALTH_PATH}`, {
      headers: { accept: "application/json" },
      // A redirect would mean the operator typed an address that is not the deployment's own.
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    // Electron's net.fetch does not hand back a manual redirect: it cancels the request with this message.
    if (error instanceof Error && /redirect was cancelled/i.test(error.message)) {
      return { ok: false, error: `${origin} answered with a redirect; use the deployment's own address.` };
    }
    return { ok: false, error: `Could not reach ${origin}: ${reason(error)}` };
  }
  if (response.status >= 300 && response.status < 400) {
    const location = response.headers.get("location");
    const target = location ? safeOrigin(location, origin) : null;
    return {
      ok: false,
      error: target
        ? `${origin} redirects to ${target}. Use that address instead.`
        : `${origin} answered with a redirect; use the deployment's own address.`,
    };
  }
  const body: unknown = await response.json().catch(() => null);
  const health = HealthBody.safeParse(body);
  if (!health.success) {
    return {
      ok: false,
      error: `${origin} answered (HTTP ${response.status}), but not as an Atrium server: ${HEALTH_PATH} did not return Atrium's health report.`,
    };
  }
  return { ok: true, value: { origin, version: health.data.version, healthy: health.data.status === "ok" } };
}

function safeOrigin(location: string, base: string): string | null {
  try {
    return new URL(location, base).origin;
  } catch {
    return null;
  }
}

function reason(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === "TimeoutError") return "no answer within the time allowed.";
    const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? error.message;
  }
  return String(error);
}
