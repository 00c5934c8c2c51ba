/** Owned by `app/modules/sites` (pages). Created in 0016-sites-pages. */

export interface SitePagesTable {
  id: string;
  workspace_id: string;
  /** `[a-z0-9-]`, unique in the workspace, never one of RESERVED_PAGE_SLUGS. */
  slug: string;
  /** 0/1; at most one page of a workspace is its home page (partial unique index). */
  is_home: number;
  /** The working copy: JSON `PageContent` (title, description, blocks with their rendered HTML). */
  draft: string;
  /** What the public sees: JSON `PageContent`, or null while the page is not published. */
  published: string | null;
  published_at: string | null;
  /** Whether the draft differs from what is published (0/1), for the list's "unpublished changes". */
  has_changes: number;
  created_at: string;
  updated_at: string;
}

export interface SitePageRevisionsTable {
  id: string;
  workspace_id: string;
  page_id: string;
  /** 1, 2, 3… per page. */
  number: number;
  /** "saved" | "published" | "restored" | "created". */
  kind: string;
  /** JSON `PageContent` as it was. */
  content: string;
  slug: string;
  author_user_id: string | null;
  created_at: string;
}

export interface SiteNavLinksTable {
  id: string;
  workspace_id: string;
  /** "header" | "footer". */
  area: string;
  position: number;
  label: string;
  /** A page of this workspace (shown only while it is published), or null for `url`. */
  page_id: string | null;
  /** An address of its own (`https://…`, `mailto:`, `tel:` or a path on this site) when `page_id` is null. */
  url: string | null;
  created_at: string;
}

export interface SitesPagesTables {
  site_pages: SitePagesTable;
  site_page_revisions: SitePageRevisionsTable;
  site_nav_links: SiteNavLinksTable;
}
