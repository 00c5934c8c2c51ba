/**
 * The page cache module (issue 15, ADR 026): the store (./store.server.ts), the front server.ts puts before
 * Express (./front.server.ts), the purge bus between processes (db/cache-bus.ts), and the outbound purge hook
 * (./hook.server.ts). Writes purge through `writeAndPurge`/`purgeTags` (./purge.server.ts), which find this
 * module's purger from the database handle.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { openPurgeBus, type PurgeBus } from "~db/cache-bus";
import type { DatabaseHandle } from "~db/client";
import { defineModule } from "~/lib/module";
import type { AppServices } from "~/lib/context";
import { configuredHosts, hostnameOf, isLoopback } from "~/modules/hosts/hosts.server";
import { createFront, unshared, type FrontOptions } from "./front.server";
import { createTaggedMemo, type TaggedMemo } from "./memo.server";
import { enqueuePurgeHook, PURGE_HOOK_JOB, purgeHookHandler } from "./hook.server";
import { purgeTags, registerPurger } from "./purge.server";
import { createPageStore, type PageStore } from "./store.server";

/** What the cache holds for one key (the stale-page diagnosis, `/api/routing-test`). */
export interface CachedPageInfo {
  key: string;
  tags: string[];
  /** ISO time the answer was rendered. */
  renderedAt: string;
  /** ISO time after which it is not served (the page's own limit or the cache's TTL). */
  expiresAt: string;
  bytes: number;
  hits: number;
  etag: string;
}

export interface PageCacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  /** Answers rendered by Remix in this process (tests assert that a hit renders nothing). */
  renders: number;
  /** Whether purges of other processes are heard (Postgres: the LISTEN connection is up); else nothing is stored. */
  listening: boolean;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface PageCacheService {
  /**
   * What the cache holds for a public URL as an anonymous visitor would request it: `host` as the request's
   * Host (a custom domain, or the deployment's host), `pathWithQuery` as requested (before any rewrite).
   */
  inspect(host: string, pathWithQuery: string): CachedPageInfo | null;
  /** Purges these tags in this process and tells the observers. */
  purge(tags: readonly string[]): void;
  /** Called with the tags of every purge this process applies (tests, the outbound hook, the diagnosis). */
  onPurge(listener: (tags: readonly string[]) => void): () => void;
  /**
   * `purgeTags` on this app's database: announced to every process (Postgres NOTIFY), purged here, and sent
   * to the outbound hook. For callers outside a module's write (the CLI, tests that run against the build).
   */
  purgeEverywhere(tags: readonly string[]): Promise<void>;
  /** Empties this process's cache (the bus lost its connection, another process wrote to SQLite). */
  clear(reason: string): void;
  stats(): PageCacheStats;
  /** server.ts: the request handler that answers hits and hands the rest to Express (`inner`). */
  front(inner: Handler, options: FrontOptions): Handler;
  /** Called once per request that enters Remix (getLoadContext): the render counter of `stats()`. */
  countRender(): void;
  /** Postgres: the backend pid of the LISTEN connection (tests terminate it); null otherwise or while down. */
  listenerPid(): number | null;
  /**
   * Data every render of a public page reads (a site's frame), kept between requests until one of `tags` is
   * purged — by the same purges, from this process or another, that drop cached pages (./memo.server.ts).
   */
  remember: TaggedMemo["remember"];
  memoStats(): ReturnType<TaggedMemo["stats"]>;
}

declare module "~/lib/context" {
  interface AppServices {
    pageCache: PageCacheService;
  }
}

