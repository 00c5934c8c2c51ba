/**
 * Page slugs a page can never take (ADR 017): every path the spec gives the public site (its pages, the
 * customer portal's, the technical routes), the files beside them, and a few words kept for what later issues
 * put under `/{site}/`. A page at one of these would hide the real route or be hidden by it.
 */
export const RESERVED_PAGE_SLUGS: ReadonlySet<string> = new Set([
  // The spec's public site pages.
  "shop",
  "cart",
  "checkout",
  "bookings",
  "forms",
  "help",
  "kb",
  "stories",
  "policies",
  "contact",
  // The customer portal.
  "account",
  "orders",
  "billing",
  "tickets",
  "profile",
  "saved",
  // Technical routes and files (`robots.txt`, `sitemap.xml`, `llms.txt`, `theme.css`, …), by their stem.
  "login",
  "logout",
  "unlock",
  "media",
  "robots",
  "sitemap",
  "llms",
  "indexnow",
  "og-image",
  "theme",
  "favicon",
  "manifest",
  "site-webmanifest",
  "apple-touch-icon",
  "feed",
  "rss",
  "atom",
  "auth",
  "portal",
  "api",
  "well-known",
  // Kept for later: search, the site's assets, previews.
  "search",
  "assets",
  "static",
  "preview",
  "admin",
]);

export const isReservedPageSlug = (slug: string) => RESERVED_PAGE_SLUGS.has(slug);
