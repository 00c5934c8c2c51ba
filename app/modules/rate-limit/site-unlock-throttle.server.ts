/**
 * Password guesses on a protected site's unlock page (`/{site}/unlock`, ADR 023), per client address and site.
 * Like sign-in (auth-throttle.server.ts), an attempt is taken _before_ the password is checked, so a burst of
 * parallel guesses cannot all reach scrypt first; a right password gives the address its allowance back.
 * Per site as well as per address: visitors behind one office NAT opening different businesses' sites do not
 * share an allowance, and one site's typos do not lock another.
 *
 * The scrypt work across addresses is bounded too (security review L5): at most `SITE_UNLOCK_SITE_MAX_ATTEMPTS`
 * guesses a minute on one site, from everyone together, so a botnet or an IPv6 /48 (65,536 /64s) cannot keep
 * the server's CPU busy with one site's `/unlock`. It slows, never locks out: the window is one minute, so a
 * visitor is kept waiting a minute at most after the flood stops; visitors who already unlocked are not
 * asked (their cookie is checked without scrypt); and an attempt refused by either limit costs no scrypt.
 * To keep new visitors out, an attacker must go on sending 60 wrong guesses every minute from 180 or more
 * addresses (each has 5 per 15 minutes); while they do, the cap holds that site's scrypt work to one a second.
 */
import type { DatabaseHandle } from "~db/client";
import { addressKey } from "~/lib/client-address";
import { createCounter, refuseIfSpent } from "./counter.server";

/** Wrong passwords an address may try on one site per window. */
export const SITE_UNLOCK_MAX_ATTEMPTS = 5;
export const SITE_UNLOCK_WINDOW_MINUTES = 15;
/** Guesses one site takes a minute from all addresses together: each costs an scrypt. */
export const SITE_UNLOCK_SITE_MAX_ATTEMPTS = 60;

export interface SiteUnlockAttempt {
  /** The password was right: the address starts afresh on this site. */
  succeeded(): Promise<void>;
}

export interface SiteUnlockThrottle {
  /** Before a password check: takes one attempt; 429 (with Retry-After) when the allowance is spent. */
  begin(workspaceId: string, ip: string): Promise<SiteUnlockAttempt>;
}

export function createSiteUnlockThrottle(handle: DatabaseHandle): SiteUnlockThrottle {
  const byAddress = createCounter(handle, {
    keyPrefix: "site-unlock",
    points: SITE_UNLOCK_MAX_ATTEMPTS,
    durationSeconds: SITE_UNLOCK_WINDOW_MINUTES * 60,
  });
  const bySite = createCounter(handle, {
    keyPrefix: "site-unlock-all",
    points: SITE_UNLOCK_SITE_MAX_ATTEMPTS,
    durationSeconds: 60,
  });
  return {
    async begin(workspaceId, ip) {
      const key = `${workspaceId}\n${addressKey(ip)}`;
      // The address first: one guesser refused here does not spend the site's allowance for everyone else.
      refuseIfSpent([await byAddress.consume(key)], "password attempts");
      const site = await bySite.consume(workspaceId);
      if (site.refused) {
        // Not this address's doing: the attempt it was charged never reaches scrypt, so it gets it back.
        await byAddress.reward(key, 1);
        refuseIfSpent([site], "password attempts on this site");
      }
      return {
        async succeeded() {
          await byAddress.delete(key);
          await bySite.reward(workspaceId, 1);
        },
      };
    },
  };
}
