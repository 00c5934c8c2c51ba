/**
 * Whether the database can still write (issue 12, item 12). A database on a full disk answers every read,
 * so `select 1` said "ok" while every save failed. Readiness asks this instead: the outcome of a real write
 * (`probe`, one row rewritten) at most once per `intervalMs`, so health checks stay cheap; and a request
 * whose write was refused for want of space (`reportFull`, from the error mapping) counts as a failed probe
 * at once, so readiness turns degraded with the first refused save rather than at the next probe.
 *
 * Only a refusal that lasts is a verdict: storage full (`isStorageFull`) or a read-only database
 * (`isReadOnly`). Any other failed probe — SQLITE_BUSY while the CLI holds the write lock, a Postgres
 * statement timeout under load — says nothing about the disk: it is logged (warn), the previous verdict
 * stands ("ok" before the first), and the probe runs again once the interval has passed. Marking the node
 * degraded for it would take it out of rotation exactly when it is busy.
 *
 * A changed verdict is logged once (not once per request): "cannot write" at error, "writes again" at info.
 */
import type { Logger } from "pino";
import { isReadOnly, isStorageFull } from "~db/client";
import { now } from "./clock.server";

/** How often readiness may write to the database to check it still can. */
export const WRITE_PROBE_INTERVAL_MS = 10_000;

export interface WriteHealth {
  /** Whether the database could write at the last probe or refused write, probing again when that is stale. */
  canWrite(): Promise<boolean>;
  /** A request's write was refused because storage is full or the database is read-only. */
  reportFull(error: unknown): void;
}

export function writeHealth(
  probe: () => Promise<void>,
  logger: Logger,
  intervalMs = WRITE_PROBE_INTERVAL_MS,
): WriteHealth {
  let last: { at: number; ok: boolean } | undefined;
  let probing: Promise<boolean> | undefined;

  const record = (ok: boolean, error?: unknown) => {
    if (!ok && last?.ok !== false) {
      logger.error(
        { err: error, failure: "storage" },
        isReadOnly(error)
          ? "the database cannot write: it is read-only"
          : "the database cannot write (is its disk full?): writes answer 503",
      );
    } else if (ok && last?.ok === false) {
      logger.info({ failure: "storage" }, "the database writes again");
    }
    last = { at: now().getTime(), ok };
    return ok;
  };

  return {
    canWrite() {
      if (last && now().getTime() - last.at < intervalMs) return Promise.resolve(last.ok);
      // Concurrent health checks share one probe.
      probing ??= probe()
        .then(
          () => record(true),
          (error: unknown) => {
            if (isStorageFull(error) || isReadOnly(error)) return record(false, error);
            logger.warn(
              { err: error },
              "the write probe failed, but not for want of space or a read-only database: readiness keeps its verdict",
            );
            const ok = last?.ok ?? true;
            last = { at: now().getTime(), ok };
            return ok;
          },
        )
        .finally(() => (probing = undefined));
      return probing;
    },
    reportFull(error) {
      record(false, error);
    },
  };
}
