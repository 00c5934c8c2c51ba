/**
 * Which verified custom domain serves which site (issue 14): read on every request by server.ts (host
 * check and path rewrite) and by every absolute URL a site builds (`siteAddressOf`), so a hit is a memory
 * read. CONTRACT STATE: the interface is final; the domains work fills the implementation (verified rows of
 * `site_domains`, refreshed on change and periodically for other nodes).
 */
import type { Db } from "~db/client";

export interface DomainSite {
  hostname: string;
  workspaceId: string;
  slug: string;
}

export interface SiteDomainRegistry {
  /** The site a verified custom domain serves, or null. `hostname` as `hostnameOf` gives it. */
  siteOfHost(hostname: string): Promise<DomainSite | null>;
  /** The verified primary domain of a workspace's site, or null. */
  primaryDomainOf(workspaceId: string): Promise<string | null>;
  /** Whether `/{slug}/*` on the deployment's host should answer 301 to the primary domain. */
  redirectsPathOf(workspaceId: string): Promise<boolean>;
  /** Forget what is cached: after a domain changes state, a workspace changes slug, is suspended or deleted. */
  invalidate(): void;
}

export function siteDomainRegistry(_db: Db): SiteDomainRegistry {
  return {
    siteOfHost: async () => null,
    primaryDomainOf: async () => null,
    redirectsPathOf: async () => false,
    invalidate: () => {},
  };
}
