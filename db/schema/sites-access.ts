/** Owned by `app/modules/site-access`. Created in 0022-sites-access. */

export interface SiteAccessTable {
  workspace_id: string;
  /** "public" | "protected". */
  visibility: string;
  /** scrypt hash (the accounts module's format) of the site password; set while protected. */
  password_hash: string | null;
  /** Part of every unlock cookie's signed value: raising it revokes every cookie issued before. */
  cookie_version: number;
  updated_at: string;
}

export interface SitesAccessTables {
  site_access: SiteAccessTable;
}
