/**
 * A SOP's runs and what belongs to a run: its completion notice (`sop_runs`, `webhook_deliveries`). Built for
 * one workspace (DESIGN rule 2): the console, the run-status API and the job runner (which knows the
 * workspace from the job) all go through here. Executing a run is `runs.server.ts`.
 */
import { z } from "zod";
import type { Db } from "~db/client";
import type { SopRunsTable, WebhookDeliveriesTable } from "~db/schema";
import { isoNow } from "~/lib/clock.server";
import { notFound } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import type { StepResult } from "./steps/types";

export interface RunView {
  id: string;
  sopId: string;
  triggerId: string | null;
  status: SopRunsTable["status"];
  input: unknown;
  steps: StepResult[];
  vars: unknown;
  error: string | null;
  attempts: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
}

/** `RunView` as the run-status API's schema, for the API reference; checked against the interface. */
export const RunViewSchema = z.object({
  id: z.string(),
  sopId: z.string(),
  triggerId: z.string().nullable(),
  status: z.enum(["queued", "running", "succeeded", "failed", "cancelled"]),
  input: z.unknown().describe("The trigger's input"),
  steps: z.array(
    z.object({
      index: z.number().int(),
      type: z.string(),
      name: z.string(),
      status: z.enum(["succeeded", "failed", "stopped", "skipped"]),
      output: z.unknown(),
      error: z.string().nullable(),
      attempt: z.number().int(),
      startedAt: z.string(),
      finishedAt: z.string(),
    }),
  ),
  vars: z.unknown().describe("The values the steps set"),
  error: z.string().nullable(),
  attempts: z.number().int(),
  createdAt: z.string().describe("ISO 8601, UTC"),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().int().nullable(),
}) satisfies z.ZodType<RunView>;

export const runView = (row: SopRunsTable): RunView => ({
  id: row.id,
  sopId: row.sop_id,
  triggerId: row.trigger_id,
  status: row.status,
  input: JSON.parse(row.input),
  steps: JSON.parse(row.steps) as StepResult[],
  vars: JSON.parse(row.vars),
  error: row.error,
  attempts: row.attempts,
  createdAt: row.created_at,
  startedAt: row.started_at,
  finishedAt: row.finished_at,
  durationMs: row.started_at && row.finished_at ? Date.parse(row.finished_at) - Date.parse(row.started_at) : null,
});

/** A run in one of these states has ended: nothing changes its status again. */
export const FINISHED: readonly SopRunsTable["status"][] = ["succeeded", "failed", "cancelled"];

/** Why the runs and notices of a suspended owner's workspaces stopped (shown with each, in the console). */
export const CANCELLED_BY_SUSPENSION =
  "Cancelled: the account that owns this workspace was suspended. Nothing of the run happens after this point; run it again once the account is active.";

type DeliveryPatch = Partial<
  Pick<WebhookDeliveriesTable, "status" | "attempts" | "response_status" | "last_error" | "delivered_at">
>;

