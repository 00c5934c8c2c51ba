/** What the files service accepts, for server checks and for the upload fields' `accept` and hints alike. */
export const ACCEPTED_TYPES = [
  "image/jpeg",
  "image/png",
  "image/webp",
  "image/gif",
  "image/avif",
  "image/svg+xml",
  "image/x-icon",
] as const;

/** What an operator may upload, in words. */
export const ACCEPTED_LABEL = "JPEG, PNG, WebP, GIF, AVIF, SVG or ICO";
