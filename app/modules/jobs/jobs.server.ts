/**
 * The durable job queue (DESIGN "Shared services: jobs"): a `jobs` table and an in-process runner. A job is
 * written in the same transaction as the thing it works on (a run and its job commit together), so a job is
 * never lost and never orphaned. Runners claim due jobs under a lease, in turns across workspaces so one
 * workspace's backlog does not hold back another's jobs (db/job-claims.ts), extend the lease
 * while they work, and finish only while they still hold it. A runner that dies loses its lease and another
 * takes the job over: delivery is at least once, so handlers make their effects idempotent.
 */
import { hostname } from "node:os";
import type { Logger } from "pino";
import type { Db, Dialect } from "~db/client";
import { claimDueJobs } from "~db/job-claims";
import type { JobsTable } from "~db/schema";
import { now } from "~/lib/clock.server";
import { newId } from "~/lib/ids.server";

export type Job = JobsTable;

export interface NewJob {
  kind: string;
  payload: unknown;
  workspaceId: string | null;
  /** First attempt plus retries. */
  maxAttempts: number;
  runAt?: Date;
}

/** Thrown (or any error with `retryable: true`) to ask for another attempt after a backoff. */
export class RetryableError extends Error {
  readonly retryable = true;
}

/** Thrown by a handler that saw `control.stopping` or `control.leaseLost`: the job is not counted as failed. */
export class JobInterrupted extends Error {
  constructor() {
    super("interrupted");
  }
}

export interface JobControl {
  /** This is the job's last allowed attempt: a failure now is final. */
  readonly lastAttempt: boolean;
  /**
   * The job was claimed again after its runners died more often than it has attempts: give up without doing
   * its work (record the failure and return).
   */
  readonly exhausted: boolean;
  /** The runner is stopping: save what is done, start nothing new, throw `JobInterrupted`. */
  readonly stopping: boolean;
  /** Another runner may have taken the job over: write nothing more, throw `JobInterrupted`. */
  readonly leaseLost: boolean;
  /**
   * Inside the transaction that records the job's outcome: renews the lease and answers whether this runner
   * still holds it, so an outcome is written only by the job's owner.
   */
  fence(trx: Db): Promise<boolean>;
}

export type JobHandler = (job: Job, control: JobControl) => Promise<void>;

