/**
 * A named counter of attempts per key over a fixed window, in the database (db/rate-limit-store.ts): the one
 * wrapper around rate-limiter-flexible that the throttles beside this file share.
 *
 * rate-limiter-flexible rejects `consume` with a `RateLimiterRes` when the allowance is spent and with an
 * Error when the store fails; the throttles need the first as an answer and the second as a failure, so this
 * is the only place that tells them apart. Keys are hashed here: the counters' table holds no address or
 * email in clear, so it is not a second user directory.
 */
import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { DatabaseHandle } from "~db/client";
import { openCounterStore, type CounterStoreOptions } from "~db/rate-limit-store";
import { rateLimited } from "~/lib/errors";
import { sha256Base64url } from "~/lib/hash.server";

export type CounterOptions = CounterStoreOptions;

export interface CounterState {
  /** The allowance was already spent: the attempt was refused (and not counted). */
  refused: boolean;
  /** Attempts counted in the current window. */
  consumed: number;
  /** Milliseconds until the window resets. */
  msBeforeNext: number;
}

export interface Counter {
  /** Counts one attempt if the allowance admits it. */
  consume(key: string): Promise<CounterState>;
  /** Counts one attempt whatever the allowance says (a failure that has already happened). */
  penalty(key: string): Promise<CounterState>;
  /** Attempts counted in the current window, without counting one (0 when the key has none). */
  peek(key: string): Promise<number>;
  /** Gives `points` attempts back. */
  reward(key: string, points: number): Promise<void>;
  /** Starts the key afresh. */
  delete(key: string): Promise<void>;
}

async function settle(attempt: Promise<RateLimiterRes>): Promise<CounterState> {
  try {
    const res = await attempt;
    return { refused: false, consumed: res.consumedPoints, msBeforeNext: res.msBeforeNext };
  } catch (reason) {
    if (!(reason instanceof RateLimiterRes)) throw reason;
    return { refused: true, consumed: reason.consumedPoints, msBeforeNext: reason.msBeforeNext };
  }
}

/** The throttles' one refusal: a 429 whose message says, in minutes, how long to wait before more `what`. */
export function refuse(waitMs: number, what = "attempts"): never {
  const minutes = Math.ceil(waitMs / 60_000);
  throw rateLimited(waitMs / 1000, `Too many ${what}. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`);
}

/** Refuses when any of `states` was refused, for as long as the longest of them has left. */
export function refuseIfSpent(states: CounterState[], what = "attempts"): void {
  const waitMs = Math.max(0, ...states.filter((s) => s.refused).map((s) => s.msBeforeNext));
  if (waitMs > 0) refuse(waitMs, what);
}

export function createCounter(handle: DatabaseHandle, options: CounterOptions): Counter {
  const store: RateLimiterAbstract = openCounterStore(handle, options);
  return {
    consume: (key) => settle(store.consume(sha256Base64url(key))),
    penalty: (key) => settle(store.penalty(sha256Base64url(key))),
    async peek(key) {
      return (await store.get(sha256Base64url(key)))?.consumedPoints ?? 0;
    },
    async reward(key, points) {
      await store.reward(sha256Base64url(key), points);
    },
    async delete(key) {
      await store.delete(sha256Base64url(key));
    },
  };
}
