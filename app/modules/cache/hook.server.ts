/**
 * The outbound purge hook (issue 15, ADR 026): when `PAGE_CACHE_PURGE_HOOK_URL` is set, the tags of every purge
 * this process issues are POSTed there — `{ "type": "cache.purged", "tags": [...], "at": ISO }`, signed in the
 * Standard Webhooks format with `PAGE_CACHE_PURGE_HOOK_SECRET` — so a CDN in front can purge by the same tags
 * (`Cache-Tag`). Only the process that made the change sends it (purges heard on the bus are not resent).
 *
 * A burst of purges (a page saved, its list and the sitemap) is batched into one delivery: tags gathered for
 * `BATCH_MS`, then one durable job, delivered through `services.outbound` and retried with backoff.
 */
import { randomUUID } from "node:crypto";
import type { AppServices } from "~/lib/context";
import { RetryableError, enqueueJob, type JobHandler } from "~/modules/jobs/jobs.server";
import { isRetryableStatus, outboundRequest } from "~/modules/outbound/outbound-http.server";
import { webhookHeaders } from "~/modules/webhooks/standard-webhooks.server";

export const PURGE_HOOK_JOB = "cache.purge-hook";
const BATCH_MS = 200;
const MAX_ATTEMPTS = 8;

interface PurgeHookPayload {
  id: string;
  tags: string[];
  at: string;
}

/** Gathers tags and enqueues one job per burst; undefined when no hook is configured. */
export function createPurgeHook(services: AppServices) {
  if (!services.env.PAGE_CACHE_PURGE_HOOK_URL) return undefined;
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    const tags = [...pending].sort();
    pending = new Set();
    const payload: PurgeHookPayload = { id: `msg_${randomUUID()}`, tags, at: new Date().toISOString() };
    enqueueJob(services.db, { kind: PURGE_HOOK_JOB, payload, workspaceId: null, maxAttempts: MAX_ATTEMPTS }).then(
      () => services.jobRunner.wake(),
      (error: unknown) => services.logger.error({ err: error, tags }, "page cache: the purge hook could not be queued"),
    );
  };
  return {
    add(tags: readonly string[]) {
      for (const tag of tags) pending.add(tag);
      timer ??= setTimeout(flush, BATCH_MS);
    },
  };
}

export function purgeHookHandler(services: AppServices): JobHandler {
  return async (job) => {
    const { env, outbound } = services;
    if (!env.PAGE_CACHE_PURGE_HOOK_URL || !env.PAGE_CACHE_PURGE_HOOK_SECRET) return;
    const payload = JSON.parse(job.payload) as PurgeHookPayload;
    const body = JSON.stringify({ type: "cache.purged", tags: payload.tags, at: payload.at });
    // The same id on every attempt: the receiver deduplicates retries by it.
    const headers = webhookHeaders(env.PAGE_CACHE_PURGE_HOOK_SECRET, payload.id, Math.floor(Date.now() / 1000), body);
    // An OutboundError says itself whether another attempt may succeed (`retryable`), as the runner reads it.
    const response = await outboundRequest(
      {
        url: env.PAGE_CACHE_PURGE_HOOK_URL,
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body,
      },
      { ...outbound, maxRedirects: 0 },
    );
    if (response.status >= 200 && response.status < 300) return;
    const message = `the purge hook answered ${response.status}`;
    throw isRetryableStatus(response.status) ? new RetryableError(message) : new Error(message);
  };
}
