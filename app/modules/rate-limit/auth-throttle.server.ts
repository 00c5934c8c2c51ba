/**
 * Sign-in and sign-up throttle (ADR 004). Counters live in the database (rate-limiter-flexible): they survive
 * restarts and are shared between processes on Postgres.
 *
 * Sign-in counts guesses where they come from, so that nobody can lock an operator out by failing on purpose:
 * - per (e-mail, address) pair, AUTH_THROTTLE_MAX_FAILURES per window: the attacker's address is refused
 *   for that e-mail, the owner's address is not;
 * - per address, four times that: an address may be an office behind one NAT, where one person's typos must
 *   not lock out a colleague, yet one address still cannot spray guesses over many e-mails;
 * - per e-mail, a ceiling of ten times that, for guesses spread over many addresses. Over the ceiling an
 *   address gets one guess at that e-mail per window instead of AUTH_THROTTLE_MAX_FAILURES, and a correct
 *   password from an address with no failures for it still gets in. The trade-off: while an account is under
 *   such an attack, its owner's own typo locks their address out for the window, like the attacker's.
 * Each pair and address attempt is taken with the store's atomic increment _before_ the password is checked,
 * so a burst of parallel guesses cannot all pass the check first; a success gives them back.
 *
 * Sign-up counts every attempt, successful or not, per address and per e-mail: each one sends an e-mail, and
 * nothing else slows the creation of accounts in bulk.
 */
import type { DatabaseHandle } from "~db/client";
import type { Env } from "~/lib/env.server";
import { createCounter, refuse, refuseIfSpent } from "./counter.server";

export interface AuthThrottle {
  /** Before a password check: takes one attempt from the pair's and the address's allowance; 429 when spent. */
  beginSignIn(email: string, ip: string): Promise<void>;
  /** The password was right: the pair starts afresh and the address gets its attempt back. */
  signInSucceeded(email: string, ip: string): Promise<void>;
  /** The password was wrong (or the account unknown): counts towards the e-mail's ceiling. */
  signInFailed(email: string): Promise<void>;
  /** One sign-up attempt, counted per address and per e-mail whatever its outcome; 429 when spent. */
  signUp(email: string, ip: string): Promise<void>;
  /** Drops the e-mail's counters that are not tied to an address (its account was deleted). */
  forget(email: string): Promise<void>;
}

/** One counter per person, however they type their address. */
const keyOf = (value: string) => value.trim().toLowerCase();
const pairOf = (email: string, ip: string) => `${keyOf(email)}\n${keyOf(ip)}`;

export function createAuthThrottle(handle: DatabaseHandle, env: Env): AuthThrottle {
  const durationSeconds = env.AUTH_THROTTLE_WINDOW_MINUTES * 60;
  const max = env.AUTH_THROTTLE_MAX_FAILURES;
  const byPair = createCounter(handle, { keyPrefix: "auth-pair", points: max, durationSeconds });
  const byIp = createCounter(handle, { keyPrefix: "auth-ip", points: max * 4, durationSeconds });
  const ceiling = max * 10;
  const byEmail = createCounter(handle, { keyPrefix: "auth-email", points: ceiling, durationSeconds });
  const signUpOptions = { points: env.SIGNUPS_PER_ADDRESS_PER_HOUR, durationSeconds: 3600 };
  const signUpsByIp = createCounter(handle, { keyPrefix: "signup-ip", ...signUpOptions });
  const signUpsByEmail = createCounter(handle, { keyPrefix: "signup-email", points: max, durationSeconds });

  return {
    async beginSignIn(email, ip) {
      const [pair, address, failures] = await Promise.all([
        byPair.consume(pairOf(email, ip)),
        byIp.consume(keyOf(ip)),
        byEmail.peek(keyOf(email)),
      ]);
      refuseIfSpent([pair, address]);
      // Over the ceiling, only an address that has not failed at this e-mail yet may try (once).
      if (failures >= ceiling && pair.consumed > 1) refuse(pair.msBeforeNext);
    },
    async signInSucceeded(email, ip) {
      await Promise.all([byPair.delete(pairOf(email, ip)), byIp.reward(keyOf(ip), 1)]);
    },
    async signInFailed(email) {
      await byEmail.penalty(keyOf(email));
    },
    async signUp(email, ip) {
      refuseIfSpent(await Promise.all([signUpsByIp.consume(keyOf(ip)), signUpsByEmail.consume(keyOf(email))]));
    },
    async forget(email) {
      await Promise.all([byEmail.delete(keyOf(email)), signUpsByEmail.delete(keyOf(email))]);
    },
  };
}
