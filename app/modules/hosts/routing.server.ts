/**
 * How a request's host and path are routed before Remix sees them (issue 14, ADR 025): the one rule server.ts
 * applies (through `AppRuntime.routeHost`) and `/api/routing-test` shows.
 *
 * - On a site's verified custom domain, everything is the site: the path is rewritten to `/{slug}{path}`, so
 *   Remix's routes match as on the deployment's host, and the request scope names the site (`siteHost`).
 *   Console paths (`/login`, `/settings`) become the site's own paths (its page, or its 404): the console
 *   never answers on a customer's domain, and the operator's host-only cookies never reach it anyway. A few
 *   paths are the deployment's on every host: the build's files (`/assets/*`), the customer API (`/api/v1/*`,
 *   which resolves its site by the host), health probes and `/api/routing-test`. A path that already starts
 *   with `/{slug}` (an old link, a link pasted from the deployment's host) answers 301 to the path without it.
 * - On the deployment's host, `/{slug}/*` answers 301 to the same path on the site's primary domain when it
 *   has one, verified (not failing), and its switch is on (the registry's `pathRedirectOf`). Except the site's
 *   files (`/{slug}/media/*`, `/{slug}/theme.css`): named by their content, they are no page a search engine
 *   indexes twice, and the console shows them from its own origin (its CSP allows images from 'self' only).
 * - On a site's domain that is not its primary one (an alias: `www.` beside the apex), every path answers 301
 *   to the same path on the primary domain, once that one is verified (as Netlify and Vercel do): one address
 *   per page for visitors and search engines.
 * - A path a browser would never send on a custom domain (a `.` or `..` segment, raw or percent-encoded, an
 *   encoded `/` or `\\`) is refused with 400 before the rewrite: the URL parser Remix builds `request.url`
 *   with would resolve `/{slug}/../login` to the console's `/login`, or another tenant's site.
 */
import type { DomainSite, SiteDomainRegistry } from "~/modules/domains/registry.server";
import { hostnameOf } from "./hosts.server";

/** A site's files, which stay on the deployment's host when its pages move to the site's domain. */
const SITE_FILES = /^\/(?:media\/|theme\.css$)/;

/**
 * Paths answered by the deployment itself on every host, custom domains included. The customer's link pages
 * (`/auth/callback`, `/portal/callback`) are among them: their token names the site, and on a custom domain
 * the session cookie they set must be that domain's.
 */
const DEPLOYMENT_PATHS =
  /^\/(?:assets\/|api\/v1(?:\/|$)|api\/health(?:\/live)?$|api\/routing-test$|auth\/callback$|portal\/callback$)/;

/**
 * Under `npm run dev` only: the paths Vite's dev server answers (server.ts mounts its middlewares after this
 * rewrite), so a site page on a custom domain gets its stylesheet and modules. The build serves `/assets/*`.
 */
export const DEV_SERVER_PATHS = ["/@vite/", "/@fs/", "/@id/", "/@react-refresh", "/__vite", "/node_modules/", "/app/"];

const isDevServerPath = (path: string) => DEV_SERVER_PATHS.some((prefix) => path.startsWith(prefix));

/**
 * A location on the same host built from a request path: a leading run of `/` and `\\` becomes one `/`, so
 * `//evil.example/x` (or `/\\evil.example`, which browsers read as `//`) stays a path on this host instead of
 * a protocol-relative URL to another.
 */
export const sameHostLocation = (path: string): string => path.replace(/^[/\\]+/, "/");

/**
 * Why a custom domain refuses this path, or null: a dot segment (`.`, `..`, also as `%2e`, or followed by `;`
 * as some servers read `..;`) or an encoded `/` or `\\`, which would move the rewritten path out of the site.
 */
export function unsafeSitePath(path: string): string | null {
  if (/%2f|%5c|\\/i.test(path)) return "The request path has an encoded or backward slash";
  for (const segment of path.split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return "The request path is not valid percent-encoded UTF-8";
    }
    if (/^\.\.?(?:;|$)/.test(decoded)) return "The request path has a dot segment";
  }
  return null;
}

export interface HostRoute {
  kind: "deployment" | "custom-domain";
  /** The site the custom domain serves (null on the deployment's host). */
  site: DomainSite | null;
  /** The path and query Remix answers: `/{slug}{path}` on a custom domain, else as sent. */
  url: string;
  /** Where a 301 sends this request instead, when one applies (absolute on another host, else a path). */
  redirect: string | null;
  /** Why the request is refused with 400 instead (a path that would escape the site on its domain). */
  refused?: string;
}

export interface RouteOptions {
  /** Vite's dev server answers its own paths (`npm run dev`). */
  dev?: boolean;
}

function split(url: string): { path: string; query: string } {
  const at = url.search(/[?#]/);
  return at === -1 ? { path: url, query: "" } : { path: url.slice(0, at), query: url.slice(at) };
}

/** The path below `/{slug}` ("/" for the site's home), or null when `path` is not under it. */
function below(path: string, slug: string): string | null {
  const prefix = `/${slug}`;
  if (path === prefix) return "/";
  return path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : null;
}

/** `host` as the request names it (a `Host` value); `url` its path and query. */
export async function routeHost(
  registry: SiteDomainRegistry,
  host: string,
  url: string,
  options: RouteOptions = {},
): Promise<HostRoute> {
  const { path, query } = split(url);
  const hostname = hostnameOf(host);
  const site = hostname === null ? null : await registry.siteOfHost(hostname);
  if (site) {
    const route: HostRoute = { kind: "custom-domain", site, url, redirect: null };
    if (DEPLOYMENT_PATHS.test(path) || (options.dev && isDevServerPath(path))) return route;
    const refused = unsafeSitePath(path);
    if (refused) return { ...route, refused };
    const rest = below(path, site.slug);
    const primary = await registry.aliasRedirectOf(site.hostname);
    if (primary) return { ...route, redirect: `https://${primary}${sameHostLocation(rest ?? path)}${query}` };
    if (rest !== null) return { ...route, redirect: `${sameHostLocation(rest)}${query}` };
    return { ...route, url: `/${site.slug}${path === "/" ? "" : path}${query}` };
  }
  const route: HostRoute = { kind: "deployment", site: null, url, redirect: null };
  const slug = path.split("/")[1];
  if (!slug) return route;
  const moved = await registry.pathRedirectOf(slug);
  const rest = moved && below(path, slug);
  if (!moved || rest === null || SITE_FILES.test(rest)) return route;
  return { ...route, redirect: `https://${moved.domain}${rest}${query}` };
}
