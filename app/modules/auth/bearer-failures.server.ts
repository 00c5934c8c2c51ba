/**
 * Failed token-API authentications per client address (API_AUTH_FAILURES_PER_MINUTE), so key guessing is
 * slow. Failures are counted in the database (rate-limiter-flexible); the resulting block is remembered in
 * this process, so a successful request never pays a database read for it. With several processes, each
 * one learns of a block from the failures it sees itself (docs/decisions/009-token-api.md).
 */
import { createHash } from "node:crypto";
import { RateLimiterRes } from "rate-limiter-flexible";
import type { DatabaseHandle } from "~db/client";
import { createCounter } from "~db/rate-limit-store";

export interface BearerFailures {
  /** Seconds this address must still wait, or 0. */
  blockedFor(ip: string): number;
  record(ip: string): Promise<void>;
}

const MAX_REMEMBERED = 10_000;

export function createBearerFailures(handle: DatabaseHandle, perMinute: number): BearerFailures {
  const counter = createCounter(handle, { keyPrefix: "api-auth-ip", points: perMinute, durationSeconds: 60 });
  const blockedUntil = new Map<string, number>();
  const keyOf = (ip: string) => createHash("sha256").update(ip).digest("base64url");

  return {
    blockedFor(ip) {
      const until = blockedUntil.get(ip);
      if (until === undefined) return 0;
      const ms = until - Date.now();
      if (ms > 0) return Math.ceil(ms / 1000);
      blockedUntil.delete(ip);
      return 0;
    },
    async record(ip) {
      let state: RateLimiterRes;
      try {
        state = await counter.penalty(keyOf(ip));
      } catch (reason) {
        if (!(reason instanceof RateLimiterRes)) throw reason;
        state = reason;
      }
      if (state.consumedPoints < perMinute) return;
      if (blockedUntil.size >= MAX_REMEMBERED) blockedUntil.delete(blockedUntil.keys().next().value!);
      blockedUntil.set(ip, Date.now() + state.msBeforeNext);
    },
  };
}