/** Writes a job; pass the transaction that writes what the job works on. */
export async function enqueueJob(db: Db, job: NewJob): Promise<string> {
  const id = newId();
  const at = now().toISOString();
  await db
    .insertInto("jobs")
    .values({
      id,
      workspace_id: job.workspaceId,
      kind: job.kind,
      payload: JSON.stringify(job.payload),
      status: "queued",
      run_at: (job.runAt ?? now()).toISOString(),
      attempts: 0,
      max_attempts: job.maxAttempts,
      locked_by: null,
      locked_until: null,
      last_error: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

/** Exponential backoff with jitter: base·2^(n-1), drawn between half and all of it, at most an hour. */
export function retryDelayMs(attempt: number, baseMs: number, random = Math.random): number {
  const ceiling = Math.min(3_600_000, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export interface RunnerOptions {
  db: Db;
  dialect: Dialect;
  logger: Logger;
  concurrency: number;
  pollMs: number;
  leaseMs: number;
  retryBaseMs: number;
}

/** What the modules give the runner to do (app/modules/jobs/module.server.ts collects it from the manifest). */
export interface RunnerWork {
  /** One handler per job kind. */
  handlers: Record<string, JobHandler>;
  /** Work done once a minute by whichever runner gets there (purges), each task on its own. */
  maintenance: ReadonlyArray<() => Promise<void>>;
}

export interface JobRunner {
  readonly workerId: string;
  /** Starts claiming jobs of the kinds `work` handles (no-op when JOBS_CONCURRENCY=0). */
  start(work: RunnerWork): void;
  /** Look for work now (a job was just queued in this process). */
  wake(): void;
  /**
   * Runs every maintenance task now, whatever the minute's rhythm (the expiry sweeps of holds and unpaid orders):
   * for an operator's one-off run and for tests, which must reach the running server's own modules.
   */
  maintainNow(): Promise<void>;
  /**
   * Stops claiming and waits up to `deadlineMs` for the jobs in hand to reach a safe point; whatever is still
   * running then is left to its lease, which another runner takes over once it expires.
   */
  stop(deadlineMs?: number): Promise<void>;
}

export function createJobRunner(options: RunnerOptions): JobRunner {
  const { db, dialect, logger, concurrency, pollMs, leaseMs, retryBaseMs } = options;
  const workerId = `${hostname()}:${process.pid}:${newId().slice(-8)}`;
  let handlers: Record<string, JobHandler> = {};
  let kinds: string[] = [];
  let maintenance: RunnerWork["maintenance"] = [];
  const inHand = new Map<string, Promise<void>>();
  const lost = new Set<string>();
  let running = false;
  let loop: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let lastMaintenance = 0;

  const leaseUntil = () => new Date(now().getTime() + leaseMs).toISOString();
  const mine = (id: string) => db.updateTable("jobs").where("id", "=", id).where("locked_by", "=", workerId);

  async function extendLeases() {
    for (const id of [...inHand.keys()]) {
      let held = false;
      try {
        const result = await mine(id).set({ locked_until: leaseUntil() }).executeTakeFirst();
        held = Number(result.numUpdatedRows) > 0;
      } catch (error) {
        // Unable to renew: the lease may run out under us, so behave as if it had.
        logger.error({ err: error, job: id }, "could not extend a job lease");
      }
      // A job that finished meanwhile is no longer ours to mark.
      if (!held && inHand.has(id)) lost.add(id);
    }
  }

  async function finish(job: Job, error: unknown) {
    const at = now();
    const base = { locked_by: null, locked_until: null, updated_at: at.toISOString() };
    if (error === undefined) {
      await mine(job.id)
        .set({ ...base, status: "done", last_error: null })
        .execute();
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    const retryable = (error as { retryable?: unknown } | null)?.retryable === true;
    if (retryable && job.attempts < job.max_attempts) {
      const runAt = new Date(at.getTime() + retryDelayMs(job.attempts, retryBaseMs));
      await mine(job.id)
        .set({ ...base, status: "queued", run_at: runAt.toISOString(), last_error: message })
        .execute();
      logger.info({ job: job.id, kind: job.kind, attempt: job.attempts, retryAt: runAt }, "job will be retried");
    } else {
      await mine(job.id)
        .set({ ...base, status: "failed", last_error: message })
        .execute();
      logger.warn({ job: job.id, kind: job.kind, attempt: job.attempts, err: message }, "job failed");
    }
  }

  async function execute(job: Job) {
    const handler = handlers[job.kind]!;
    const control: JobControl = {
      lastAttempt: job.attempts >= job.max_attempts,
      exhausted: job.attempts > job.max_attempts,
      get stopping() {
        return !running;
      },
      get leaseLost() {
        return lost.has(job.id);
      },
      async fence(trx) {
        const result = await trx
          .updateTable("jobs")
          .set({ locked_until: leaseUntil() })
          .where("id", "=", job.id)
          .where("locked_by", "=", workerId)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) > 0) return true;
        lost.add(job.id);
        return false;
      },
    };
    let failure: unknown;
    try {
      await handler(job, control);
    } catch (error) {
      failure = error ?? new Error("job failed");
    }
    try {
      if (lost.has(job.id)) return;
      if (failure instanceof JobInterrupted) {
        // Stopping: hand the job back at once (this attempt does not count) rather than wait out the lease.
        await mine(job.id)
          .set({ status: "queued", locked_by: null, locked_until: null, attempts: job.attempts - 1 })
          .execute();
        return;
      }
      await finish(job, failure);
    } catch (error) {
      // The lease runs out and another runner takes the job over: at least once, never lost.
      logger.error({ err: error, job: job.id }, "could not record a job's outcome");
    }
  }

  async function maintain(force = false) {
    if (!maintenance.length || (!force && Date.now() - lastMaintenance < 60_000)) return;
    lastMaintenance = Date.now();
    for (const task of maintenance) {
      try {
        await task();
      } catch (error) {
        logger.error({ err: error }, "job maintenance failed");
      }
    }
  }

  async function claimAndRun(): Promise<number> {
    const free = concurrency - inHand.size;
    if (free <= 0) return 0;
    const at = now().toISOString();
    const jobs = await claimDueJobs(db, dialect, { workerId, now: at, leaseUntil: leaseUntil(), limit: free, kinds });
    for (const job of jobs) {
      lost.delete(job.id);
      const done = execute(job).finally(() => {
        inHand.delete(job.id);
        lost.delete(job.id);
        wakeUp?.();
      });
      inHand.set(job.id, done);
    }
    return jobs.length;
  }

  async function run() {
    while (running) {
      let claimed = 0;
      try {
        await maintain();
        claimed = await claimAndRun();
      } catch (error) {
        if (!running) break;
        logger.error({ err: error }, "job runner could not claim jobs");
      }
      // Full, or nothing due: wait for a job to finish, a wake-up, or the next poll.
      if (claimed === 0 || inHand.size >= concurrency) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pollMs);
          wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wakeUp = undefined;
      }
    }
  }

  return {
    workerId,
    start(work) {
      if (running) return;
      handlers = work.handlers;
      kinds = Object.keys(handlers);
      maintenance = work.maintenance;
      if (concurrency <= 0 || kinds.length === 0) return;
      running = true;
      heartbeat = setInterval(
        () => {
          extendLeases().catch((error: unknown) => logger.error({ err: error }, "could not extend job leases"));
        },
        Math.max(100, Math.floor(leaseMs / 3)),
      );
      heartbeat.unref();
      loop = run();
    },
    wake() {
      wakeUp?.();
    },
    maintainNow: () => maintain(true),
    async stop(deadlineMs = 10_000) {
      if (!running) return;
      running = false;
      wakeUp?.();
      await loop;
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, deadlineMs);
      });
      await Promise.race([Promise.allSettled(inHand.values()), deadline]);
      clearTimeout(timer);
      clearInterval(heartbeat);
      if (inHand.size) logger.warn({ jobs: [...inHand.keys()] }, "stopped with jobs in hand: their leases will expire");
    },
  };
}
