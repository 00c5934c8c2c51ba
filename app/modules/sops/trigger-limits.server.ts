/**
 * The limits on accepted triggers (docs/decisions/010-sops.md, "Limits"), checked inside the transaction that
 * queues the run, after the signature and the replay check: only an authentic, first-seen request reaches
 * them, so neither an unauthenticated flood nor a captured request sent again can spend the owner's budget.
 * Both limits come from the plan of the workspace's owner (app/modules/plans/tiers.ts):
 *
 * - each trigger's allowance, by the token API's rule and limiter (an hourly and a 60-second window, one
 *   UPSERT; only admitted requests count, and a refusal rolls the transaction back, so the signature is not
 *   used up and the same request may be sent again after `Retry-After`);
 * - the workspace's queued runs: past the plan's cap the trigger is refused (429) until runs have left the
 *   queue. The count is read in the transaction; on Postgres triggers racing in one workspace can overshoot
 *   it by the number in flight, which a cap that bounds a backlog can afford (no lock serialises a
 *   workspace's triggers).
 */
import type { Db } from "~db/client";
import { rateLimited } from "~/lib/errors";
import { TIER_PLANS } from "~/modules/plans/tiers";
import { createApiRateLimit, type RateLimitState } from "~/modules/rate-limit/api-rate-limit.server";

/** A full queue drains as runs finish, at a pace we cannot predict: a minute, as GitHub asks of its clients. */
export const QUEUE_FULL_RETRY_AFTER_SECONDS = 60;

const planOfWorkspace = async (db: Db, workspaceId: string) => {
  const owner = await db
    .selectFrom("workspaces")
    .innerJoin("users", "users.id", "workspaces.owner_user_id")
    .select("users.tier")
    .where("workspaces.id", "=", workspaceId)
    .executeTakeFirstOrThrow();
  return TIER_PLANS[owner.tier];
};

const queuedRunsOf = async (db: Db, workspaceId: string) => {
  const { count } = await db
    .selectFrom("sop_runs")
    .select((eb) => eb.fn.countAll().as("count"))
    .where("workspace_id", "=", workspaceId)
    .where("status", "=", "queued")
    .executeTakeFirstOrThrow();
  return Number(count);
};

/**
 * Admits one run of `sop` through `triggerId` or refuses it with `rateLimited` (429 + Retry-After). `trx` is
 * the transaction that queues the run, called once the run is inserted (a refusal rolls it back). `report` receives the trigger's window as it stands after this request
 * (for the X-RateLimit-* headers), also when the request is refused.
 */
export async function admitTriggeredRun(
  trx: Db,
  sop: { workspace_id: string },
  triggerId: string,
  report: (state: RateLimitState) => void,
): Promise<void> {
  const plan = await planOfWorkspace(trx, sop.workspace_id);
  let state: RateLimitState | undefined;
  if (plan.sopTrigger) {
    state = await createApiRateLimit(trx, "sop_trigger_rate_windows").consume(triggerId, plan.sopTrigger);
    report(state);
    if (state.retryAfter !== undefined) {
      throw rateLimited(
        state.retryAfter,
        `This trigger's rate limit is exceeded: the ${plan.label} plan accepts ${plan.sopTrigger.burst} requests a minute and ${plan.sopTrigger.perHour} an hour per trigger`,
      );
    }
  }
  // The run being admitted is already in the table (queueRun inserts it before its callback), so it counts.
  if (plan.maxQueuedRuns !== null && (await queuedRunsOf(trx, sop.workspace_id)) > plan.maxQueuedRuns) {
    // The refusal undoes this request's count: the headers describe the window without it.
    if (state) report({ ...state, remaining: Math.min(state.limit, state.remaining + 1) });
    throw rateLimited(
      QUEUE_FULL_RETRY_AFTER_SECONDS,
      `This workspace's run queue is full: the ${plan.label} plan holds ${plan.maxQueuedRuns} queued runs; retry once some have run`,
    );
  }
}
