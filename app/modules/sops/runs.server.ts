/**
 * Runs: queued by a verified trigger (run and job in one transaction), executed by the job runner step by
 * step. Each step's result is written as soon as it finishes, so a run resumed after a crash or a lost lease
 * starts at the first step without a result; a step interrupted mid-flight runs again with the same
 * idempotency key. Retryable step failures (network, timeouts, 5xx, 429) come back through the queue's
 * backoff, up to 5 retries; any other failure ends the run at once. On finish, a SOP with a callback URL
 * gets a signed completion notice (Standard Webhooks), itself a job with retries.
 */
import type { Logger } from "pino";
import type { Db } from "~db/client";
import type { SopRunsTable } from "~db/schema";
import { isoNow, now } from "~/lib/clock.server";
import {
  JobInterrupted,
  RetryableError,
  enqueueJob,
  type Job,
  type JobControl,
  type JobHandler,
} from "~/modules/jobs/jobs.server";
import { OutboundError, outboundRequest } from "~/modules/outbound/outbound-http.server";
import type { SecretBox } from "~/modules/secrets/secret-box.server";
import { webhookHeaders } from "~/modules/webhooks/standard-webhooks.server";
import type { JsonValue } from "./expressions";
import { CANCELLED_BY_SUSPENSION, FINISHED, runView, runsOf } from "./sop-runs.server";
import { callbackBinding } from "./sops.server";
import { StepError, runStep, type StepServices } from "./steps/registry.server";
import type { StepResult, StoredStep } from "./steps/types";

export const RUN_JOB = "sop.run";
export const COMPLETION_JOB = "sop.completion";
/** The first attempt and 5 retries. */
export const MAX_ATTEMPTS = 6;

/**
 * The run and its job, in one transaction with `also` (the trigger's replay record, which names the run): a
 * signature is used up exactly when its run exists, so a request that failed on our side can be retried with
 * the same signature.
 */
export async function queueRun(
  db: Db,
  sop: { id: string; workspace_id: string; steps: string },
  triggerId: string | null,
  input: Record<string, unknown>,
  also?: (trx: Db, runId: string) => Promise<void>,
): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const runId = await runsOf(trx, sop.workspace_id).insert(sop, triggerId, input);
    await enqueueJob(trx, {
      kind: RUN_JOB,
      payload: { runId },
      workspaceId: sop.workspace_id,
      maxAttempts: MAX_ATTEMPTS,
    });
    await also?.(trx, runId);
    return runId;
  });
}

export interface RunDeps extends StepServices {
  box: SecretBox;
  logger: Logger;
}

interface RunJobPayload {
  runId: string;
}

/** A SOP job always names its workspace: the runs of that workspace are all it may touch. */
const runsOfJob = (db: Db, job: Job) => runsOf(db, job.workspace_id!);

export function runHandler(deps: RunDeps): JobHandler {
  const { db } = deps;
  return async (job, control) => {
    const { runId } = JSON.parse(job.payload) as RunJobPayload;
    const row = await runsOfJob(db, job).row(runId);
    // Deleted with its SOP, cancelled (its workspace's owner was suspended), or already finished by a runner
    // whose lease we inherited just too late.
    if (!row || FINISHED.includes(row.status)) return;
    if (control.exhausted) {
      // Its runners kept dying in it (a crash or an out-of-memory step): stop trying.
      await finishRun(db, job, control, runId, {
        status: "failed",
        error: `The run was abandoned: its runner stopped responding ${job.max_attempts} times`,
      });
      return;
    }
    try {
      await executeRun(deps, job, control, row);
    } catch (error) {
      if (error instanceof JobInterrupted || error instanceof RetryableError) throw error;
      // Not a step's failure (a database error, say): try the run again, resuming where it stopped; on the
      // last attempt, record the failure rather than leave the run pending for ever.
      deps.logger.error({ err: error, run: runId }, "SOP run could not proceed");
      const message = "The run could not proceed because of an error on our side; it has been logged.";
      if (!control.lastAttempt) throw new RetryableError(message);
      await finishRun(db, job, control, runId, { status: "failed", error: message }).catch(() => undefined);
    }
  };
}

