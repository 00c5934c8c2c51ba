/** The media library's JSON shapes, shared by the editor API routes (and documented there with zod). */
import { slugBase } from "~/lib/link-base";
import { z } from "zod";
import { mediaSrc, mediaSrcSet, type MediaItem } from "./media.server";

export const MediaItemJson = z.object({
  id: z.string(),
  filename: z.string(),
  alt: z.string(),
  contentType: z.string(),
  byteSize: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  sha256: z.string(),
  url: z.string().describe("The original's public address on the workspace's site"),
  srcset: z.string().nullable().describe("The WebP variants and the original, for <img srcset>"),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export function mediaJson(siteSlug: string, item: MediaItem): z.output<typeof MediaItemJson> {
  return {
    id: item.id,
    filename: item.filename,
    alt: item.alt,
    contentType: item.contentType,
    byteSize: item.byteSize,
    width: item.width,
    height: item.height,
    sha256: item.sha256,
    url: mediaSrc(slugBase(siteSlug), item),
    srcset: mediaSrcSet(slugBase(siteSlug), item) ?? null,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}
