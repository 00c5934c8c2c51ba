/**
 * Where to go after signing in: only a path on this site, never another origin (open-redirect guard).
 * Browsers drop tabs and newlines from URLs and read `\` as `/`, so `/\t/evil.test` would leave the site
 * although it starts with a single slash: refuse control characters and whitespace, then let the URL
 * parser decide which origin the target names. The parser also resolves dot segments, and what it hands back
 * is what the browser reads in `Location`: `/.//evil.test` normalises to `//evil.test`, a network-path
 * reference to another site, so a normalised path must not start with two slashes either.
 */
const PLACEHOLDER = "http://atrium.invalid";

export function safeRedirectTarget(value: string | null | undefined, fallback = "/"): string {
  // eslint-disable-next-line no-control-regex
  if (!value || !value.startsWith("/") || /[\u0000-\u0020\u007f\\]/.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, PLACEHOLDER);
  } catch {
    return fallback;
  }
  if (url.origin !== PLACEHOLDER || url.pathname.startsWith("//")) return fallback;
  return url.pathname + url.search + url.hash;
}
