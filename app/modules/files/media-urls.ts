/**
 * A file's public addresses, as plain functions any module — components included — may import: the original
 * at `/{site}/media/{sha256}.{ext}` and resized WebP variants at `/{site}/media/{sha256}-{width}.webp`.
 * Addresses name the bytes, so they can be cached forever. (media.server.ts re-exports these.) `base` is the
 * site's link base (`LinkBase`): `/{slug}`, or "" on a page served on the site's own domain.
 */
import type { LinkBase } from "~/lib/link-base";

/** The widths of the WebP variants made for raster images; none wider than the original is made. */
export const IMAGE_WIDTHS = [320, 640, 960, 1440] as const;

export interface MediaItem {
  id: string;
  sha256: string;
  contentType: string;
  byteSize: number;
  width: number | null;
  height: number | null;
  filename: string;
  alt: string;
  createdAt: string;
  updatedAt: string;
}

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
  "image/avif": "avif",
  "image/svg+xml": "svg",
  "image/x-icon": "ico",
  "image/vnd.microsoft.icon": "ico",
};

export function extensionOf(contentType: string): string {
  return EXTENSIONS[contentType] ?? "bin";
}

/** Raster images get resized WebP variants; SVG and icons are served as they are. */
export function hasVariants(item: Pick<MediaItem, "contentType" | "width">): boolean {
  return (
    item.width !== null &&
    !["image/svg+xml", "image/x-icon", "image/vnd.microsoft.icon", "image/gif"].includes(item.contentType)
  );
}

/** The widths made for this image: those of IMAGE_WIDTHS below its own width. */
export function variantWidths(item: Pick<MediaItem, "contentType" | "width">): number[] {
  if (!hasVariants(item) || item.width === null) return [];
  const width = item.width;
  return IMAGE_WIDTHS.filter((w) => w < width);
}

/**
 * The address of the original bytes or, given a width, of the variant that fits it best: the smallest
 * variant at least that wide, or the original when none is.
 */
export function mediaSrc(
  siteBase: LinkBase,
  item: Pick<MediaItem, "sha256" | "contentType" | "width">,
  width?: number,
): string {
  const base = `${siteBase}/media/${item.sha256}`;
  if (width !== undefined) {
    const fit = variantWidths(item).find((w) => w >= width);
    if (fit !== undefined) return `${base}-${fit}.webp`;
  }
  return `${base}.${extensionOf(item.contentType)}`;
}

/** `srcset` for a raster image: every variant and the original, by width; undefined when there are none. */
export function mediaSrcSet(
  siteBase: LinkBase,
  item: Pick<MediaItem, "sha256" | "contentType" | "width">,
): string | undefined {
  const widths = variantWidths(item);
  if (widths.length === 0 || item.width === null) return undefined;
  const base = `${siteBase}/media/${item.sha256}`;
  return [
    ...widths.map((w) => `${base}-${w}.webp ${w}w`),
    `${base}.${extensionOf(item.contentType)} ${item.width}w`,
  ].join(", ");
}
