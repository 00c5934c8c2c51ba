/** Owned by `app/modules/jobs` (the durable queue). Created in 0005-sops, the first issue that needed it. */

export type JobStatus = "queued" | "running" | "done" | "failed";

export interface JobsTable {
  id: string;
  workspace_id: string | null;
  kind: string;
  /** JSON text. */
  payload: string;
  status: JobStatus;
  run_at: string;
  attempts: number;
  max_attempts: number;
  /** The runner holding the lease, until `locked_until`. */
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface JobsTables {
  jobs: JobsTable;
}
