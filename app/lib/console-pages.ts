/**
 * The console's first path segments: the spec's console pages plus the account pages every console has.
 * Plain data (no server imports) because both the access contract and the slug rules read it, and the slug
 * rules also run in the browser.
 */
export const CONSOLE_SEGMENTS = [
  "get-started",
  "settings",
  "insights",
  "scheduling",
  "customers",
  "inbox",
  "shop",
  "shipping",
  "website",
  "stories",
  "discovery",
  "communications",
  "forms",
  "login",
  "signup",
  "logout",
  "invitations",
] as const;
