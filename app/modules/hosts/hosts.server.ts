/**
 * The deployment's hosts (issue 12, item 3; ADR 006): which host names this deployment answers for, and the
 * origin every absolute URL it builds starts with. A URL taken from the request's `Host` is whatever the client
 * typed: `Host: evil.example` became the OAuth issuer, a publicly cached one. So server.ts refuses a request for
 * a host not served here (421) before any route runs, and links come from configuration, never from a header.
 *
 * Served: the configured public origin (`PUBLIC_URL`, the spec's `{base_url}`; not named BASE_URL, which Vite
 * owns and Vitest copies into process.env as "/"), the OAuth provider's (`AUTH_URL`,
 * `{auth_url}`), and loopback names and the listening address, which a remote client cannot make a browser send
 * for a name of its own (no DNS rebinding) and which health checks, tests and `npm start` use. With `PUBLIC_URL`
 * set, a request on loopback still links to `PUBLIC_URL`; without it (development), the loopback origin the
 * request used is the only one there is.
 */
import type { AppLoadContext } from "@remix-run/node";
import type { Env } from "~/lib/env.server";
import { HttpError } from "~/lib/http.server";
import { memoized } from "~/lib/memo";

/** A name this deployment serves, and the origin links use on a request for it. */
export interface ServedHost {
  hostname: string;
  origin: string;
}

/** The origin for a request's absolute URLs, and whether it came from the request itself (not shareable). */
export interface ResolvedOrigin {
  origin: string;
  fromRequest: boolean;
}

export interface DeploymentHosts {
  /** Whether this deployment answers for `host` (a `Host` value, port or not). */
  serves(host: string): Promise<boolean>;
  /**
   * The origin for absolute URLs in the answer to a request sent to `requestOrigin` (scheme, host, port), or
   * null when this deployment does not serve that host.
   */
  originFor(requestOrigin: string): Promise<ResolvedOrigin | null>;
}

/** `Host` as compared: the lower-case name (IPv6 in brackets), without port or trailing dot; null if none. */
export const hostnameOf: (host: string) => string | null = memoized((host) => {
  // WHATWG URL parsing is the rule browsers apply; remembered, since every request asks it of its Host header.
  try {
    const { hostname } = new URL(`http://${host}/`);
    return hostname.replace(/\.$/, "") || null;
  } catch {
    return null;
  }
});

/** localhost and its subdomains (RFC 6761 §6.3), 127.0.0.0/8, ::1. */
export function isLoopback(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    hostname === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

type HostsEnv = Pick<Env, "PUBLIC_URL" | "AUTH_URL" | "HOST">;

/**
 * The configured names this deployment serves besides loopback, each with its origin. `deploymentHosts` adds
 * the verified custom domains to them (issue 14, ADR 025), each as `https://{domain}`: together, the one list
 * of hosts this deployment answers for.
 */
export function configuredHosts(env: HostsEnv): ServedHost[] {
  const hosts: ServedHost[] = [];
  for (const value of [env.PUBLIC_URL, env.AUTH_URL]) {
    if (!value) continue;
    const url = new URL(value);
    const hostname = hostnameOf(url.host);
    if (hostname && !hosts.some((h) => h.hostname === hostname)) hosts.push({ hostname, origin: url.origin });
  }
  return hosts;
}

/** The address the server listens on, when it names one (not a wildcard): requests for it reach only us. */
function listeningHostname(env: HostsEnv): string | null {
  if (["0.0.0.0", "::", ""].includes(env.HOST)) return null;
  return hostnameOf(env.HOST.includes(":") && !env.HOST.startsWith("[") ? `[${env.HOST}]` : env.HOST);
}

/**
 * Whether `hostname` is a verified custom domain of one of the sites (the domains registry, a memory read). A
 * function rather than the registry itself: the hosts module is built before the domains module.
 */
export type CustomDomainLookup = (hostname: string) => Promise<boolean>;

export function deploymentHosts(
  env: HostsEnv,
  served?: () => Promise<ServedHost[]> | ServedHost[],
  customDomain: CustomDomainLookup = async () => false,
): DeploymentHosts {
  // Every request asks (server.ts refuses unserved hosts): the configured list is parsed once.
  const fixed = served ? undefined : configuredHosts(env);
  served ??= () => fixed!;
  const listening = listeningHostname(env);
  const local = (hostname: string) => isLoopback(hostname) || hostname === listening;
  const lookup = async (hostname: string): Promise<ServedHost | undefined> => {
    const known = (await served()).find((h) => h.hostname === hostname);
    if (known) return known;
    // A site's own domain: TLS ends at the proxy in front, whose certificate it holds (README, Caddy).
    return (await customDomain(hostname)) ? { hostname, origin: `https://${hostname}` } : undefined;
  };

  return {
    async serves(host) {
      const hostname = hostnameOf(host);
      return hostname !== null && (local(hostname) || (await lookup(hostname)) !== undefined);
    },
    async originFor(requestOrigin) {
      const url = new URL(requestOrigin);
      const hostname = hostnameOf(url.host);
      if (hostname === null) return null;
      const known = await lookup(hostname);
      if (known) return { origin: known.origin, fromRequest: false };
      if (!local(hostname)) return null;
      return env.PUBLIC_URL
        ? { origin: env.PUBLIC_URL, fromRequest: false }
        : { origin: url.origin, fromRequest: true };
    },
  };
}

/**
 * The origin for absolute URLs in the answer to `request`: console copy examples, the trigger URL, the API
 * reference's server, the OAuth issuer's fallback, and later links in e-mails and sitemaps. Every such URL
 * goes through here.
 */
export async function resolveOrigin(request: Request, context: AppLoadContext): Promise<ResolvedOrigin> {
  // A request on a site's custom domain (ADR 025) still links to the deployment for what is the deployment's:
  // the inbox link of a contact notification, a site's `/{slug}` address. Only the configured origin names it;
  // without one (development) the request's own is all there is.
  const configured = context.services.env.PUBLIC_URL;
  if (context.request.siteHost && configured) return { origin: configured, fromRequest: false };
  const resolved = await context.services.hosts.originFor(new URL(request.url).origin);
  // server.ts refused such a request already; a route reached another way must not build a link from it either.
  if (resolved === null) throw new HttpError(421, "This server does not serve that host name");
  return resolved;
}

export async function publicOrigin(request: Request, context: AppLoadContext): Promise<string> {
  return (await resolveOrigin(request, context)).origin;
}

/**
 * Cache-Control for a response that names an origin: `shared` when the origin is configuration, the same
 * for every client; `no-store` when it is the request's own (development), so no cache keeps one host's
 * answer for another.
 */
export function cacheControlFor(resolved: ResolvedOrigin, shared: string): string {
  return resolved.fromRequest ? "no-store" : shared;
}
