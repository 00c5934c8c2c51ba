import type { Generated } from "kysely";

/** Owned by `app/modules/cache` (db/cache-bus.ts). `cache_purges` was created in 0025-cache-purges. */

export interface CachePurgesTable {
  /** Commit order (SQLite AUTOINCREMENT); readers ask for what is past the last one they saw. */
  seq: Generated<number>;
  /** The announcing process, which purged itself after commit and skips its own rows. */
  origin: string;
  /** JSON array of the purged tags. */
  tags: string;
  created_at: string;
}

export interface CacheTables {
  cache_purges: CachePurgesTable;
}
