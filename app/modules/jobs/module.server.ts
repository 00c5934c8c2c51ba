import { now } from "~/lib/clock.server";
import { defineModule } from "~/lib/module";
import { createJobRunner, type JobHandler, type JobRunner } from "./jobs.server";

declare module "~/lib/context" {
  interface AppServices {
    /** This process's job runner (idle when JOBS_CONCURRENCY=0); `wake` after queueing a job. */
    jobRunner: JobRunner;
  }
}

declare module "~/lib/module" {
  interface ModuleContributions {
    /** Handlers by job kind; a kind belongs to one module. */
    jobs: Record<string, JobHandler>;
    /** Housekeeping the job runner does once a minute (purges of what outlived its purpose). */
    maintenance: Array<() => Promise<void>>;
  }
}

const DAY = 86_400_000;

export const jobsModule = defineModule({
  name: "jobs",
  services: ({ db, dialect, logger, env }) => ({
    jobRunner: createJobRunner({
      db,
      dialect,
      logger,
      concurrency: env.JOBS_CONCURRENCY,
      pollMs: env.JOBS_POLL_MS,
      leaseMs: env.JOBS_LEASE_MS,
      retryBaseMs: env.JOBS_RETRY_BASE_MS,
    }),
  }),
  contributes: ({ db }) => ({
    maintenance: [
      async () => {
        const before = new Date(now().getTime() - 7 * DAY).toISOString();
        await db.deleteFrom("jobs").where("status", "=", "done").where("updated_at", "<", before).execute();
      },
    ],
  }),
  start: ({ jobRunner }, contributions) => {
    const handlers: Record<string, JobHandler> = {};
    for (const { jobs = {} } of contributions) {
      for (const [kind, handler] of Object.entries(jobs)) {
        if (handlers[kind]) throw new Error(`two modules handle the job kind ${kind}`);
        handlers[kind] = handler;
      }
    }
    jobRunner.start({ handlers, maintenance: contributions.flatMap((c) => c.maintenance ?? []) });
  },
  stop: ({ jobRunner, env }) => jobRunner.stop(env.SHUTDOWN_TIMEOUT_MS),
});
