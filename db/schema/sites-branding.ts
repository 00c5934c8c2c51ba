/** Owned by `app/modules/sites` (branding, profile, brand import). Created in 0017-sites-branding. */

export type BrandImportStatus = "none" | "queued" | "running" | "done" | "failed";

export interface SiteBrandingTable {
  workspace_id: string;
  logo_file_id: string | null;
  favicon_file_id: string | null;
  social_image_file_id: string | null;
  /** `#rrggbb`, lower case. */
  brand_color: string;
  accent_color: string;
  background_color: string;
  text_color: string;
  /** Keys of `FONTS` in app/modules/sites/fonts.ts. */
  heading_font: string;
  body_font: string;
  /** "square" | "soft" | "round". */
  corner_style: string;
  import_url: string | null;
  import_status: BrandImportStatus;
  /** 0–100. */
  import_progress: number;
  /** What the import is doing now, or did last, in the operator's words. */
  import_step: string | null;
  import_error: string | null;
  /** JSON: what the import found and stored (`BrandImportFound`). */
  import_found: string | null;
  import_job_id: string | null;
  import_updated_at: string | null;
  updated_at: string;
}

export interface SiteProfilesTable {
  workspace_id: string;
  tagline: string;
  /** IANA time zone. */
  time_zone: string;
  /** ISO 4217 code. */
  currency: string;
  street: string;
  locality: string;
  region: string;
  postal_code: string;
  /** ISO 3166-1 alpha-2, or "". */
  country: string;
  phone: string;
  email: string;
  /** JSON: `WeeklyHours`. */
  opening_hours: string;
  /** JSON: `HoursException[]`. */
  hours_exceptions: string;
  updated_at: string;
}

export interface SitesBrandingTables {
  site_branding: SiteBrandingTable;
  site_profiles: SiteProfilesTable;
}