async function executeRun(deps: RunDeps, job: Job, control: JobControl, row: SopRunsTable) {
  const { db } = deps;
  const runId = row.id;
  const workspaceId = row.workspace_id;
  const steps = JSON.parse(row.definition) as StoredStep[];
  const results = JSON.parse(row.steps) as StepResult[];
  const vars = JSON.parse(row.vars) as Record<string, JsonValue>;
  const input = JSON.parse(row.input) as JsonValue;
  const runs = runsOfJob(db, job);
  const save = async (patch: Partial<SopRunsTable>) => {
    if (control.leaseLost) throw new JobInterrupted();
    await runs.save(runId, patch);
  };
  await save({ status: "running", started_at: row.started_at ?? isoNow(), attempts: job.attempts, error: null });

  const namedOutputs = () => {
    const out: Record<string, JsonValue> = {};
    for (const r of results) out[r.name] = r.output as JsonValue;
    return out;
  };

  for (let index = results.filter((r) => r.status === "succeeded").length; index < steps.length; index++) {
    // A safe point: nothing of this step has happened yet.
    if (control.stopping || control.leaseLost) throw new JobInterrupted();
    if (!(await mayGoOn(runs, runId))) return;
    const step = steps[index]!;
    const name = step.name ?? `step${index + 1}`;
    const began = isoNow();
    let outcome: Awaited<ReturnType<typeof runStep>>;
    try {
      outcome = await runStep(step, {
        workspaceId,
        runId,
        index,
        idempotencyKey: `${runId}.${index}`,
        scope: { input, vars, steps: namedOutputs() },
        services: deps,
      });
    } catch (error) {
      // Step errors and the shared services' retryable errors (mail) are the step's own outcome; anything
      // else is a bug, logged, and shown to the operator without internals.
      const known = error instanceof StepError || error instanceof RetryableError;
      const message = known ? error.message : "The step failed unexpectedly; it has been logged.";
      if (!known) deps.logger.error({ err: error, run: runId, step: index }, "SOP step crashed");
      results[index] = {
        index,
        type: step.type,
        name,
        status: "failed",
        output: null,
        error: message,
        attempt: job.attempts,
        startedAt: began,
        finishedAt: isoNow(),
      };
      const willRetry = known && error.retryable && !control.lastAttempt;
      const summary = `Step ${index + 1} (${name}) failed${willRetry ? `; retrying (attempt ${job.attempts} of ${job.max_attempts})` : ""}: ${message}`;
      if (willRetry) {
        await save({ status: "queued", steps: JSON.stringify(results), error: summary });
        throw new RetryableError(summary);
      }
      await finishRun(db, job, control, runId, { status: "failed", steps: JSON.stringify(results), error: summary });
      return;
    }
    // Saved even while stopping (the step's effect has happened); only a lost lease skips it.
    Object.assign(vars, outcome.vars ?? {});
    results[index] = {
      index,
      type: step.type,
      name,
      status: outcome.stop ? "stopped" : "succeeded",
      output: outcome.output,
      error: null,
      attempt: job.attempts,
      startedAt: began,
      finishedAt: isoNow(),
    };
    await save({ steps: JSON.stringify(results), vars: JSON.stringify(vars) });
    if (outcome.stop) break;
  }
  await finishRun(db, job, control, runId, {
    status: "succeeded",
    steps: JSON.stringify(results),
    vars: JSON.stringify(vars),
  });
}

/**
 * Asked before each step: a run cancelled meanwhile stops here, and so does one whose workspace's owner is
 * suspended but which escaped the cancellation (its trigger was accepted while the suspension committed). The
 * steps already done stay recorded; the run is not finished by the runner, so no completion notice is queued.
 */
async function mayGoOn(runs: ReturnType<typeof runsOf>, runId: string): Promise<boolean> {
  const standing = await runs.standing(runId);
  if (!standing || FINISHED.includes(standing.status)) return false;
  if (standing.owner_status === "active") return true;
  await runs.finish(runId, { status: "cancelled", error: CANCELLED_BY_SUSPENSION });
  return false;
}

