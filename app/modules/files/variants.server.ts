/**
 * Resized WebP copies of raster images, made on the first request for a width and kept in the blob store
 * beside the original (`variants/{sha256}-{width}.webp`), so each is made once per content, whichever node
 * or workspace asks first. Within a process, concurrent requests for one variant share one resize.
 */
import type { BlobStore } from "./storage.server";
import { originalKey, variantKey } from "./storage.server";

const inFlight = new Map<string, Promise<Buffer | null>>();

/** The variant's bytes, made and stored if needed; null when the original is gone. */
export function variantBytes(store: BlobStore, sha256: string, width: number): Promise<Buffer | null> {
  const key = variantKey(sha256, width);
  let pending = inFlight.get(key);
  if (!pending) {
    pending = (async () => {
      const kept = await store.get(key);
      if (kept) return kept;
      const original = await store.get(originalKey(sha256));
      if (!original) return null;
      const sharp = (await import("sharp")).default;
      const made = await sharp(original)
        .rotate()
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: 80, effort: 4 })
        .toBuffer();
      await store.put(key, made, "image/webp");
      return made;
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}