function createPageCacheService(
  store: PageStore,
  bus: PurgeBus,
  logger: Logger,
  purgeEverywhere: (tags: readonly string[]) => Promise<void>,
  { maxBytes, maxEntryBytes, ttlSeconds }: { maxBytes: number; maxEntryBytes: number; ttlSeconds: number },
  stillServes: (host: string) => boolean,
): PageCacheService {
  const listeners = new Set<(tags: readonly string[]) => void>();
  let renders = 0;
  // Bounded well below the page store: an entry is one workspace's frame (a few KB) per address it is served at.
  const memo = createTaggedMemo({ maxEntries: 2_000, ttlMs: ttlSeconds * 1000, accepting: () => store.accepting });
  return {
    inspect(host, pathWithQuery) {
      const q = pathWithQuery.indexOf("?");
      const path = q === -1 ? pathWithQuery : pathWithQuery.slice(0, q);
      const search = q === -1 ? "" : pathWithQuery.slice(q);
      // The scheme is part of the key (an https answer carries HSTS): the https variant first, as browsers ask.
      for (const scheme of ["https", "http"]) {
        const key = store.keyOf(scheme, host, path, search);
        const entry = key === null ? undefined : store.peek(key);
        if (!entry) continue;
        return {
          key: entry.key,
          tags: entry.tags,
          renderedAt: new Date(entry.renderedAt).toISOString(),
          expiresAt: new Date(entry.expiresAt).toISOString(),
          bytes: entry.bytes,
          hits: entry.hits,
          etag: entry.etag,
        };
      }
      return null;
    },
    purge(tags) {
      store.purge(tags);
      memo.purge(tags);
      for (const listener of listeners) listener(tags);
    },
    purgeEverywhere,
    onPurge(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clear(reason) {
      const { entries } = store.stats();
      store.clear();
      memo.clear();
      if (entries) logger.info({ entries, reason }, "page cache emptied");
    },
    stats: () => ({ ...store.stats(), renders, listening: store.accepting }),
    // PAGE_CACHE_MAX_BYTES=0 turns the cache off: Express answers everything, as before issue 15.
    front: (inner, options) => {
      // The front says no to CDNs itself where it must (`shareable`); without it, Express's answers still do.
      if (maxBytes > 0) return createFront({ store, logger, maxEntryBytes, stillServes }, inner, options);
      return options.shareable ? inner : unshared(inner);
    },
    countRender() {
      renders += 1;
    },
    listenerPid: () => bus.listenerPid(),
    remember: (key, tags, load, expiresAt) => memo.remember(key, tags, load, expiresAt),
    memoStats: () => memo.stats(),
  };
}

/**
 * A purge that may change what serves which host (a workspace's whole tag: suspension, deletion, a new slug;
 * its domains tag: a domain verified, removed, made primary, its redirect switched). The domains module's
 * writes purge one of these in the same transaction as the change.
 */
const HOST_MAP_TAG = /^ws:[^:]+(:domains)?$/;

/**
 * The front's check on a hit: the deployment's own names (configured, loopback, the listening address) always
 * serve; a custom domain only while the domains registry, current, still has it (ADR 026).
 */
function hostCheck(services: Pick<AppServices, "env">): (host: string) => boolean {
  const own = new Set(configuredHosts(services.env).map((h) => h.hostname));
  const { HOST } = services.env;
  // As the hosts module names it (hosts.server.ts): a wildcard is no name; an IPv6 address is bracketed.
  const listening = ["0.0.0.0", "::", ""].includes(HOST)
    ? null
    : hostnameOf(HOST.includes(":") && !HOST.startsWith("[") ? `[${HOST}]` : HOST);
  if (listening) own.add(listening);
  return (host) => {
    const hostname = hostnameOf(host);
    if (hostname === null) return false;
    if (isLoopback(hostname) || own.has(hostname)) return true;
    // The domains module is built after this one: read through `services` when the request comes.
    return (services as AppServices).siteDomains?.servesNow(hostname) === true;
  };
}

/**
 * For a process that writes but serves no page (the CLI): its purges are announced to the running servers
 * (Postgres NOTIFY at commit; on SQLite a row of the purge log the servers poll) and purge
 * nothing here.
 */
export function registerAnnouncingPurger(handle: DatabaseHandle, databaseUrl: string): void {
  const bus = openPurgeBus(handle, { url: databaseUrl, origin: randomUUID() });
  registerPurger(handle.db, {
    announce: async (trx, tags) => {
      await bus.announce(trx, tags);
      // The CDN's purge too, whatever this process's environment says: the servers' runners deliver it when
      // their PAGE_CACHE_PURGE_HOOK_URL is set, and drop it when not.
      await enqueuePurgeHook(trx, tags);
    },
    purged: () => {},
  });
}

/** Each running app's store and bus, by its services object (the same one `start` and `stop` receive). */
const internals = new WeakMap<object, { store: PageStore; bus: PurgeBus }>();

export const cacheModule = defineModule({
  name: "cache",
  services: (services, handle) => {
    const { env, logger, db } = services;
    if (env.PAGE_CACHE_PURGE_HOOK_URL && !env.PAGE_CACHE_PURGE_HOOK_SECRET) {
      throw new Error("PAGE_CACHE_PURGE_HOOK_URL needs PAGE_CACHE_PURGE_HOOK_SECRET (a whsec_ secret) to sign with");
    }
    const store = createPageStore({
      maxBytes: env.PAGE_CACHE_MAX_BYTES,
      maxEntryBytes: env.PAGE_CACHE_MAX_ENTRY_BYTES,
      ttlSeconds: env.PAGE_CACHE_TTL_SECONDS,
    });
    const bus = openPurgeBus(handle, { url: env.DATABASE_URL, origin: randomUUID() });
    internals.set(services, { store, bus });
    const pageCache = createPageCacheService(
      store,
      bus,
      logger,
      (tags) => purgeTags(db, tags),
      {
        maxBytes: env.PAGE_CACHE_MAX_BYTES,
        maxEntryBytes: env.PAGE_CACHE_MAX_ENTRY_BYTES,
        ttlSeconds: env.PAGE_CACHE_TTL_SECONDS,
      },
      hostCheck(services),
    );
    const hook = Boolean(env.PAGE_CACHE_PURGE_HOOK_URL);
    registerPurger(db, {
      // The CDN's purge is queued in the same transaction as the write (./hook.server.ts).
      announce: async (trx, tags) => {
        await bus.announce(trx, tags);
        if (hook) await enqueuePurgeHook(trx, tags);
      },
      purged: (tags) => pageCache.purge(tags),
    });
    return { pageCache };
  },
  contributes: (services) => ({ jobs: { [PURGE_HOOK_JOB]: purgeHookHandler(services) } }),
  start: (services) => {
    const { pageCache, dialect, logger } = services;
    const own = internals.get(services);
    if (!own) return;
    // Until the Postgres LISTEN is up, a purge of another process could be missed: store nothing.
    if (dialect === "postgres") own.store.setAccepting(false);
    // Another process changed what serves which host: the registry reloads before the next render here (it
    // waits after `invalidate`), so no render after this purge is stored with the old host map; renders begun
    // before it are refused by the store's generation check.
    const invalidateHosts = () => services.siteDomains?.invalidate();
    own.bus.start({
      purge: (tags) => {
        if (tags.some((tag) => HOST_MAP_TAG.test(tag))) invalidateHosts();
        pageCache.purge(tags);
      },
      clear: (reason) => {
        invalidateHosts();
        pageCache.clear(reason);
      },
      listening: (value) => own.store.setAccepting(value),
      error: (error, message) => logger.warn({ err: error }, message),
    });
  },
  stop: async (services) => {
    await internals.get(services)?.bus.stop();
  },
});
