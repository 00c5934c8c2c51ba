/** Owned by `app/modules/health` (readiness). `health_probe` was created in 0012-health-probe. */

export interface HealthProbeTable {
  /** Always "write-probe": one row, rewritten by each probe. */
  id: string;
  /** ISO-8601 UTC time of the last probe that could write. */
  checked_at: string;
}

export interface HealthTables {
  health_probe: HealthProbeTable;
}
