/**
 * How pages find and show a workspace's files: the read side of the files service that the website's
 * renderers (blocks, branding, the public layout) use. Uploading, storing and serving the bytes live beside
 * this file; what a page needs is only a file's row and its public addresses.
 *
 * Addresses name the bytes, not the row (`/{site}/media/{sha256}.{ext}`, `/{site}/media/{sha256}-{width}.webp`),
 * so they can be cached forever: replacing a file gives it a new hash and every page a new address.
 */
import type { Db } from "~db/client";

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
  siteSlug: string,
  item: Pick<MediaItem, "sha256" | "contentType" | "width">,
  width?: number,
): string {
  const base = `/${siteSlug}/media/${item.sha256}`;
  if (width !== undefined) {
    const fit = variantWidths(item).find((w) => w >= width);
    if (fit !== undefined) return `${base}-${fit}.webp`;
  }
  return `${base}.${extensionOf(item.contentType)}`;
}

/** `srcset` for a raster image: every variant and the original, by width; undefined when there are none. */
export function mediaSrcSet(
  siteSlug: string,
  item: Pick<MediaItem, "sha256" | "contentType" | "width">,
): string | undefined {
  const widths = variantWidths(item);
  if (widths.length === 0 || item.width === null) return undefined;
  const base = `/${siteSlug}/media/${item.sha256}`;
  return [
    ...widths.map((w) => `${base}-${w}.webp ${w}w`),
    `${base}.${extensionOf(item.contentType)} ${item.width}w`,
  ].join(", ");
}

type FileRow = {
  id: string;
  sha256: string;
  content_type: string;
  byte_size: number;
  width: number | null;
  height: number | null;
  filename: string;
  alt: string;
  created_at: string;
  updated_at: string;
};

export function toMediaItem(row: FileRow): MediaItem {
  return {
    id: row.id,
    sha256: row.sha256,
    contentType: row.content_type,
    byteSize: row.byte_size,
    width: row.width,
    height: row.height,
    filename: row.filename,
    alt: row.alt,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const COLUMNS = [
  "id",
  "sha256",
  "content_type",
  "byte_size",
  "width",
  "height",
  "filename",
  "alt",
  "created_at",
  "updated_at",
] as const;

/** A workspace's media, as pages read it. */
export function mediaOf(db: Db, workspaceId: string) {
  const rows = () => db.selectFrom("files").select(COLUMNS).where("workspace_id", "=", workspaceId);
  return {
    /** The files among `ids` that this workspace has; ids of other workspaces' files are simply absent. */
    async byIds(ids: readonly string[]): Promise<Map<string, MediaItem>> {
      const unique = [...new Set(ids)].filter(Boolean);
      if (unique.length === 0) return new Map();
      const found = await rows().where("id", "in", unique).execute();
      return new Map(found.map((row) => [row.id, toMediaItem(row)]));
    },
    async byId(id: string): Promise<MediaItem | undefined> {
      const row = await rows().where("id", "=", id).executeTakeFirst();
      return row ? toMediaItem(row) : undefined;
    },
  };
}
