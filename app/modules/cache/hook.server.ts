/**
 * The outbound purge hook (issue 15, ADR 026): when `PAGE_CACHE_PURGE_HOOK_URL` is set, the tags of every purge
 * are POSTed there — `{ "type": "cache.purged", "tags": [...], "at": ISO }`, signed in the Standard Webhooks
 * format with `PAGE_CACHE_PURGE_HOOK_SECRET` — so a CDN in front can purge by the same tags (`Cache-Tag`).
 *
 * The delivery is a durable job queued by the purge's announcement, inside the writing transaction: the same
 * unit of work as the write (a crash after commit loses nothing, a rollback sends nothing), and a process that
 * serves no page — the CLI — queues it too, for the servers' job runners to deliver. It is due `DELAY_MS` after
 * the write: by then every node has heard the purge (the bus delivers within a second), so a CDN refetching at
 * once does not refill from a node that has not purged yet. A burst (a page saved, its list, the sitemap) is
 * one delivery: the job that runs takes the other queued hook jobs due about then and sends their tags with its
 * own.
 */
import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { AppServices } from "~/lib/context";
import type { Database } from "~db/schema";
import { RetryableError, enqueueJob, type Job, type JobHandler } from "~/modules/jobs/jobs.server";
import { isRetryableStatus, outboundRequest } from "~/modules/outbound/outbound-http.server";
import { webhookHeaders } from "~/modules/webhooks/standard-webhooks.server";

export const PURGE_HOOK_JOB = "cache.purge-hook";
/** After the write's commit: a little more than the bus's delivery bound. */
export const DELAY_MS = 2_000;
/** Queued hook jobs due within this much of the one that runs are sent with it. */
const COALESCE_MS = 1_000;
const MAX_ATTEMPTS = 8;

interface PurgeHookPayload {
  id: string;
  tags: string[];
  at: string;
}

/** Queues the hook's delivery of `tags` in the writing transaction (`db` may be one). */
export async function enqueuePurgeHook(db: Kysely<Database>, tags: readonly string[]): Promise<void> {
  const at = new Date();
  const payload: PurgeHookPayload = { id: `msg_${randomUUID()}`, tags: [...tags].sort(), at: at.toISOString() };
  await enqueueJob(db, {
    kind: PURGE_HOOK_JOB,
    payload,
    workspaceId: null,
    maxAttempts: MAX_ATTEMPTS,
    runAt: new Date(at.getTime() + DELAY_MS),
  });
}

/** How long at most a hook job waits for an earlier one of its burst, running beside it, to take it over. */
const LEADER_WAIT_MS = 5_000;

/** Whether an earlier hook job of the same burst is running (claimed with this one) and may take it over. */
async function earlierRunning(db: Kysely<Database>, job: Job): Promise<boolean> {
  const earlier = await db
    .selectFrom("jobs")
    .select("id")
    .where("kind", "=", PURGE_HOOK_JOB)
    .where("status", "=", "running")
    .where("run_at", ">=", new Date(Date.parse(job.run_at) - COALESCE_MS).toISOString())
    .where((eb) =>
      eb.or([eb("run_at", "<", job.run_at), eb.and([eb("run_at", "=", job.run_at), eb("id", "<", job.id)])]),
    )
    .limit(1)
    .executeTakeFirst();
  return earlier !== undefined;
}

/** Written on a hook job's row while it sends: other hook jobs no longer take it over. */
const SENDING = "cache.purge-hook: sending";

/**
 * The other hook jobs due by `until` and later than the running one (`job`), taken over by it: queued ones, and
 * ones a runner claimed in the same batch that have not started sending. A row goes to whoever changes it first:
 * this delete (the taker sends its tags), or its own job's mark `SENDING` (it sends them itself, and finds its
 * row gone if it lost) — so each job's tags are sent once, never lost.
 */
async function takeLater(db: Kysely<Database>, job: Job, until: Date): Promise<string[]> {
  const later = await db
    .selectFrom("jobs")
    .select(["id", "payload", "status"])
    .where("kind", "=", PURGE_HOOK_JOB)
    .where("status", "in", ["queued", "running"])
    .where("run_at", "<=", until.toISOString())
    .where((eb) =>
      eb.or([eb("run_at", ">", job.run_at), eb.and([eb("run_at", "=", job.run_at), eb("id", ">", job.id)])]),
    )
    .limit(500)
    .execute();
  const tags: string[] = [];
  for (const row of later) {
    const deleted = await db
      .deleteFrom("jobs")
      .where("id", "=", row.id)
      .where("status", "=", row.status)
      .where((eb) => eb.or([eb("last_error", "is", null), eb("last_error", "<>", SENDING)]))
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 1) tags.push(...(JSON.parse(row.payload) as PurgeHookPayload).tags);
  }
  return tags;
}

export function purgeHookHandler(services: AppServices): JobHandler {
  return async (job) => {
    const { env, outbound } = services;
    if (!env.PAGE_CACHE_PURGE_HOOK_URL || !env.PAGE_CACHE_PURGE_HOOK_SECRET) return;
    const payload = JSON.parse(job.payload) as PurgeHookPayload;
    // A runner claims a burst's jobs together: a later one waits while the earliest runs, for it to take this one
    // over — as long as that takes (a loaded machine can be slower than any fixed grace), up to LEADER_WAIT_MS.
    const deadline = Date.now() + LEADER_WAIT_MS;
    while (Date.now() < deadline && (await earlierRunning(services.db, job))) {
      const row = await services.db.selectFrom("jobs").select("id").where("id", "=", job.id).executeTakeFirst();
      if (!row) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Gone: taken over by an earlier hook job of the same burst, which sends these tags with its own. Only a
    // job marked as sending takes others (below), so tags it took are never lost with it.
    const mine = await services.db
      .updateTable("jobs")
      .set({ last_error: SENDING })
      .where("id", "=", job.id)
      .executeTakeFirst();
    if (Number(mine.numUpdatedRows) === 0) return;
    const more = await takeLater(services.db, job, new Date(Date.now() + COALESCE_MS));
    if (more.length) {
      // Kept on this job: a retry sends the same tags under the same id.
      payload.tags = [...new Set([...payload.tags, ...more])].sort();
      await services.db
        .updateTable("jobs")
        .set({ payload: JSON.stringify(payload) })
        .where("id", "=", job.id)
        .execute();
    }
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
