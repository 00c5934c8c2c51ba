/**
 * `atrium://open?deployment=<name>&path=/shop/orders` opens a console page of a saved deployment. A link can
 * come from anywhere (a chat message, a web page), so it can only choose among deployments the operator
 * saved, and only a path on that deployment: never another origin, never a script.
 */
export const DEEP_LINK_SCHEME = "atrium";

export type DeepLink = { deployment: string; path: string };
export type DeepLinkResult = { ok: true; link: DeepLink } | { ok: false; error: string };

export function parseDeepLink(input: string): DeepLinkResult {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, error: "That link is not an address." };
  }
  if (url.protocol !== `${DEEP_LINK_SCHEME}:`) return { ok: false, error: "Not an atrium:// link." };
  // atrium://open?…, atrium://open/?… and atrium:open?… all arrive, depending on who built the link.
  const action = `${url.hostname}${url.pathname}`.replace(/^\/+|\/+$/g, "");
  if (action !== "open") {
    return { ok: false, error: `Unknown atrium:// action "${action}"; only atrium://open is supported.` };
  }
  const deployment = url.searchParams.get("deployment")?.trim();
  if (!deployment) return { ok: false, error: "The link does not name a deployment." };
  const path = url.searchParams.get("path") ?? "/";
  if (!isConsolePath(path)) return { ok: false, error: `"${path}" is not a page of a deployment.` };
  return { ok: true, link: { deployment, path } };
}

/** A path on the deployment itself: rooted, no scheme or host, no backslashes or control characters. */
export function isConsolePath(path: string): boolean {
  if (!path.startsWith("/") || path.startsWith("//")) return false;
  if (/[\\\p{Cc}]/u.test(path)) return false;
  const probe = new URL(path, "https://deployment.invalid");
  return probe.origin === "https://deployment.invalid";
}

/** The page a deep link opens, resolved against the deployment and checked again after resolution. */
export function deepLinkTarget(origin: string, path: string): string | null {
  if (!isConsolePath(path)) return null;
  const target = new URL(path, origin);
  return target.origin === origin ? target.href : null;
}

/** Windows and Linux hand a clicked link to the app as a command-line argument (first or second instance). */
export function deepLinkFromArgv(argv: readonly string[]): string | undefined {
  return argv.find((arg) => arg.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}:`));
}
