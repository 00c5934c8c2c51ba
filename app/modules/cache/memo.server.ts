/**
 * Data that public pages read on every render (a site's frame: its branding, profile, navigation, policies),
 * remembered between requests under the page cache's own rules (ADR 031): an entry carries the cache tags of what
 * it was read from, and a purge of any of them — from a write in this process or, through the purge bus, in
 * another — drops it. So a page rendered after a save never shows the old frame, the same guarantee the page
 * cache gives for whole answers (DESIGN rule 7).
 *
 * Like the page store it refuses what it cannot vouch for: nothing is kept while purges of other processes cannot
 * be heard (Postgres' LISTEN is down), and a value whose loading began before a purge of one of its tags, or
 * before the memory was emptied, is answered but not kept (it may have been read before the write committed).
 * Bounded in entries; each entry also expires (at a time the value itself names, e.g. the site's next local
 * midnight for "today's" opening hours, and at most `ttlMs` after it was read).
 */
import { now } from "~/lib/clock.server";

export interface TaggedMemo {
  /**
   * `load`'s value for `key`, from memory while none of `tags` was purged since; `expiresAt` may shorten its life
   * from what was loaded (milliseconds since the epoch).
   */
  remember<T>(
    key: string,
    /** Or, when what was read decides them (a product found by its address), a function of the value. */
    tags: readonly string[] | ((value: T) => readonly string[]),
    load: () => Promise<T>,
    expiresAt?: (value: T) => number,
  ): Promise<T>;
  purge(tags: readonly string[]): void;
  clear(): void;
  stats(): { entries: number; hits: number; misses: number };
}

interface Entry {
  value: unknown;
  tags: readonly string[];
  expiresAt: number;
}

export function createTaggedMemo(options: {
  maxEntries: number;
  ttlMs: number;
  /** Whether purges of other processes are heard right now (the page store's own answer). */
  accepting: () => boolean;
  /** How many purged tags to remember for loads still running, before forgetting them all (and refusing those). */
  maxPurgedTags?: number;
}): TaggedMemo {
  const { maxEntries, ttlMs, accepting, maxPurgedTags = 10_000 } = options;
  const entries = new Map<string, Entry>();
  const byTag = new Map<string, Set<string>>();
  // A purge or a clear moves the generation on; a load remembers the generation it began in.
  let generation = 0;
  let clearedAt = 0;
  const purgedAt = new Map<string, number>();
  let hits = 0;
  let misses = 0;

  function remove(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    for (const tag of entry.tags) {
      const keys = byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) byTag.delete(tag);
    }
  }

  function keep(key: string, value: unknown, tags: readonly string[], expiresAt: number) {
    remove(key);
    if (entries.size >= maxEntries) remove(entries.keys().next().value!);
    entries.set(key, { value, tags, expiresAt });
    for (const tag of tags) {
      let keys = byTag.get(tag);
      if (!keys) byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
  }

  return {
    async remember(key, tags, load, expiresAt) {
      const at = now().getTime();
      const found = entries.get(key);
      if (found && found.expiresAt > at && accepting()) {
        hits += 1;
        // Most recently used last: the first entry is the one to evict.
        entries.delete(key);
        entries.set(key, found);
        return found.value as Awaited<ReturnType<typeof load>>;
      }
      misses += 1;
      const began = generation;
      const value = await load();
      const named = typeof tags === "function" ? tags(value) : tags;
      const untouched = clearedAt <= began && named.every((tag) => (purgedAt.get(tag) ?? 0) <= began);
      if (untouched && accepting()) {
        const until = Math.min(at + ttlMs, expiresAt ? expiresAt(value) : Infinity);
        if (until > now().getTime()) keep(key, value, named, until);
      }
      return value;
    },
    purge(tags) {
      generation += 1;
      // Past the bound, forget every purged tag at once and count it as a clear: loads still running are refused.
      if (purgedAt.size + tags.length > maxPurgedTags) {
        purgedAt.clear();
        clearedAt = generation;
      }
      for (const tag of tags) {
        purgedAt.set(tag, generation);
        const keys = byTag.get(tag);
        if (keys) for (const key of [...keys]) remove(key);
      }
    },
    clear() {
      generation += 1;
      clearedAt = generation;
      purgedAt.clear();
      entries.clear();
      byTag.clear();
    },
    stats: () => ({ entries: entries.size, hits, misses }),
  };
}
