/** Where to go after signing in: only a path on this site, never another origin (open-redirect guard). */
export function safeRedirectTarget(value: string | null | undefined, fallback = "/"): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  return value;
}
