/**
 * Sign-in and sign-up throttle: AUTH_THROTTLE_MAX_FAILURES attempts per window, per email and per client
 * address; a successful attempt is given back. Each attempt is taken before the password is checked, with
 * the store's atomic increment, so a burst of parallel guesses cannot all pass the check first. Counters
 * live in the database (rate-limiter-flexible): they survive restarts and are shared between processes on
 * Postgres.
 */
import type { DatabaseHandle } from "~db/client";
import type { Env } from "~/lib/env.server";
import { rateLimited } from "~/lib/errors";
import { createCounter } from "./counter.server";

export interface AuthThrottle {
  /** Takes one attempt from the email's and the address's allowance; throws the 429 when either is spent. */
  begin(email: string, ip: string): Promise<void>;
  /** The attempt succeeded: the address gets it back and the email starts afresh. */
  succeeded(email: string, ip: string): Promise<void>;
  /** Drops the email's counter (its account was deleted). */
  forget(email: string): Promise<void>;
}

/** One counter per person, however they type their address. */
const keyOf = (value: string) => value.trim().toLowerCase();

export function createAuthThrottle(handle: DatabaseHandle, env: Env): AuthThrottle {
  const options = { points: env.AUTH_THROTTLE_MAX_FAILURES, durationSeconds: env.AUTH_THROTTLE_WINDOW_MINUTES * 60 };
  const byEmail = createCounter(handle, { keyPrefix: "auth-email", ...options });
  const byIp = createCounter(handle, { keyPrefix: "auth-ip", ...options });

  return {
    async begin(email, ip) {
      const states = await Promise.all([byEmail.consume(keyOf(email)), byIp.consume(keyOf(ip))]);
      const waitMs = Math.max(0, ...states.filter((s) => s.refused).map((s) => s.msBeforeNext));
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
