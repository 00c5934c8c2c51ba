/**
 * Where a site lives (issue 14). Two questions, kept apart:
 *
 * - Its **final address** (`siteAddressOf`): the origin and base path of its canonical URLs, sitemap,
 *   robots.txt, llms.txt, Open Graph URLs and IndexNow submissions. The spec: "technical surfaces are verified
 *   on the final domain, not a preview host". With a verified primary custom domain it is `https://{domain}`
 *   with base ""; otherwise the deployment's public origin with base `/{slug}`.
 * - The **link base** of the request being answered (`linkBase`): "" when the visitor came in on the site's
 *   custom domain (server.ts rewrote the path and set `context.request.siteHost`), else `/{slug}`. Links in a
 *   page keep the visitor on the host they used.
 *
 * Every public path a page renders is `${base}${sitePath}` where `sitePath` is "" for the home page or starts
 * with "/" (`/about`, `/policies/privacy`, `/media/…`).
 */
import type { AppLoadContext } from "@remix-run/node";
import { atBase, type LinkBase } from "~/lib/link-base";
import type { AppServices } from "~/lib/context";
import type { ResolvedOrigin } from "~/modules/hosts/hosts.server";

export interface SiteAddress {
  /** No trailing slash: `https://shop.example.com`, `https://atrium.example`. */
  origin: string;
  /** "" on a custom domain, `/{slug}` on the deployment's host. */
  base: LinkBase;
  /** The origin is the request's own (development without PUBLIC_URL): an answer naming it is `no-store`. */
  fromRequest: boolean;
}

/**
 * The absolute URL of a site path (`""` for the home page, `/about`, `/sitemap.xml`) at `address`. The home
 * page on a domain is `https://shop.example/`, with its slash: one string for it everywhere (canonical, sitemap,
 * llms.txt, IndexNow).
 */
export function siteUrl(address: Pick<SiteAddress, "origin" | "base">, sitePath = ""): string {
  return `${address.origin}${atBase(address.base, sitePath)}`;
}

/**
 * The final address of a workspace's site. `fallback` is the deployment's origin for this request
 * (`resolveOrigin`), or null outside a request (a job), where only a custom domain or PUBLIC_URL can answer:
 * null then means the site has no absolute address yet (development without PUBLIC_URL).
 */
export async function siteAddressOf(
  services: AppServices,
  workspace: { id: string; slug: string },
  fallback: ResolvedOrigin | null,
): Promise<SiteAddress | null> {
  const domain = await services.siteDomains.primaryDomainOf(workspace.id);
  if (domain) return { origin: `https://${domain}`, base: "", fromRequest: false };
  const origin = fallback ?? (services.env.PUBLIC_URL ? { origin: services.env.PUBLIC_URL, fromRequest: false } : null);
  if (!origin) return null;
  return {
    origin: origin.origin.replace(/\/$/, ""),
    base: `/${workspace.slug}` as const,
    fromRequest: origin.fromRequest,
  };
}

/** The prefix of links on the page being answered: "" on the site's custom domain, else `/{slug}`. */
export function linkBase(context: AppLoadContext, slug: string): LinkBase {
  return context.request.siteHost?.slug === slug ? "" : `/${slug}`;
}
