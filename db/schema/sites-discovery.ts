/** Owned by `app/modules/discovery`. Created in 0021-sites-discovery. */

export interface SitePageSeoTable {
  page_id: string;
  workspace_id: string;
  /** For search results and the document's `<title>`; null: the page's own title. */
  title: string | null;
  /** null: the page's own description (or its first words). */
  description: string | null;
  /** An absolute `https://` URL or a path on the site; null: the page's own address. */
  canonical: string | null;
  /** 0/1. */
  noindex: number;
  /** BCP 47 tag of the page's language (`en`, `fr-CA`); null: the site's. */
  locale: string | null;
  /** The page this one translates (its group's original), for `hreflang` alternates. */
  translation_of: string | null;
  updated_at: string;
}

export interface SiteRedirectsTable {
  id: string;
  workspace_id: string;
  /** A site path, `/old-page`: starts with "/", no query, lower-case, no trailing slash (but "/" itself). */
  from_path: string;
  /** A site path (`/new-page`) or an absolute `https://` URL. */
  target: string;
  /** 301 or 302. */
  status: number;
  created_at: string;
  updated_at: string;
}

export interface SiteDiscoveryTable {
  workspace_id: string;
  /** 0/1: the whole site asks search engines not to index it (robots.txt disallows all). */
  noindex: number;
  llms_enabled: number;
  llms_summary: string;
  indexnow_enabled: number;
  /** 8–128 characters of `[a-zA-Z0-9-]`, as the IndexNow protocol requires. */
  indexnow_key: string | null;
  updated_at: string;
}

export interface IndexNowSubmissionsTable {
  id: string;
  workspace_id: string;
  /** JSON array: site paths while queued (`""` is the home page), the absolute URLs sent once sending. */
  urls: string;
  /** "queued" (gathering paths) | "sending" | "sent" | "failed" | "skipped" (ADR 022). */
  status: string;
  response_status: number | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}

export interface SitesDiscoveryTables {
  site_page_seo: SitePageSeoTable;
  site_redirects: SiteRedirectsTable;
  site_discovery: SiteDiscoveryTable;
  indexnow_submissions: IndexNowSubmissionsTable;
}
