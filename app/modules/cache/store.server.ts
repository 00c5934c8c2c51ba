/**
 * The page cache's store (issue 15, ADR 026): an LRU bounded by bytes, a tag → keys index, and the purge
 * generations that stop a render which read old data from being stored after the purge that made it old.
 *
 * Tags are hierarchical: an entry tagged `ws:A:media:f1` is purged by `ws:A:media:f1`, by `ws:A:media` and by
 * `ws:A` (suspending a workspace purges everything of it, whatever its answers declared).
 */
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";

/** Query parameters no page reads (campaign tracking): ignored by the key, never a reason to bypass. */
const MARKETING_PARAM = /^(utm_[a-z0-9_]*|fbclid|gclid|msclkid)$/i;

export interface StoredAnswer {
  status: number;
  /** Replayed on a hit: the answer's headers minus per-request ones (X-Request-Id, Date, lengths, encodings). */
  headers: Array<[string, string]>;
  identity: Buffer;
  gzip: Buffer | null;
  br: Buffer | null;
  etag: string;
  tags: string[];
  varyQuery: string[];
  renderedAt: number;
  expiresAt: number;
  /** The request log's fields of the render, replayed on the hit's log line. */
  log: { callerType?: string; route?: string };
}

export interface CacheEntry extends StoredAnswer {
  key: string;
  base: string;
  bytes: number;
  hits: number;
}

export interface StoreOptions {
  maxBytes: number;
  maxEntryBytes: number;
  ttlSeconds: number;
  now?: () => number;
  /**
   * How many purged tags the generation check remembers while renders are in flight (default 10,000). On a
   * busy node renders overlap without end, so the set is never emptied by "no render in flight": past this
   * bound it is dropped and every render begun before that point is refused instead (review of issue 15).
   */
  maxPurgedTags?: number;
}

/**
 * The path as the router sees it, so that spellings of one page are one key (review of issue 15): percent-encoded
 * unreserved characters decoded (`/%61bout` is `/about`), other escapes in upper case, and no trailing slash
 * (`/about/` is `/about`: Remix answers both with the same route). Anything else (`%2F`, `//`) stays distinct.
 */
export function keyPath(path: string): string {
  let out = path.includes("%")
    ? path.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
        const char = String.fromCharCode(parseInt(hex, 16));
        return /[A-Za-z0-9\-._~]/.test(char) ? char : escape.toUpperCase();
      })
    : path;
  while (out.length > 1 && out.endsWith("/")) out = out.slice(0, -1);
  return out;
}

/** `scheme://host/path`: the part of the key every variant of one URL shares. */
export function baseKey(scheme: string, host: string, path: string): string {
  return `${scheme}://${host.toLowerCase()}${keyPath(path)}`;
}

/**
 * The query of a request as the cache sees it: the parameters that count (marketing ones dropped), in a
 * canonical order (by name, then as given), so `?b=2&a=1` and `?a=1&b=2&utm_source=x` are one key.
 */
export function countedParams(search: string): Array<[string, string]> {
  if (search === "" || search === "?") return [];
  const params: Array<[string, string]> = [];
  for (const [name, value] of new URLSearchParams(search)) if (!MARKETING_PARAM.test(name)) params.push([name, value]);
  return params.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

function fullKey(base: string, params: Array<[string, string]>): string {
  return params.length ? `${base}?${new URLSearchParams(params).toString()}` : base;
}

/** Every tag an entry tag is purged by: itself and its ancestors (`ws:A:page:p` → `ws:A:page`, `ws:A`). */
function tagAncestry(tag: string): string[] {
  const parts = tag.split(":");
  const out: string[] = [];
  for (let i = parts.length; i >= 2; i--) out.push(parts.slice(0, i).join(":"));
  return out.length ? out : [tag];
}

/** A strong validator over the identity bytes: the same bytes, the same ETag, whoever rendered them. */
export function strongEtag(body: Buffer): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
}

/** Whether an answer is worth compressed copies: text-like and not tiny. */
export function compressible(identity: Buffer, contentType: string | undefined): boolean {
  return (
    identity.length >= 256 &&
    /^(text\/|application\/(json|xml|javascript|.*\+xml|.*\+json)|image\/svg)/i.test(contentType ?? "")
  );
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * The compressed copies of a stored answer, made once per entry in zlib's thread pool, off the event loop (a
 * stream of new keys must not each cost a synchronous compression); until they are attached the entry is sent
 * as is. A copy no smaller than the original is not kept.
 */
