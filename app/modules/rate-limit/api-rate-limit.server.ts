/**
 * Per-key limits of the token API (docs/decisions/009-token-api.md): an hourly quota and a burst limit,
 * each a fixed window per key in rate-limiter-flexible's database store — atomic under concurrency,
 * persistent across restarts, shared by every process on Postgres.
 */
import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { DatabaseHandle } from "~db/client";
import { createCounter } from "~db/rate-limit-store";
import type { RateLimits } from "~/modules/plans/tiers";

const HOUR = 3_600;
const BURST_WINDOW = 60;

export interface RateLimitState {
  /** The hourly quota (X-RateLimit-Limit). */
  limit: number;
  /** Requests left in the hourly window (X-RateLimit-Remaining). */
  remaining: number;
  /** Unix seconds at which the hourly window resets (X-RateLimit-Reset). */
  reset: number;
  /** Set when the request is refused: seconds until the limit that refused it admits the next request. */
  retryAfter?: number;
}

export interface ApiRateLimit {
  /** Counts one request of `keyId`, or refuses it (retryAfter set) without counting it against the hour. */
  consume(keyId: string, limits: RateLimits): Promise<RateLimitState>;
  /** The hourly window as it stands, counting nothing (for the console). */
  peek(keyId: string, limits: RateLimits): Promise<RateLimitState>;
  /** Drops a key's counters (its account was deleted). */
  forget(keyId: string): Promise<void>;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export function createApiRateLimit(handle: DatabaseHandle): ApiRateLimit {
  // One limiter per distinct allowance (counts are shared through the key prefix, so a tier change keeps them).
  const limiters = new Map<string, RateLimiterAbstract>();
  const limiter = (prefix: string, points: number, duration: number) => {
    const id = `${prefix}:${points}`;
    let found = limiters.get(id);
    if (!found) {
      found = createCounter(handle, { keyPrefix: prefix, points, durationSeconds: duration });
      limiters.set(id, found);
    }
    return found;
  };
  const hourly = (limits: RateLimits) => limiter("api-hour", limits.perHour, HOUR);
  const burst = (limits: RateLimits) => limiter("api-burst", limits.burst, BURST_WINDOW);

  const stateOf = (limits: RateLimits, res: RateLimiterRes | null): RateLimitState => {
    const used = res?.consumedPoints ?? 0;
    const msLeft = res && res.msBeforeNext > 0 ? res.msBeforeNext : HOUR * 1000;
    return {
      limit: limits.perHour,
      remaining: Math.max(0, limits.perHour - used),
      reset: Math.ceil((Date.now() + msLeft) / 1000),
    };
  };

  const refusal = (reason: unknown): RateLimiterRes => {
    if (reason instanceof RateLimiterRes) return reason;
    throw reason;
  };

  return {
    async consume(keyId, limits) {
      try {
        await burst(limits).consume(keyId);
      } catch (reason) {
        const refused = refusal(reason);
        return { ...stateOf(limits, await hourly(limits).get(keyId)), retryAfter: seconds(refused.msBeforeNext) };
      }
      try {
        return stateOf(limits, await hourly(limits).consume(keyId));
      } catch (reason) {
        const refused = refusal(reason);
        return { ...stateOf(limits, refused), retryAfter: seconds(refused.msBeforeNext) };
      }
    },
    async peek(keyId, limits) {
      return stateOf(limits, await hourly(limits).get(keyId));
    },
    async forget(keyId) {
      // Any allowance reaches the shared rows: the counters are keyed by prefix and key id only.
      const any = { perHour: 1, burst: 1 };
      await Promise.all([hourly(any).delete(keyId), burst(any).delete(keyId)]);
    },
  };
}
