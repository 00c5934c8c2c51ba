/**
 * Claiming due jobs: the one dialect branch of the job queue (DESIGN rule 6). On Postgres, several processes
 * poll the same table; `FOR UPDATE SKIP LOCKED` lets each take rows no other claimer holds, so no job is
 * claimed twice and nobody waits on anybody's lock. SQLite has a single writer, so the same UPDATE without
 * the locking clause is already atomic (also across processes sharing the file).
 *
 * A job is due when it is queued and its time has come, or when it is running under a lease that expired
 * (its runner died): that is how a crashed run resumes elsewhere.
 *
 * Fair across workspaces (docs/decisions/010-sops.md, "Jobs"): due jobs are taken in turns, not in one global
 * order. A workspace's k-th due job (oldest first) gets the turn k + the number of jobs the workspace holds
 * running right now (live leases, counted in the table, so on every node); the lowest turns are claimed
 * first, the oldest first among equal turns. So a workspace with nothing running goes ahead of the backlog
 * of one that already holds slots, and workspaces with backlogs alternate: round-robin, weighted by what
 * each already holds. Nothing is reserved: a lone workspace still gets every free slot, and a running job is
 * never interrupted, so a newcomer waits at most for the first slot to free. Jobs without a workspace (system
 * work) form one more line that never counts as holding anything, so they are never starved.
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
  // Postgres refuses a locking clause beside window functions and GROUP BY in one query level: the turns are
  // computed in a subquery, and only the jobs rows of the outer level are locked. The outer level repeats the
  // due condition so that a row another claimer took meanwhile is re-checked against its new version.
  const lock = dialect === "postgres" ? sql`for update of j skip locked` : sql``;
  const due = (t: string) =>
    sql`((${sql.ref(`${t}.status`)} = 'queued' and ${sql.ref(`${t}.run_at`)} <= ${now})
      or (${sql.ref(`${t}.status`)} = 'running' and ${sql.ref(`${t}.locked_until`)} < ${now}))`;
  const { rows } = await sql<JobsTable>`
    update jobs set status = 'running', locked_by = ${workerId}, locked_until = ${leaseUntil},
      attempts = attempts + 1, updated_at = ${now}
    where id in (
      select j.id from jobs j
      join (
        select d.id, d.run_at,
          row_number() over (partition by d.workspace_id order by d.run_at, d.id) + coalesce(h.held, 0) as turn
        from jobs d
        left join (
          select workspace_id, count(*) as held from jobs
          where status = 'running' and locked_until >= ${now} and workspace_id is not null
          group by workspace_id
        ) h on h.workspace_id = d.workspace_id
        where d.kind in (${sql.join(kinds)}) and ${due("d")}
      ) r on r.id = j.id
      where ${due("j")}
      order by r.turn, r.run_at, r.id
      limit ${limit}
      ${lock}
    )
    returning *`.execute(db);
  return rows;
}
