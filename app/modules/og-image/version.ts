/**
 * The `v=` of a site's og-image address (ADR 022): a short hash of everything the image shows except the title
 * (the theme, the logo's bytes, the site's name). The page head (app/site/chrome.ts) computes it from the
 * layout's data and the og-image route from the database; when they agree the image is cached for a year,
 * and a branding change gives every page a new address. Plain code (no node:crypto): meta functions run in
 * the browser too.
 */

/** The theme's hash from its address (`/{slug}/theme.css?v=abc`), the logo's sha256 from its address. */
export function ogImageVersion(themeHref: string, logoSrc: string | null, siteName: string): string {
  const theme = /[?&]v=([^&]+)/.exec(themeHref)?.[1] ?? themeHref;
  const logo = logoSrc ? (/[a-f0-9]{64}/.exec(logoSrc)?.[0] ?? logoSrc) : "";
  return fnv1a(`${theme}\n${logo}\n${siteName}`);
}

/** FNV-1a, 32 bits, as 8 hex digits: a cache-busting tag, not a security boundary. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

export const MAX_OG_TITLE = 120;

/** The title as drawn: whitespace collapsed, at most 120 characters with an ellipsis (never refused). */
export function ogTitle(raw: string | null | undefined): string {
  const title = (raw ?? "").replace(/\s+/g, " ").trim();
  if (title.length <= MAX_OG_TITLE) return title;
  // Cut at a word when there is one near the end, so the ellipsis does not split a word.
  const cut = title.slice(0, MAX_OG_TITLE - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > MAX_OG_TITLE - 30 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The site path of a page's share image: `/og-image?title=…&v=…` (prefix it with the site's base). */
export function ogImagePath(title: string, version: string): string {
  return `/og-image?${new URLSearchParams({ title: ogTitle(title), v: version }).toString()}`;
}
