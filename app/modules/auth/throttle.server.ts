/**
 * Sign-in and sign-up throttle: after AUTH_THROTTLE_MAX_FAILURES failures within the window, per email and
 * per client address, further attempts are refused with 429 until the window passes. Counters live in the
 * database (rate-limiter-flexible), so they survive restarts and are shared between processes on Postgres.
 */
import { createHash } from "node:crypto";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { createCounter } from "~db/rate-limit-store";
import type { DatabaseHandle } from "~db/client";
import type { Env } from "~/lib/env.server";

export interface AuthThrottle {
  /** Seconds to wait when either counter is exhausted, else 0. */
  retryAfter(email: string, ip: string): Promise<number>;
  recordFailure(email: string, ip: string): Promise<void>;
  /** A success clears the email's counter; the address keeps its count (one address, many accounts). */
  recordSuccess(email: string): Promise<void>;
  forget(email: string): Promise<void>;
}

/** Counter keys never hold an address or email in clear: the table is not a second user directory. */
const keyOf = (value: string) => createHash("sha256").update(value.trim().toLowerCase()).digest("base64url");

export async function createAuthThrottle(handle: DatabaseHandle, env: Env): Promise<AuthThrottle> {
  const options = { points: env.AUTH_THROTTLE_MAX_FAILURES, durationSeconds: env.AUTH_THROTTLE_WINDOW_MINUTES * 60 };
  const [byEmail, byIp] = await Promise.all([
    createCounter(handle, { keyPrefix: "auth-email", ...options }),
    createCounter(handle, { keyPrefix: "auth-ip", ...options }),
  ]);

  const wait = async (limiter: RateLimiterAbstract, key: string) => {
    const res = await limiter.get(key);
    return res && res.consumedPoints >= options.points ? Math.ceil(res.msBeforeNext / 1000) : 0;
  };

  return {
    async retryAfter(email, ip) {
      const [a, b] = await Promise.all([wait(byEmail, keyOf(email)), wait(byIp, keyOf(ip))]);
      return Math.max(a, b);
    },
    async recordFailure(email, ip) {
      // penalty() counts without throwing when the counter is already full.
      await Promise.all([byEmail.penalty(keyOf(email)), byIp.penalty(keyOf(ip))]);
    },
    async recordSuccess(email) {
      await byEmail.delete(keyOf(email));
    },
    async forget(email) {
      await byEmail.delete(keyOf(email));
    },
  };
}
