/**
 * What counts as a deployment address. Plain http is allowed only for this machine: anywhere else a network
 * observer could read the operator's session cookie, so the picker refuses it rather than warning about it.
 */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

export type DeploymentUrlResult = { ok: true; origin: string } | { ok: false; error: string };

export function parseDeploymentUrl(input: string): DeploymentUrlResult {
  const text = input.trim();
  if (text === "") return { ok: false, error: "Enter the address of an Atrium deployment." };
  let url: URL;
  try {
    // "atrium.example.com" or "localhost:3000" without a scheme: https, except on this machine.
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text) && LOOPBACK_HOSTS.has(url.hostname)) url.protocol = "http:";
  } catch {
    return { ok: false, error: `"${text}" is not a web address.` };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { ok: false, error: "Use an https:// address (or http:// for this machine)." };
  }
  if (url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname)) {
    return {
      ok: false,
      error: "Plain http is only allowed for localhost, 127.0.0.1 and ::1. Use the deployment's https:// address.",
    };
  }
  if (url.username !== "" || url.password !== "") {
    return { ok: false, error: "Leave the user name and password out of the address; you sign in on the page." };
  }
  // The console lives at the root of a deployment, so a pasted console link is saved as its origin.
  return { ok: true, origin: url.origin };
}

/** The deployment's health probe: GET /api/health answers this body (app/modules/health/health.server.ts). */
export const HEALTH_PATH = "/api/health";
