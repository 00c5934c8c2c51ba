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
import { newId } from "~/lib/ids.server";
import { JobInterrupted, RetryableError, enqueueJob, type Job, type JobHandler } from "~/modules/jobs/jobs.server";
import { OutboundError, outboundRequest } from "~/modules/outbound/outbound-http.server";
import type { SecretBox } from "~/modules/secrets/secret-box.server";
import { webhookHeaders } from "~/modules/webhooks/standard-webhooks.server";
import type { JsonValue, Scope } from "./expressions";
import { callbackBinding, runView } from "./sops.server";
import { StepError, runStep, type StepServices } from "./steps/registry.server";
import type { StepResult, StoredStep } from "./steps/types";

export const RUN_JOB = "sop.run";
export const COMPLETION_JOB = "sop.completion";
/** The first attempt and 5 retries. */
export const MAX_ATTEMPTS = 6;

/**
 * The run and its job, in one transaction with `first` (the trigger's replay record): a signature is used up
 * exactly when its run exists, so a request that failed on our side can be retried with the same signature.
 */
export async function queueRun(
  db: Db,
  sop: { id: string; workspace_id: string; steps: string },
  triggerId: string | null,
  input: Record<string, unknown>,
  first?: (trx: Db) => Promise<void>,
): Promise<string> {
  const runId = newId();
  await db.transaction().execute(async (trx) => {
    await first?.(trx);
    await trx
      .insertInto("sop_runs")
      .values({
        id: runId,
        workspace_id: sop.workspace_id,
        sop_id: sop.id,
        trigger_id: triggerId,
        status: "queued",
        input: JSON.stringify(input),
        definition: sop.steps,
        steps: "[]",
        vars: "{}",
        error: null,
        attempts: 0,
        created_at: isoNow(),
        started_at: null,
        finished_at: null,
      })
      .execute();
    await enqueueJob(trx, {
      kind: RUN_JOB,
      payload: { runId },
      workspaceId: sop.workspace_id,
      maxAttempts: MAX_ATTEMPTS,
    });
  });
  return runId;
}

export interface RunDeps extends StepServices {
  box: SecretBox;
  logger: Logger;
}

interface RunJobPayload {
  runId: string;
}

const loadRun = (db: Db, job: Job, runId: string) =>
  db
    .selectFrom("sop_runs")
    .selectAll()
    .where("id", "=", runId)
    .where("workspace_id", "=", job.workspace_id!)
    .executeTakeFirst();

export function runHandler(deps: RunDeps): JobHandler {
  const { db } = deps;
  return async (job, control) => {
    const { runId } = JSON.parse(job.payload) as RunJobPayload;
    const row = await loadRun(db, job, runId);
    // Deleted with its SOP, or already finished by a runner whose lease we inherited just too late.
    if (!row || row.status === "succeeded" || row.status === "failed") return;

    const workspaceId = row.workspace_id;
    const steps = JSON.parse(row.definition) as StoredStep[];
    const results = JSON.parse(row.steps) as StepResult[];
    const vars = JSON.parse(row.vars) as Record<string, JsonValue>;
    const input = JSON.parse(row.input) as JsonValue;
    const startedAt = row.started_at ?? isoNow();
    const save = (patch: Partial<SopRunsTable>) =>
      db.updateTable("sop_runs").set(patch).where("id", "=", runId).where("workspace_id", "=", workspaceId).execute();
    await save({ status: "running", started_at: startedAt, attempts: job.attempts, error: null });

    const namedOutputs = () => {
      const out: Record<string, JsonValue> = {};
      for (const r of results) out[r.name] = r.output as JsonValue;
      return out;
    };

    for (let index = results.filter((r) => r.status === "succeeded").length; index < steps.length; index++) {
      if (control.interrupted) throw new JobInterrupted();
      const step = steps[index]!;
      const name = step.name ?? `step${index + 1}`;
      const scope: Scope = { input, vars, steps: namedOutputs() };
      const began = isoNow();
      try {
        const outcome = await runStep(step, {
          workspaceId,
          runId,
          index,
          idempotencyKey: `${runId}.${index}`,
          scope,
          services: deps,
        });
        if (control.interrupted) throw new JobInterrupted();
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
      } catch (error) {
        if (error instanceof JobInterrupted) throw error;
        // Step errors and the shared services' retryable errors (mail) are the step's own outcome; anything
        // else is a bug, logged, and shown to the operator without internals.
        const known = error instanceof StepError || error instanceof RetryableError;
        const retryable = known && error.retryable;
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
        const willRetry = retryable && !control.lastAttempt;
        const summary = `Step ${index + 1} (${name}) failed${willRetry ? `; retrying (attempt ${job.attempts} of ${job.max_attempts})` : ""}: ${results[index]!.error}`;
        if (willRetry) {
          await save({ status: "queued", steps: JSON.stringify(results), error: summary });
          throw new RetryableError(summary);
        }
        await finishRun(db, job, runId, { status: "failed", steps: JSON.stringify(results), error: summary });
        return;
      }
    }
    await finishRun(db, job, runId, {
      status: "succeeded",
      steps: JSON.stringify(results),
      vars: JSON.stringify(vars),
    });
  };
}

/** Ends the run and, when the SOP has a callback URL, queues its completion notice in the same transaction. */
async function finishRun(db: Db, job: Job, runId: string, patch: Partial<SopRunsTable>) {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("sop_runs")
      .set({ ...patch, finished_at: isoNow() })
      .where("id", "=", runId)
      .where("workspace_id", "=", job.workspace_id!)
      .execute();
    const run = await trx
      .selectFrom("sop_runs")
      .innerJoin("sops", "sops.id", "sop_runs.sop_id")
      .selectAll("sop_runs")
      .select(["sops.slug", "sops.callback_url"])
      .where("sop_runs.id", "=", runId)
      .where("sop_runs.workspace_id", "=", job.workspace_id!)
      .executeTakeFirst();
    if (!run?.callback_url) return;
    const view = runView(run);
    const deliveryId = `msg_${newId()}`;
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
    await trx
      .insertInto("webhook_deliveries")
      .values({
        id: deliveryId,
        workspace_id: run.workspace_id,
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
      })
      .execute();
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
    const delivery = await db
      .selectFrom("webhook_deliveries")
      .innerJoin("sops", "sops.id", "webhook_deliveries.sop_id")
      .selectAll("webhook_deliveries")
      .select("sops.callback_secret_enc")
      .where("webhook_deliveries.id", "=", deliveryId)
      .where("webhook_deliveries.workspace_id", "=", job.workspace_id!)
      .executeTakeFirst();
    if (!delivery || delivery.status !== "pending") return;
    const record = (patch: Record<string, unknown>) =>
      db
        .updateTable("webhook_deliveries")
        .set({ attempts: job.attempts, ...patch })
        .where("id", "=", deliveryId)
        .where("workspace_id", "=", delivery.workspace_id)
        .execute();
    if (!delivery.callback_secret_enc) {
      await record({ status: "failed", last_error: "The SOP has no callback secret" });
      return;
    }
    const secret = box.open(delivery.callback_secret_enc, callbackBinding(delivery.sop_id));
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
      if (control.interrupted) throw new JobInterrupted();
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
