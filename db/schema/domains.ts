/** Owned by `app/modules/domains`. Created in 0023-domains. */

export interface SiteDomainsTable {
  id: string;
  workspace_id: string;
  /** Lower-case ASCII (punycode) host name, no trailing dot. */
  hostname: string;
  /** The value the TXT record must hold. */
  token: string;
  /** "pending" | "verified" | "failing". Only one workspace holds a host name verified or failing. */
  status: string;
  /** 0/1: the site's final address (canonical URLs, sitemap…); at most one verified domain per workspace. */
  is_primary: number;
  /** 0/1: `/{site}/*` on the deployment's host answers 301 to the primary domain. */
  redirect_path: number;
  /** JSON array of the last check's findings (`DomainDiagnostic`). */
  diagnostics: string;
  last_checked_at: string | null;
  next_check_at: string | null;
  verified_at: string | null;
  /** When the checks of a verified domain started failing (status "failing"); null otherwise. */
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

export interface DomainsTables {
  site_domains: SiteDomainsTable;
}
