/**
 * The allowances of /api/webhooks/* (ADR 027, "Rate limits"), counted so that forged events cannot spend a real
 * sender's allowance (workspace ids are public: every page's Cache-Tag carries one):
 *
 * - `address`: per client address (IPv6 per /64), before anything else, whatever workspace is named (a known
 *   one or not): a flood costs a counter. Generous (10× the per-workspace allowance): one provider address
 *   sends for many workspaces.
 * - `unverified`: per named workspace, family and client address, before the body is read or any secret loaded
 *   (the issue's "rate limit before the secret"). Forgeries from one address spend only that address's share.
 * - `verified`: per workspace and family, taken only once the signature is checked: the workspace's real
 *   allowance, which only holders of its secret can spend.
 */
import type { DatabaseHandle } from "~db/client";
import { addressKey } from "~/lib/client-address";
import { createCounter, refuseIfSpent } from "./counter.server";

export interface WebhookThrottle {
  /** Per client address, before the workspace is looked up; throws 429 (Retry-After) when spent. */
  takeAddress(ip: string): Promise<void>;
  /** Per named workspace, family and client address, before the body or any secret; throws 429 when spent. */
  takeUnverified(workspaceId: string, family: string, ip: string): Promise<void>;
  /** Per workspace and family, after the signature: the workspace's allowance; throws 429 when spent. */
  takeVerified(workspaceId: string, family: string): Promise<void>;
  /**
   * True once a minute per workspace, family, client address and reason: whether a refusal is worth a row in the
   * event log (a flood of forged or refused requests is one row a minute per reason, not a row per request).
   */
  shouldRecordRefusal(workspaceId: string, family: string, ip: string, reason: string): Promise<boolean>;
}

export function createWebhookThrottle(handle: DatabaseHandle, perMinute: number): WebhookThrottle {
  const address = createCounter(handle, {
    keyPrefix: "webhook-address",
    points: perMinute * 10,
    durationSeconds: 60,
  });
  const unverified = createCounter(handle, {
    keyPrefix: "webhook-unverified",
    points: perMinute,
    durationSeconds: 60,
  });
  const verified = createCounter(handle, { keyPrefix: "webhook-events", points: perMinute, durationSeconds: 60 });
  const noted = createCounter(handle, { keyPrefix: "webhook-refusals-noted", points: 1, durationSeconds: 60 });
  return {
    async takeAddress(ip) {
      refuseIfSpent([await address.consume(addressKey(ip))], "events from this address");
    },
    async takeUnverified(workspaceId, family, ip) {
      refuseIfSpent(
        [await unverified.consume(`${workspaceId}:${family}:${addressKey(ip)}`)],
        "events for this receiver",
      );
    },
    async takeVerified(workspaceId, family) {
      refuseIfSpent([await verified.consume(`${workspaceId}:${family}`)], "events for this receiver");
    },
    async shouldRecordRefusal(workspaceId, family, ip, reason) {
      return !(await noted.consume(`${workspaceId}:${family}:${addressKey(ip)}:${reason}`)).refused;
    },
  };
}
