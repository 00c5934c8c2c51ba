/**
 * Claiming due jobs: the one dialect branch of the job queue (DESIGN rule 6). On Postgres, several processes
 * poll the same table; `FOR UPDATE SKIP LOCKED` lets each take rows no other claimer holds, so no job is
 * claimed twice and nobody waits on anybody's lock. SQLite has a single writer, so the same UPDATE without
 * the locking clause is already atomic (also across processes sharing the file).
 *
 * A job is due when it is queued and its time has come, or when it is running under a lease that expired
 * (its runner died): that is how a crashed run resumes elsewhere.
 */
import { sql } from "kysely";
import type { Db, Dialect } from "./client";
import type { JobsTable } from "./schema";

export interface ClaimRequest {
  workerId: string;
  now: string;
  leaseUntil: string;
  limit: number;
  /** Only these kinds (the handlers this runner has). */
  kinds: readonly string[];
}

export async function claimDueJobs(db: Db, dialect: Dialect, request: ClaimRequest): Promise<JobsTable[]> {
  const { workerId, now, leaseUntil, limit, kinds } = request;
  if (limit <= 0 || kinds.length === 0) return [];
  const lock = dialect === "postgres" ? sql`for update skip locked` : sql``;
  const { rows } = await sql<JobsTable>`
    update jobs set status = 'running', locked_by = ${workerId}, locked_until = ${leaseUntil},
      attempts = attempts + 1, updated_at = ${now}
    where id in (
      select id from jobs
      where kind in (${sql.join(kinds)})
        and ((status = 'queued' and run_at <= ${now}) or (status = 'running' and locked_until < ${now}))
      order by run_at
      limit ${limit}
      ${lock}
    )
    returning *`.execute(db);
  return rows;
}
