/**
 * Messages through a site's contact form, per client address and site (the public `POST /api/v1/contact`).
 * The form needs no account, so the address is the only handle on a flood: without it one script could fill
 * an inbox. Per site as well as per address, so that visitors behind one office NAT writing to different
 * businesses do not share an allowance. The number is a setting (CONTACT_MESSAGES_PER_ADDRESS_PER_HOUR):
 * a busy shop behind a shared address may need more.
 */
import type { DatabaseHandle } from "~db/client";
import { createCounter, refuseIfSpent } from "./counter.server";

export interface ContactThrottle {
  /** Takes one message from the address's allowance for this site; 429 when spent. */
  take(workspaceId: string, address: string): Promise<void>;
}

export function createContactThrottle(handle: DatabaseHandle, perHour: number): ContactThrottle {
  const byAddress = createCounter(handle, { keyPrefix: "contact-address", points: perHour, durationSeconds: 3600 });
  return {
    async take(workspaceId, address) {
      refuseIfSpent([await byAddress.consume(`${workspaceId}:${address}`)], "messages from this address");
    },
  };
}
