/**
 * Calls of `/api/routing-test` a client address may make per minute (attacker review #1). The route is public
 * and each call reads the site, its page and the domains registry: without a limit, one client could keep the
 * database busy with it. Per address across all sites (IPv6 per /64, `addressKey`).
 */
import type { DatabaseHandle } from "~db/client";
import { addressKey } from "~/lib/client-address";
import { createCounter, refuseIfSpent } from "./counter.server";

export interface RoutingTestThrottle {
  /** Takes one call from the address's allowance; throws a rate-limited error (429, Retry-After) when spent. */
  take(ip: string): Promise<void>;
}

export function createRoutingTestThrottle(handle: DatabaseHandle, perMinute: number): RoutingTestThrottle {
  const byAddress = createCounter(handle, { keyPrefix: "routing-test", points: perMinute, durationSeconds: 60 });
  return {
    async take(ip) {
      refuseIfSpent([await byAddress.consume(addressKey(ip))], "routing tests from this address");
    },
  };
}