/** Ends the run and, when the SOP has a callback URL, queues its completion notice in the same transaction. */
async function finishRun(db: Db, job: Job, control: JobControl, runId: string, patch: Partial<SopRunsTable>) {
  await db.transaction().execute(async (trx) => {
    // Only the job's owner records the outcome, and only once: a runner that lost its lease, or a second
    // finisher, changes nothing and queues no second notice.
    if (!(await control.fence(trx))) throw new JobInterrupted();
    const runs = runsOfJob(trx, job);
    if (!(await runs.finish(runId, patch))) return;
    const run = await runs.withCallback(runId);
    if (!run?.callback_url) return;
    const view = runView(run);
    // One notice per run, with an id derived from it: receivers deduplicate on webhook-id.
    const deliveryId = `msg_${run.id}`;
    const type = `sop.run.${view.status}`;
    const body = JSON.stringify({
      type,
      timestamp: view.finishedAt,
      data: {
        runId: view.id,
        sopId: view.sopId,
        sopSlug: run.slug,
        status: view.status,
        error: view.error,
        createdAt: view.createdAt,
        startedAt: view.startedAt,
        finishedAt: view.finishedAt,
        steps: view.steps.map((s) => ({
          index: s.index,
          type: s.type,
          name: s.name,
          status: s.status,
          error: s.error,
        })),
        statusUrl: `/api/sops/${view.sopId}/runs/${view.id}`,
      },
    });
    await runs.addDelivery({
      id: deliveryId,
      sop_id: run.sop_id,
      run_id: run.id,
      url: run.callback_url,
      event_type: type,
      payload: body,
      status: "pending",
      attempts: 0,
      response_status: null,
      last_error: null,
      created_at: isoNow(),
      delivered_at: null,
    });
    await enqueueJob(trx, {
      kind: COMPLETION_JOB,
      payload: { deliveryId },
      workspaceId: run.workspace_id,
      maxAttempts: MAX_ATTEMPTS,
    });
  });
}

/** Posts one completion notice, signed afresh at each attempt (its timestamp is the attempt's). */
export function completionHandler(deps: RunDeps): JobHandler {
  const { db, box } = deps;
  return async (job, control) => {
    const { deliveryId } = JSON.parse(job.payload) as { deliveryId: string };
    const runs = runsOfJob(db, job);
    const delivery = await runs.delivery(deliveryId);
    if (!delivery || delivery.status !== "pending") return;
    const record = (patch: Parameters<typeof runs.recordDelivery>[1]) =>
      runs.recordDelivery(deliveryId, { attempts: job.attempts, ...patch });
    // Queued before its workspace's owner was suspended (a run that finished just then): it is not sent.
    if ((await runs.standing(delivery.run_id))?.owner_status === "suspended") {
      await record({ status: "cancelled", last_error: CANCELLED_BY_SUSPENSION });
      return;
    }
    if (control.exhausted) {
      await record({ status: "failed", last_error: "Abandoned: its runner stopped responding too often" });
      return;
    }
    if (!delivery.callback_secret_enc) {
      await record({ status: "failed", last_error: "The SOP has no callback secret" });
      return;
    }
    let secret: string;
    try {
      secret = box.open(delivery.callback_secret_enc, callbackBinding(delivery.sop_id));
    } catch {
      await record({ status: "failed", last_error: "The signing secret cannot be read: the app key has changed" });
      return;
    }
    const headers = {
      "Content-Type": "application/json",
      ...webhookHeaders(secret, deliveryId, Math.floor(now().getTime() / 1000), delivery.payload),
    };
    try {
      const response = await outboundRequest(
        { url: delivery.url, method: "POST", headers, body: delivery.payload },
        deps.outbound,
      );
      await record({ status: "delivered", response_status: response.status, last_error: null, delivered_at: isoNow() });
    } catch (error) {
      if (control.leaseLost) throw new JobInterrupted();
      const outbound = error instanceof OutboundError ? error : null;
      const message = error instanceof Error ? error.message : String(error);
      const retry = (outbound?.retryable ?? false) && !control.lastAttempt;
      await record({
        status: retry ? "pending" : "failed",
        response_status: outbound?.status ?? null,
        last_error: message,
      });
      if (retry) throw new RetryableError(message);
    }
  };
}
