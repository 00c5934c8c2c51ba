/**
 * Failed token-API authentications per client address (API_AUTH_FAILURES_PER_MINUTE), so key guessing is
 * slow. Failures are counted in the database (rate-limiter-flexible), shared by every process; the resulting
 * block is remembered in the process that recorded the failure reaching the limit, so a successful request
 * never pays a database read for it. Another process blocks the address at its next failure there
 * (docs/decisions/009-token-api.md).
 */
import type { DatabaseHandle } from "~db/client";
import { addressKey } from "~/lib/client-address";
import { now } from "~/lib/clock.server";
import { createCounter } from "./counter.server";

export interface BearerFailures {
  /** Seconds this address must still wait, or 0. */
  blockedFor(ip: string): number;
  record(ip: string): Promise<void>;
}

const MAX_REMEMBERED = 10_000;

export function createBearerFailures(handle: DatabaseHandle, perMinute: number): BearerFailures {
  const counter = createCounter(handle, { keyPrefix: "api-auth-ip", points: perMinute, durationSeconds: 60 });
  const blockedUntil = new Map<string, number>();

  return {
    blockedFor(ip) {
      const until = blockedUntil.get(addressKey(ip));
      if (until === undefined) return 0;
      const ms = until - now().getTime();
      if (ms > 0) return Math.ceil(ms / 1000);
      blockedUntil.delete(addressKey(ip));
      return 0;
    },
    async record(ip) {
      const state = await counter.penalty(addressKey(ip));
      if (state.consumed < perMinute) return;
      if (blockedUntil.size >= MAX_REMEMBERED) blockedUntil.delete(blockedUntil.keys().next().value!);
      blockedUntil.set(addressKey(ip), now().getTime() + state.msBeforeNext);
    },
  };
}
