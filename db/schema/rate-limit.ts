/**
 * Owned by `app/modules/rate-limit` (the API's hourly and burst windows). `api_rate_windows` was created in
 * 0004-api-rate-windows; `oauth_rate_windows`, the same shape keyed by OAuth grant, in 0006-oauth.
 */

export interface ApiRateWindowsTable {
  key_id: string;
  /** Unix ms at which the key's current hourly window opened. */
  hour_start: number;
  /** Requests admitted in that window. */
  hour_count: number;
  burst_start: number;
  burst_count: number;
  /** 1 when the request that last wrote the row was admitted. */
  admitted: number;
}

export interface RateLimitTables {
  api_rate_windows: ApiRateWindowsTable;
  oauth_rate_windows: ApiRateWindowsTable;
}
