/**
 * Sign-in and sign-up throttle (ADR 004). Counters live in the database (rate-limiter-flexible): they survive
 * restarts and are shared between processes on Postgres. A client address counts as its addressKey: an IPv4
 * address, or an IPv6 address's /64, since one client holds a whole /64 and could otherwise pick a fresh address
 * for every guess.
 *
 * Sign-in counts guesses where they come from, so that nobody can lock an operator out by failing on purpose:
 * - per (e-mail, address) pair, AUTH_THROTTLE_MAX_FAILURES per window: the attacker's address is refused
 *   for that e-mail, the owner's address is not;
 * - per address, four times that: an address may be an office behind one NAT, where one person's typos must
 *   not lock out a colleague, yet one address still cannot spray guesses over many e-mails;
 * - per e-mail, a hard cap of ten times that on guesses from addresses the account has not signed in from
 *   (known-addresses.server.ts), for guesses spread over many addresses. Past the cap nothing from such an
 *   address reaches the password until the window resets, so the total is bounded however many addresses an
 *   attacker holds; the owner still gets in from an address they have signed in from before, which the cap
 *   does not count. The trade-off: the owner on a new address is refused too while the e-mail is over its cap.
 * Every attempt is taken with the store's atomic increment _before_ the password is checked, so a burst of
 * parallel guesses cannot all pass the check first; a success gives them back, and an attempt refused by one
 * counter gives the e-mail's cap back (it never reached the password).
 *
 * Sign-up counts every attempt, successful or not, per address and per e-mail: each one sends an e-mail, and
 * nothing else slows the creation of accounts in bulk.
 */
import type { DatabaseHandle } from "~db/client";
import { addressKey } from "~/lib/client-address";
import type { Env } from "~/lib/env.server";
import { createCounter, refuseIfSpent } from "./counter.server";

/** A sign-in attempt that the throttle let through to the password check. */
export interface SignInAttempt {
  /** The password was right: the pair starts afresh, and the address and the e-mail's cap get the attempt back. */
  succeeded(): Promise<void>;
}

export interface AuthThrottle {
  /**
   * Before a password check: takes one attempt from the pair's and the address's allowances and, unless the
   * account has signed in from this address before (`knownAddress`), from the e-mail's cap; 429 when one is
   * spent. A wrong password needs no further call: the attempt stays counted.
   */
  beginSignIn(email: string, ip: string, options: { knownAddress: boolean }): Promise<SignInAttempt>;
  /** One sign-up attempt, counted per address and per e-mail whatever its outcome; 429 when spent. */
  signUp(email: string, ip: string): Promise<void>;
  /** Drops the e-mail's counters that are not tied to an address (its account was deleted). */
  forget(email: string): Promise<void>;
}

/** One counter per person, however they type their address. */
const keyOf = (value: string) => value.trim().toLowerCase();
const pairOf = (email: string, ip: string) => `${keyOf(email)}\n${addressKey(ip)}`;

export function createAuthThrottle(handle: DatabaseHandle, env: Env): AuthThrottle {
  const durationSeconds = env.AUTH_THROTTLE_WINDOW_MINUTES * 60;
  const max = env.AUTH_THROTTLE_MAX_FAILURES;
  const byPair = createCounter(handle, { keyPrefix: "auth-pair", points: max, durationSeconds });
  const byIp = createCounter(handle, { keyPrefix: "auth-ip", points: max * 4, durationSeconds });
  const byEmail = createCounter(handle, { keyPrefix: "auth-email", points: max * 10, durationSeconds });
  const signUpOptions = { points: env.SIGNUPS_PER_ADDRESS_PER_HOUR, durationSeconds: 3600 };
  const signUpsByIp = createCounter(handle, { keyPrefix: "signup-ip", ...signUpOptions });
  const signUpsByEmail = createCounter(handle, { keyPrefix: "signup-email", points: max, durationSeconds });

  return {
    async beginSignIn(email, ip, { knownAddress }) {
      const pairKey = pairOf(email, ip);
      const ipKey = addressKey(ip);
      const emailKey = keyOf(email);
      const [pair, address, total] = await Promise.all([
        byPair.consume(pairKey),
        byIp.consume(ipKey),
        knownAddress ? undefined : byEmail.consume(emailKey),
      ]);
      const states = total ? [pair, address, total] : [pair, address];
      if (states.some((state) => state.refused)) {
        // Refused before the password check: only a guess that reaches it may use up the e-mail's cap.
        if (total && !total.refused) await byEmail.reward(emailKey, 1);
        refuseIfSpent(states);
      }
      return {
        async succeeded() {
          await Promise.all([
            byPair.delete(pairKey),
            byIp.reward(ipKey, 1),
            total ? byEmail.reward(emailKey, 1) : undefined,
          ]);
        },
      };
    },
    async signUp(email, ip) {
      refuseIfSpent(await Promise.all([signUpsByIp.consume(addressKey(ip)), signUpsByEmail.consume(keyOf(email))]));
    },
    async forget(email) {
      await Promise.all([byEmail.delete(keyOf(email)), signUpsByEmail.delete(keyOf(email))]);
    },
  };
}
