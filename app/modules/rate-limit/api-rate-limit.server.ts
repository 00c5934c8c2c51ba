/**
 * Per-key limits of the token API (docs/decisions/009-token-api.md): an hourly quota and a burst limit, each
 * a fixed window per key, kept in one row per key and updated by one atomic UPSERT per request — exact under
 * concurrency (the row is the lock on both dialects), persistent across restarts, shared by every process on
 * Postgres. Only admitted requests are counted. The same SQL runs on SQLite (3.35+) and Postgres.
 */
import { sql } from "kysely";
import type { Db } from "~db/client";
import { now } from "~/lib/clock.server";
import type { RateLimits } from "~/modules/plans/tiers";

const HOUR_MS = 3_600_000;
const BURST_MS = 60_000;

export interface RateLimitState {
  /** The hourly quota (X-RateLimit-Limit). */
  limit: number;
  /** Requests left in the hourly window (X-RateLimit-Remaining). */
  remaining: number;
  /** Unix seconds at which the hourly window resets (X-RateLimit-Reset). */
  reset: number;
  /** Set when the request is refused: seconds until the limit that refused it admits the next request. */
  retryAfter?: number;
}

export interface ApiRateLimit {
  /** Counts one request of `keyId` if both windows admit it; otherwise refuses it (retryAfter set), uncounted. */
  consume(keyId: string, limits: RateLimits): Promise<RateLimitState>;
  /** The hourly windows of several keys as they stand, counting nothing (for the console and for refusals). */
  peek(keyIds: string[], limits: RateLimits): Promise<Map<string, RateLimitState>>;
}

interface Windows {
  hour_start: number;
  hour_count: number;
  burst_start: number;
  burst_count: number;
  admitted: number;
}

/** The X-RateLimit-* headers of a window (GitHub's names), on every response of a rate-limited caller. */
export const rateLimitHeaders = (state: RateLimitState): Record<string, string> => ({
  "X-RateLimit-Limit": String(state.limit),
  "X-RateLimit-Remaining": String(state.remaining),
  "X-RateLimit-Reset": String(state.reset),
});

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

function hourly(limits: RateLimits, row: Pick<Windows, "hour_start" | "hour_count"> | undefined, at: number) {
  const live = row && Number(row.hour_start) > at - HOUR_MS;
  const start = live ? Number(row.hour_start) : at;
  const used = live ? Number(row.hour_count) : 0;
  return {
    limit: limits.perHour,
    remaining: Math.max(0, limits.perHour - used),
    reset: Math.ceil((start + HOUR_MS) / 1000),
  };
}

/**
 * `table`: the API keys' windows, those of OAuth grants, or those of SOP triggers (one row per key, grant or
 * trigger; the same columns). The table name is one of these constants, never input. `db` may be a
 * transaction: a count made there is undone with it.
 */
export function createApiRateLimit(
  db: Db,
  table: "api_rate_windows" | "oauth_rate_windows" | "sop_trigger_rate_windows" = "api_rate_windows",
): ApiRateLimit {
  const t = sql.table(table);
  return {
    async consume(keyId, limits) {
      const at = now().getTime();
      const hourCut = at - HOUR_MS;
      const burstCut = at - BURST_MS;
      // Counts as they stand for this request: a window that has run out counts as empty.
      const hourUsed = sql`(case when ${t}.hour_start <= ${hourCut} then 0 else ${t}.hour_count end)`;
      const burstUsed = sql`(case when ${t}.burst_start <= ${burstCut} then 0 else ${t}.burst_count end)`;
      const admit = sql`(case when ${hourUsed} < ${limits.perHour} and ${burstUsed} < ${limits.burst} then 1 else 0 end)`;
      // In an UPSERT's SET, column references read the row as it was before this statement on both dialects.
      const { rows } = await sql<Windows>`
        insert into ${t} (key_id, hour_start, hour_count, burst_start, burst_count, admitted)
        values (${keyId}, ${at}, 1, ${at}, 1, 1)
        on conflict (key_id) do update set
          hour_start = case when ${t}.hour_start <= ${hourCut} then ${at} else ${t}.hour_start end,
          burst_start = case when ${t}.burst_start <= ${burstCut} then ${at} else ${t}.burst_start end,
          hour_count = ${hourUsed} + ${admit},
          burst_count = ${burstUsed} + ${admit},
          admitted = ${admit}
        returning hour_start, hour_count, burst_start, burst_count, admitted`.execute(db);
      const row = rows[0]!;
      const state: RateLimitState = hourly(limits, row, at);
      if (Number(row.admitted) === 1) return state;
      // When both windows are full, the request is admitted only once both have reset: the later of the two.
      const burstFull = Number(row.burst_count) >= limits.burst && Number(row.burst_start) > burstCut;
      const hourFull = Number(row.hour_count) >= limits.perHour && Number(row.hour_start) > hourCut;
      const waitMs = Math.max(
        burstFull ? Number(row.burst_start) + BURST_MS - at : 0,
        hourFull ? Number(row.hour_start) + HOUR_MS - at : 0,
      );
      return { ...state, retryAfter: seconds(waitMs) };
    },

    async peek(keyIds, limits) {
      const rows = keyIds.length
        ? await db
            .selectFrom(table)
            .select(["key_id", "hour_start", "hour_count"])
            .where("key_id", "in", keyIds)
            .execute()
        : [];
      const at = now().getTime();
      return new Map(
        keyIds.map((id) => [
          id,
          hourly(
            limits,
            rows.find((r) => r.key_id === id),
            at,
          ),
        ]),
      );
    },
  };
}
