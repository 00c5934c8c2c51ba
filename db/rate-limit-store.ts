/**
 * The store behind the counters of app/modules/rate-limit (counter.server.ts), kept in the application
 * database so counters survive restarts and, on Postgres, are shared by every process (DESIGN rule 6).
 * rate-limiter-flexible has a store for each of our drivers; this is the only place that picks one, because
 * dialect branches live in db/ (rule 5).
 */
import { RateLimiterPostgres, RateLimiterSQLite, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { DatabaseHandle } from "./client";

export interface CounterStoreOptions {
  /** Distinguishes counters that share the table (e.g. `auth-email`). */
  keyPrefix: string;
  points: number;
  durationSeconds: number;
}

const TABLE = "rate_limit_counters";

export function openCounterStore(handle: DatabaseHandle, options: CounterStoreOptions): RateLimiterAbstract {
  const common = {
    keyPrefix: options.keyPrefix,
    points: options.points,
    duration: options.durationSeconds,
    tableName: TABLE,
    // Created by migration 0002, so processes starting together never race on CREATE TABLE.
    tableCreated: true,
  };
  const side = handle.sideClient();
  return side.dialect === "sqlite"
    ? new RateLimiterSQLite({ ...common, storeClient: side.client, storeType: "better-sqlite3" })
    : new RateLimiterPostgres({ ...common, storeClient: side.client, storeType: "pool" });
}
