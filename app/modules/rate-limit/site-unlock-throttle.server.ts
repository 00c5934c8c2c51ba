/**
 * Password guesses on a protected site's unlock page (`/{site}/unlock`, ADR 023), per client address and site.
 * Like sign-in (auth-throttle.server.ts), an attempt is taken _before_ the password is checked, so a burst of
 * parallel guesses cannot all reach scrypt first; a right password gives the address its allowance back.
 * Per site as well as per address: visitors behind one office NAT opening different businesses' sites do not
 * share an allowance, and one site's typos do not lock another.
 *
 * There is deliberately no per-site cap across addresses: it would let anyone lock every visitor out of a
 * site by failing on purpose. A site password has at least 8 characters and every guess costs an scrypt; the
 * per-address limit (with IPv6 counted per /64, `addressKey`) is what bounds a guesser.
 */
import type { DatabaseHandle } from "~db/client";
import { addressKey } from "~/lib/client-address";
import { createCounter, refuseIfSpent } from "./counter.server";

/** Wrong passwords an address may try on one site per window. */
export const SITE_UNLOCK_MAX_ATTEMPTS = 5;
export const SITE_UNLOCK_WINDOW_MINUTES = 15;

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
  return {
    async begin(workspaceId, ip) {
      const key = `${workspaceId}\n${addressKey(ip)}`;
      refuseIfSpent([await byAddress.consume(key)], "password attempts");
      return {
        async succeeded() {
          await byAddress.delete(key);
        },
      };
    },
  };
}
