/**
 * Sign-in and sign-up throttle: AUTH_THROTTLE_MAX_FAILURES attempts per window, per email and per client
 * address; a successful attempt is given back. Each attempt is taken before the password is checked, with
 * the store's atomic increment, so a burst of parallel guesses cannot all pass the check first. Counters
 * live in the database (rate-limiter-flexible): they survive restarts and are shared between processes on
 * Postgres.
 */
import { RateLimiterRes } from "rate-limiter-flexible";
import type { DatabaseHandle } from "~db/client";
import { createCounter } from "~db/rate-limit-store";
import type { Env } from "~/lib/env.server";
import { sha256Base64url } from "~/lib/hash.server";
import { rateLimited } from "~/lib/errors";

export interface AuthThrottle {
  /** Takes one attempt from the email's and the address's allowance; throws the 429 when either is spent. */
  begin(email: string, ip: string): Promise<void>;
  /** The attempt succeeded: the address gets it back and the email starts afresh. */
  succeeded(email: string, ip: string): Promise<void>;
  /** Drops the email's counter (its account was deleted). */
  forget(email: string): Promise<void>;
}

/** Counter keys never hold an address or email in clear: the table is not a second user directory. */
const keyOf = (value: string) => sha256Base64url(value.trim().toLowerCase());

export function createAuthThrottle(handle: DatabaseHandle, env: Env): AuthThrottle {
  const options = { points: env.AUTH_THROTTLE_MAX_FAILURES, durationSeconds: env.AUTH_THROTTLE_WINDOW_MINUTES * 60 };
  const byEmail = createCounter(handle, { keyPrefix: "auth-email", ...options });
  const byIp = createCounter(handle, { keyPrefix: "auth-ip", ...options });

  return {
    async begin(email, ip) {
      const results = await Promise.allSettled([byEmail.consume(keyOf(email)), byIp.consume(keyOf(ip))]);
      let waitMs = 0;
      for (const result of results) {
        if (result.status === "fulfilled") continue;
        // consume() rejects with the counter's state when it is spent, or with an Error when the store fails.
        if (!(result.reason instanceof RateLimiterRes)) throw result.reason;
        waitMs = Math.max(waitMs, result.reason.msBeforeNext);
      }
      if (waitMs > 0) {
        const minutes = Math.ceil(waitMs / 60_000);
        throw rateLimited(
          waitMs / 1000,
          `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
        );
      }
    },
    async succeeded(email, ip) {
      await Promise.all([byEmail.delete(keyOf(email)), byIp.reward(keyOf(ip), 1)]);
    },
    async forget(email) {
      await byEmail.delete(keyOf(email));
    },
  };
}
