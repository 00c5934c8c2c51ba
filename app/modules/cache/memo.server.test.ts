import { afterEach, describe, expect, it } from "vitest";
import { setTestClock } from "~/lib/clock.server";
import { createTaggedMemo } from "./memo.server";

afterEach(() => setTestClock(undefined));

function counting<T>(value: () => T) {
  let calls = 0;
  const load = async () => {
    calls += 1;
    return value();
  };
  return { load, calls: () => calls };
}

/** A load that finishes when the test says, so a purge can land while it runs. */
function held<T>(value: T) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    load: async () => {
      await done;
      return value;
    },
    finish,
  };
}

const memo = (options: Partial<Parameters<typeof createTaggedMemo>[0]> = {}) =>
  createTaggedMemo({ maxEntries: 100, ttlMs: 60_000, accepting: () => true, ...options });

describe("createTaggedMemo", () => {
  it("answers from memory until one of the entry's tags is purged", async () => {
    const m = memo();
    let version = 1;
    const { load, calls } = counting(() => version);
    expect(await m.remember("frame:a", ["ws:a", "ws:a:branding"], load)).toBe(1);
    version = 2;
    expect(await m.remember("frame:a", ["ws:a", "ws:a:branding"], load)).toBe(1);
    expect(calls()).toBe(1);
    m.purge(["ws:b:branding"]);
    expect(await m.remember("frame:a", ["ws:a", "ws:a:branding"], load)).toBe(1);
    m.purge(["ws:a:branding"]);
    expect(await m.remember("frame:a", ["ws:a", "ws:a:branding"], load)).toBe(2);
    expect(calls()).toBe(2);
    expect(m.stats()).toMatchObject({ entries: 1, hits: 2, misses: 2 });
  });

  it("does not keep a value whose load began before a purge of its tags (it may predate the write)", async () => {
    const m = memo();
    const slow = held("old");
    const pending = m.remember("k", ["ws:a:settings"], slow.load);
    m.purge(["ws:a:settings"]);
    slow.finish();
    expect(await pending).toBe("old");
    const fresh = counting(() => "new");
    expect(await m.remember("k", ["ws:a:settings"], fresh.load)).toBe("new");
    expect(fresh.calls()).toBe(1);
  });

  it("keeps a value whose load began after the purge, and one whose tags another purge did not name", async () => {
    const m = memo();
    m.purge(["ws:a:settings"]);
    const slow = held("v");
    const pending = m.remember("k", ["ws:a:settings"], slow.load);
    m.purge(["ws:b:settings"]);
    slow.finish();
    await pending;
    const again = counting(() => "other");
    expect(await m.remember("k", ["ws:a:settings"], again.load)).toBe("v");
    expect(again.calls()).toBe(0);
  });

  it("takes its tags from the value when what was read decides them", async () => {
    const m = memo();
    const bySlug = counting(() => ({ id: "p1", title: "Rye" }));
    const tags = (p: { id: string }) => ["ws:a:shop", `ws:a:product:${p.id}`];
    await m.remember("product:rye", tags, bySlug.load);
    await m.remember("product:rye", tags, bySlug.load);
    expect(bySlug.calls()).toBe(1);
    m.purge(["ws:a:product:p1"]);
    await m.remember("product:rye", tags, bySlug.load);
    expect(bySlug.calls()).toBe(2);
    // Purged while loading, under a tag only the value names: not kept.
    const slow = held({ id: "p2", title: "Spelt" });
    const pending = m.remember("product:spelt", tags, slow.load);
    m.purge(["ws:a:product:p2"]);
    slow.finish();
    await pending;
    const after = counting(() => ({ id: "p2", title: "Spelt loaf" }));
    expect((await m.remember("product:spelt", tags, after.load)).title).toBe("Spelt loaf");
  });

  it("drops everything on clear, and refuses a load that was running across it", async () => {
    const m = memo();
    await m.remember("a", ["t"], async () => 1);
    const slow = held(2);
    const pending = m.remember("b", ["u"], slow.load);
    m.clear();
    slow.finish();
    await pending;
    expect(m.stats().entries).toBe(0);
  });

  it("keeps nothing while purges of other processes cannot be heard", async () => {
    let hearing = false;
    const m = memo({ accepting: () => hearing });
    const { load, calls } = counting(() => "x");
    await m.remember("k", ["t"], load);
    await m.remember("k", ["t"], load);
    expect(calls()).toBe(2);
    hearing = true;
    await m.remember("k", ["t"], load);
    hearing = false;
    // An entry kept before the bus went down is not answered while it is down.
    await m.remember("k", ["t"], load);
    expect(calls()).toBe(4);
  });

  it("expires an entry at the time its value names, and at most ttl after it was read", async () => {
    let clock = Date.parse("2026-12-02T22:00:00Z");
    setTestClock(() => new Date(clock));
    const m = memo({ ttlMs: 3_600_000 });
    const midnight = Date.parse("2026-12-03T00:00:00Z");
    const { load, calls } = counting(() => ({ until: midnight }));
    await m.remember("day", ["t"], load, (v) => v.until);
    clock += 59 * 60_000;
    await m.remember("day", ["t"], load, (v) => v.until);
    expect(calls()).toBe(1);
    clock += 2 * 60_000; // past the hour's ttl, before midnight
    await m.remember("day", ["t"], load, (v) => v.until);
    expect(calls()).toBe(2);
    clock = midnight + 1;
    await m.remember("day", ["t"], load, (v) => v.until);
    expect(calls()).toBe(3);
  });

  it("holds at most maxEntries, forgetting the least recently used first", async () => {
    const m = memo({ maxEntries: 2 });
    await m.remember("a", ["t"], async () => "a");
    await m.remember("b", ["t"], async () => "b");
    await m.remember("a", ["t"], async () => "a2"); // a is used: b is now the oldest
    await m.remember("c", ["t"], async () => "c");
    expect(m.stats().entries).toBe(2);
    expect(await m.remember("a", ["t"], async () => "a3")).toBe("a");
    expect(await m.remember("b", ["t"], async () => "b2")).toBe("b2");
  });

  it("forgets purged tags past its bound by refusing the loads then running, never by keeping a stale one", async () => {
    const m = memo({ maxPurgedTags: 3 });
    const slow = held("old");
    const pending = m.remember("k", ["ws:a:settings"], slow.load);
    m.purge(["x1", "x2"]);
    m.purge(["x3", "x4"]); // over the bound: the running load is refused, whatever it read
    slow.finish();
    await pending;
    const fresh = counting(() => "new");
    expect(await m.remember("k", ["ws:a:settings"], fresh.load)).toBe("new");
  });
});
