import { describe, expect, it } from "vitest";
import { sweepUnnamed } from "./files.server";
import { originalKey, variantKey, type BlobStore } from "./storage.server";

const hash = "a".repeat(64);

function memoryStore(): BlobStore & { blobs: Map<string, Uint8Array> } {
  const blobs = new Map<string, Uint8Array>();
  return {
    kind: "disk",
    blobs,
    put: async (key, bytes) => void blobs.set(key, bytes),
    get: async (key) => (blobs.has(key) ? Buffer.from(blobs.get(key)!) : null),
    has: async (key) => blobs.has(key),
    delete: async (key) => void blobs.delete(key),
  };
}

describe("sweepUnnamed", () => {
  it("removes the original and the variants of bytes no row names", async () => {
    const store = memoryStore();
    await store.put(originalKey(hash), new Uint8Array([1, 2, 3]), "image/png");
    await store.put(variantKey(hash, 320), new Uint8Array([4]), "image/webp");
    expect(await sweepUnnamed(async () => undefined, store, [hash])).toBe(1);
    expect([...store.blobs.keys()]).toEqual([]);
  });

  it("keeps bytes a row names", async () => {
    const store = memoryStore();
    await store.put(originalKey(hash), new Uint8Array([1, 2, 3]), "image/png");
    expect(await sweepUnnamed(async () => "image/png", store, [hash])).toBe(0);
    expect(store.blobs.has(originalKey(hash))).toBe(true);
  });

  it("puts the original back when an upload of the same bytes named it while the sweep was deleting", async () => {
    const store = memoryStore();
    await store.put(originalKey(hash), new Uint8Array([1, 2, 3]), "image/png");
    // The first look finds no row; the upload commits its row (having seen the blob still there) before the second.
    let looks = 0;
    const named = async () => (++looks === 1 ? undefined : "image/png");
    expect(await sweepUnnamed(named, store, [hash])).toBe(0);
    expect([...(store.blobs.get(originalKey(hash)) ?? [])]).toEqual([1, 2, 3]);
  });
});