/** `db` may be a transaction: the runner finishes a run and queues its notice in one. */
export function runsOf(db: Db, workspaceId: string) {
  const runs = () => db.selectFrom("sop_runs").where("sop_runs.workspace_id", "=", workspaceId);
  const changeRuns = () => db.updateTable("sop_runs").where("workspace_id", "=", workspaceId);
  const deliveries = () =>
    db.selectFrom("webhook_deliveries").where("webhook_deliveries.workspace_id", "=", workspaceId);
  const changeDeliveries = () => db.updateTable("webhook_deliveries").where("workspace_id", "=", workspaceId);

  return {
    async list(sopId: string, page: { size: number; offset: number }) {
      const base = runs().where("sop_id", "=", sopId);
      const [rows, total] = await Promise.all([
        base
          .selectAll()
          .orderBy("created_at", "desc")
          .orderBy("id", "desc")
          .limit(page.size)
          .offset(page.offset)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
      ]);
      return { runs: rows.map(runView), total: Number(total.n) };
    },

    async get(sopId: string, runId: string): Promise<RunView> {
      const row = await runs().selectAll().where("id", "=", runId).where("sop_id", "=", sopId).executeTakeFirst();
      if (!row) throw notFound("No such run of this SOP");
      return runView(row);
    },

    /** A queued run of `sop` with the steps it had when triggered; the caller queues its job beside it. */
    async insert(sop: { id: string; steps: string }, triggerId: string | null, input: Record<string, unknown>) {
      const runId = newId();
      await db
        .insertInto("sop_runs")
        .values({
          id: runId,
          workspace_id: workspaceId,
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
      return runId;
    },

    /** The stored row, for the runner. */
    row: (runId: string) => runs().selectAll().where("id", "=", runId).executeTakeFirst(),

    /**
     * Records the runner's progress. A step's result is kept even on a run cancelled meanwhile (its effect
     * happened), but a run that has ended never changes status again: a runner that read it just before a
     * cancellation cannot set it back to running.
     */
    async save(runId: string, patch: Partial<SopRunsTable>): Promise<void> {
      let update = changeRuns().set(patch).where("id", "=", runId);
      if (patch.status !== undefined) update = update.where("status", "not in", FINISHED);
      await update.execute();
    },

    /** Ends an unfinished run; false when it had already ended (a second finisher changes nothing). */
    async finish(runId: string, patch: Partial<SopRunsTable>): Promise<boolean> {
      const ended = await changeRuns()
        .set({ ...patch, finished_at: isoNow() })
        .where("id", "=", runId)
        .where("status", "not in", FINISHED)
        .executeTakeFirst();
      return Number(ended.numUpdatedRows) > 0;
    },

    /**
     * Whether the runner may go on with a run: its status now, and whether the workspace's owner is still
     * active. Asked before every step, so a suspension stops a run in flight at the next step boundary.
     */
    standing: (runId: string) =>
      runs()
        .innerJoin("workspaces", "workspaces.id", "sop_runs.workspace_id")
        .innerJoin("users", "users.id", "workspaces.owner_user_id")
        .select(["sop_runs.status", "users.status as owner_status"])
        .where("sop_runs.id", "=", runId)
        .executeTakeFirst(),

    /**
     * Cancels every run not yet finished and every completion notice not yet sent, with `reason`. The rows stay
     * (the console lists them); the job runner skips what they belong to. Returns how many runs it cancelled.
     */
    async cancelUnfinished(reason: string): Promise<number> {
      const cancelled = await changeRuns()
        .set({ status: "cancelled", error: reason, finished_at: isoNow() })
        .where("status", "not in", FINISHED)
        .executeTakeFirst();
      await changeDeliveries()
        .set({ status: "cancelled", last_error: reason })
        .where("status", "=", "pending")
        .execute();
      return Number(cancelled.numUpdatedRows);
    },

    /** The run with its SOP's slug and callback URL, for the completion notice. */
    withCallback: (runId: string) =>
      runs()
        .innerJoin("sops", "sops.id", "sop_runs.sop_id")
        .selectAll("sop_runs")
        .select(["sops.slug", "sops.callback_url"])
        .where("sop_runs.id", "=", runId)
        .executeTakeFirst(),

    async addDelivery(delivery: Omit<WebhookDeliveriesTable, "workspace_id">): Promise<void> {
      await db
        .insertInto("webhook_deliveries")
        .values({ ...delivery, workspace_id: workspaceId })
        .execute();
    },

    /** A completion notice with its SOP's sealed signing secret, for the sender. */
    delivery: (deliveryId: string) =>
      deliveries()
        .innerJoin("sops", "sops.id", "webhook_deliveries.sop_id")
        .selectAll("webhook_deliveries")
        .select("sops.callback_secret_enc")
        .where("webhook_deliveries.id", "=", deliveryId)
        .executeTakeFirst(),

    async recordDelivery(deliveryId: string, patch: DeliveryPatch): Promise<void> {
      await changeDeliveries().set(patch).where("id", "=", deliveryId).execute();
    },

    /** The SOP's latest completion notices, for the console. */
    async deliveries(sopId: string) {
      const rows = await deliveries()
        .select([
          "id",
          "run_id",
          "url",
          "event_type",
          "status",
          "attempts",
          "response_status",
          "last_error",
          "created_at",
          "delivered_at",
        ])
        .where("sop_id", "=", sopId)
        .orderBy("created_at", "desc")
        .limit(20)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        runId: r.run_id,
        url: r.url,
        eventType: r.event_type,
        status: r.status,
        attempts: r.attempts,
        responseStatus: r.response_status,
        lastError: r.last_error,
        createdAt: r.created_at,
        deliveredAt: r.delivered_at,
      }));
    },
  };
}

export type RunsRepo = ReturnType<typeof runsOf>;
