/**
 * Counters for throttles and rate limits, kept in the application database so they survive restarts and,
 * on Postgres, are shared by every process (DESIGN rule 6). rate-limiter-flexible has a store for each
 * of our drivers; this is the only place that picks one.
 */
import { RateLimiterPostgres, RateLimiterSQLite, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { DatabaseHandle } from "./client";

export interface CounterOptions {
  /** Distinguishes counters that share the table (e.g. `auth-email`). */
  keyPrefix: string;
  points: number;
  durationSeconds: number;
}

const TABLE = "rate_limit_counters";

export async function createCounter(handle: DatabaseHandle, options: CounterOptions): Promise<RateLimiterAbstract> {
  const common = {
    keyPrefix: options.keyPrefix,
    points: options.points,
    duration: options.durationSeconds,
    tableName: TABLE,
  };
  return new Promise((resolvePromise, reject) => {
    const ready = (err?: unknown) =>
      err ? reject(err instanceof Error ? err : new Error(String(err))) : resolvePromise(limiter);
    const limiter: RateLimiterAbstract =
      handle.driver.dialect === "sqlite"
        ? new RateLimiterSQLite({ ...common, storeClient: handle.driver.client, storeType: "better-sqlite3" }, ready)
        : new RateLimiterPostgres({ ...common, storeClient: handle.driver.client, storeType: "pool" }, ready);
  });
}
