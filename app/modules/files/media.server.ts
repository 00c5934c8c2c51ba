/**
 * How pages find and show a workspace's files: the read side of the files service that the website's
 * renderers (blocks, branding, the public layout) use. Uploading, storing and serving the bytes live beside
 * this file; what a page needs is only a file's row and its public addresses.
 *
 * Addresses name the bytes, not the row (`/{site}/media/{sha256}.{ext}`, `/{site}/media/{sha256}-{width}.webp`),
 * so they can be cached forever: replacing a file gives it a new hash and every page a new address.
 */
import type { Db } from "~db/client";
import type { MediaItem } from "./media-urls";

export {
  IMAGE_WIDTHS,
  extensionOf,
  hasVariants,
  mediaSrc,
  mediaSrcSet,
  variantWidths,
  type MediaItem,
} from "./media-urls";

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
