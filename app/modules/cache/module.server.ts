/**
 * The page cache module (issue 15, ADR 026). CONTRACT STAGE: this file gives the other parts of issue 15 the
 * purge API and its observers; the cache store, the front lookup in server.ts, the Postgres bus and the
 * outbound purge hook are being built behind the same `PageCacheService` interface.
 */
import { defineModule } from "~/lib/module";
import { registerPurger } from "./purge.server";

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
}

declare module "~/lib/context" {
  interface AppServices {
    pageCache: PageCacheService;
  }
}

function createPageCacheService(): PageCacheService {
  const listeners = new Set<(tags: readonly string[]) => void>();
  return {
    inspect: () => null,
    purge(tags) {
      for (const listener of listeners) listener(tags);
    },
    onPurge(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const cacheModule = defineModule({
  name: "cache",
  services: ({ db }) => {
    const pageCache = createPageCacheService();
    registerPurger(db, { announce: async () => {}, purged: (tags) => pageCache.purge(tags) });
    return { pageCache };
  },
});
