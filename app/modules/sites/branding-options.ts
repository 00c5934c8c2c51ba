/** The branding's fixed choices, shared by the server and the console's components (no server imports). */

export const CORNER_STYLES = ["square", "soft", "round"] as const;
export type CornerStyle = (typeof CORNER_STYLES)[number];

export const LOGO_TYPES: ReadonlySet<string> = new Set([
  "image/png",
  "image/jpeg",
  "image/webp",
  "image/gif",
  "image/avif",
  "image/svg+xml",
]);
export const FAVICON_TYPES: ReadonlySet<string> = new Set([...LOGO_TYPES, "image/x-icon", "image/vnd.microsoft.icon"]);
/** What social networks show as a link's preview image. */
export const SOCIAL_IMAGE_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/webp"]);
