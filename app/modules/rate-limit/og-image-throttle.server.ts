/**
 * New share images a client address may have drawn per minute (`/{site}/og-image`, ADR 022). Every new title
 * is a render of a few tens of milliseconds of CPU, and titles are free text, so without a limit one client
 * could keep the renderer busy for every site. Only renders count: the route asks this before a cache miss,
 * never for an image already cached, so crawlers fetching the images pages name are not limited. Per address
 * across all sites (IPv6 per /64, `addressKey`): the cost is the server's, whichever site is asked.
 */
import type { DatabaseHandle } from "~db/client";
import { addressKey } from "~/lib/client-address";
import { createCounter, refuseIfSpent } from "./counter.server";

export interface OgImageThrottle {
  /** Takes one render from the address's allowance; throws a rate-limited error (429, Retry-After) when spent. */
  take(ip: string): Promise<void>;
}

export function createOgImageThrottle(handle: DatabaseHandle, perMinute: number): OgImageThrottle {
  const byAddress = createCounter(handle, { keyPrefix: "og-image-render", points: perMinute, durationSeconds: 60 });
  return {
    async take(ip) {
      refuseIfSpent([await byAddress.consume(addressKey(ip))], "new share images from this address");
    },
  };
}