export async function compressCopies(identity: Buffer): Promise<{ gzip: Buffer | null; br: Buffer | null }> {
  const [gz, br] = await Promise.all([
    gzipAsync(identity, { level: 6 }),
    brotliAsync(identity, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length },
    }),
  ]);
  return { gzip: gz.length < identity.length ? gz : null, br: br.length < identity.length ? br : null };
}

export type LookupResult =
  | { kind: "hit"; entry: CacheEntry }
  | { kind: "miss"; key: string; params: Array<[string, string]> }
  /** A parameter the stored answer does not declare: the answer for it may differ, so it is not cached. */
  | { kind: "bypass" };

export function createPageStore(options: StoreOptions) {
  const now = options.now ?? Date.now;
  const entries = new Map<string, CacheEntry>();
  /** Per base key: the query parameters its answer declared, and how many entries share that base. */
  const bases = new Map<string, { varyQuery: string[]; count: number }>();
  const byTag = new Map<string, Set<string>>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;

  /** Bumped by every purge and clear; a render records it when it starts. */
  let generation = 0;
  let clearedAt = 0;
  /** The generation of each tag's latest purge, kept only while a render that started before it may finish. */
  const purgedAt = new Map<string, number>();
  const maxPurgedTags = options.maxPurgedTags ?? 10_000;
  /** Renders begun before this generation are not stored: `purgedAt` was dropped when it grew past its bound. */
  let forgottenAt = 0;
  let rendersInFlight = 0;
  /** While false (the purge bus is not listening), nothing is stored: a purge might be missed. */
  let accepting = true;

  function remove(key: string): void {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
    for (const tag of entry.tags) {
      for (const name of tagAncestry(tag)) {
        const keys = byTag.get(name);
        if (!keys) continue;
        keys.delete(key);
        if (keys.size === 0) byTag.delete(name);
      }
    }
    const base = bases.get(entry.base);
    if (base && --base.count === 0) bases.delete(entry.base);
  }

  function lookup(scheme: string, host: string, path: string, search: string): LookupResult {
    const base = baseKey(scheme, host, path);
    const params = countedParams(search);
    const declared = bases.get(base);
    if (declared && params.some(([name]) => !declared.varyQuery.includes(name))) return { kind: "bypass" };
    const key = fullKey(base, params);
    const entry = entries.get(key);
    if (entry && entry.expiresAt > now()) {
      // Most recently used last: the Map's first key is the one to evict.
      entries.delete(key);
      entries.set(key, entry);
      entry.hits += 1;
      hits += 1;
      return { kind: "hit", entry };
    }
    if (entry) remove(key);
    misses += 1;
    return { kind: "miss", key, params };
  }

  return {
    lookup,
    peek(key: string): CacheEntry | undefined {
      const entry = entries.get(key);
      return entry && entry.expiresAt > now() ? entry : undefined;
    },
    /** The key a request would have, for `inspect` (no counters, no LRU touch). */
    keyOf(scheme: string, host: string, path: string, search: string): string | null {
      const base = baseKey(scheme, host, path);
      const params = countedParams(search);
      const declared = bases.get(base);
      if (declared && params.some(([name]) => !declared.varyQuery.includes(name))) return null;
      return fullKey(base, params);
    },

    /** A render begins: its generation, to hand back to `put`. Pair with `renderDone`. */
    renderStarted(): number {
      rendersInFlight += 1;
      return generation;
    },
    renderDone(): void {
      rendersInFlight -= 1;
      if (rendersInFlight === 0) purgedAt.clear();
    },

    /**
     * Stores a rendered answer unless it is too big, the bus is down, or something it shows was purged (or the
     * cache cleared) after its render started: that render may have read what the purge made old.
     */
    put(
      requestKey: { scheme: string; host: string; path: string; params: Array<[string, string]> },
      answer: Omit<StoredAnswer, "renderedAt" | "expiresAt"> & { until?: number },
      startedAt: number,
    ): CacheEntry | null {
      if (!accepting || clearedAt > startedAt || forgottenAt > startedAt) return null;
      if (answer.identity.length > options.maxEntryBytes) return null;
      for (const tag of answer.tags) {
        for (const name of tagAncestry(tag)) if ((purgedAt.get(name) ?? -1) > startedAt) return null;
      }
      // The request carried a parameter its answer does not declare: that answer is not the key's.
      if (requestKey.params.some(([name]) => !answer.varyQuery.includes(name))) return null;
      const base = baseKey(requestKey.scheme, requestKey.host, requestKey.path);
      const declared = bases.get(base);
      if (declared && declared.varyQuery.join(",") !== answer.varyQuery.join(",")) {
        // The page now declares other parameters: forget every variant stored under the old declaration.
        for (const [key, entry] of entries) if (entry.base === base) remove(key);
      }
      const key = fullKey(base, requestKey.params);
      remove(key);
      const renderedAt = now();
      const ttlEnd = renderedAt + options.ttlSeconds * 1000;
      const expiresAt = answer.until !== undefined ? Math.min(answer.until, ttlEnd) : ttlEnd;
      if (expiresAt <= renderedAt) return null;
      const headerBytes = answer.headers.reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0);
      const size =
        answer.identity.length +
        (answer.gzip?.length ?? 0) +
        (answer.br?.length ?? 0) +
        headerBytes +
        key.length * 2 +
        256;
      if (size > options.maxBytes) return null;
      while (bytes + size > options.maxBytes && entries.size) remove(entries.keys().next().value!);
      const { until: _until, ...stored } = answer;
      const entry: CacheEntry = { ...stored, key, base, renderedAt, expiresAt, bytes: size, hits: 0 };
      entries.set(key, entry);
      bytes += size;
      const entryBase = bases.get(base);
      if (entryBase) entryBase.count += 1;
      else bases.set(base, { varyQuery: answer.varyQuery, count: 1 });
      for (const tag of entry.tags) {
        for (const name of tagAncestry(tag)) {
          let keys = byTag.get(name);
          if (!keys) byTag.set(name, (keys = new Set()));
          keys.add(key);
        }
      }
      return entry;
    },

    /** Attaches an entry's compressed copies (`compressCopies`), if it is still stored, within the byte bound. */
    attachCompressed(entry: CacheEntry, copies: { gzip: Buffer | null; br: Buffer | null }): void {
      if (entries.get(entry.key) !== entry) return;
      const added = (copies.gzip?.length ?? 0) + (copies.br?.length ?? 0);
      if (bytes + added > options.maxBytes) {
        for (const key of [...entries.keys()]) {
          if (bytes + added <= options.maxBytes) break;
          if (key !== entry.key) remove(key);
        }
        if (bytes + added > options.maxBytes) return;
      }
      entry.gzip = copies.gzip;
      entry.br = copies.br;
      entry.bytes += added;
      bytes += added;
    },

    /** Removes every entry carrying one of these tags (or a descendant of one); returns how many. */
    purge(tags: readonly string[]): number {
      generation += 1;
      let removed = 0;
      if (rendersInFlight > 0 && purgedAt.size + tags.length > maxPurgedTags) {
        purgedAt.clear();
        forgottenAt = generation;
      }
      for (const tag of tags) {
        if (rendersInFlight > 0 && forgottenAt !== generation) purgedAt.set(tag, generation);
        const keys = byTag.get(tag);
        if (!keys) continue;
        for (const key of [...keys]) {
          remove(key);
          removed += 1;
        }
      }
      return removed;
    },

    clear(): void {
      generation += 1;
      clearedAt = generation;
      entries.clear();
      bases.clear();
      byTag.clear();
      bytes = 0;
    },

    /** The purge bus lost (false) or regained (true) its connection. */
    setAccepting(value: boolean): void {
      accepting = value;
    },
    get accepting() {
      return accepting;
    },

    stats() {
      return { entries: entries.size, bytes, hits, misses };
    },
    /** How many purged tags the generation check holds (bounded by `maxPurgedTags`). */
    purgedTagsHeld: () => purgedAt.size,
  };
}

export type PageStore = ReturnType<typeof createPageStore>;
