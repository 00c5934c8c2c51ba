/**
 * The store's generation check under sustained load (review of issue 15, attacker #7 / maintainer F18): renders
 * that always overlap never let the purged-tags map empty itself, so it is bounded, and dropping it refuses
 * every render begun before, never one that read what a forgotten purge made old.
 */
import { describe, expect, it } from "vitest";
import { createPageStore } from "./store.server";

const key = { scheme: "https", host: "example.test", path: "/site", params: [] as Array<[string, string]> };
const answer = (tags: string[]) => ({
  status: 200,
  headers: [] as Array<[string, string]>,
  identity: Buffer.from("page"),
  gzip: null,
  br: null,
  etag: '"e"',
  tags,
  varyQuery: [] as string[],
  log: {},
});

describe("page store generation check", () => {
  it("holds at most maxPurgedTags purged tags while renders overlap, and refuses renders begun before it forgot", () => {
    const store = createPageStore({ maxBytes: 1_000_000, maxEntryBytes: 100_000, ttlSeconds: 60, maxPurgedTags: 4 });
    // One render always in flight: the map is never emptied by the last render ending.
    const old = store.renderStarted();
    for (let i = 0; i < 50; i++) store.purge([`ws:A:page:p${i}`]);
    expect(store.purgedTagsHeld()).toBeLessThanOrEqual(4);
    // p0's purge was forgotten; the render that began before it is still refused.
    expect(store.put(key, answer(["ws:A:page:p0"]), old)).toBeNull();
    store.renderDone();

    const fresh = store.renderStarted();
    expect(store.put(key, answer(["ws:A:page:p0"]), fresh)).not.toBeNull();
    store.renderDone();
  });

  it("still refuses only the tags purged since a render began while under the bound", () => {
    const store = createPageStore({ maxBytes: 1_000_000, maxEntryBytes: 100_000, ttlSeconds: 60 });
    const started = store.renderStarted();
    store.purge(["ws:A:page:p1"]);
    expect(store.put(key, answer(["ws:A:page:p1"]), started)).toBeNull();
    expect(store.put({ ...key, path: "/other" }, answer(["ws:B:page:p2"]), started)).not.toBeNull();
    store.renderDone();
  });
});
