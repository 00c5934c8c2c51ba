/**
 * Events a workspace's senders may post to one family of /api/webhooks/* per minute (ADR 027), counted before
 * the body is read or any secret loaded: a flood of forged events costs a counter, not a decryption and an
 * HMAC each. Per workspace and family, so a noisy family does not starve the others.
 */
import type { DatabaseHandle } from "~db/client";
import { createCounter, refuseIfSpent } from "./counter.server";

export interface WebhookThrottle {
  /** Takes one event from the allowance; throws a rate-limited error (429, Retry-After) when spent. */
  take(workspaceId: string, family: string): Promise<void>;
  /** True once a minute per workspace and family: whether a refusal is worth a row in the event log. */
  shouldRecordRefusal(workspaceId: string, family: string): Promise<boolean>;
}

export function createWebhookThrottle(handle: DatabaseHandle, perMinute: number): WebhookThrottle {
  const events = createCounter(handle, { keyPrefix: "webhook-events", points: perMinute, durationSeconds: 60 });
  // The refusals themselves are a flood: the log gets the first of each minute, not a row per request.
  const noted = createCounter(handle, { keyPrefix: "webhook-refusals-noted", points: 1, durationSeconds: 60 });
  return {
    async take(workspaceId, family) {
      refuseIfSpent([await events.consume(`${workspaceId}:${family}`)], "events for this receiver");
    },
    async shouldRecordRefusal(workspaceId, family) {
      return !(await noted.consume(`${workspaceId}:${family}`)).refused;
    },
  };
}
