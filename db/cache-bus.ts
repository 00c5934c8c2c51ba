/**
 * How a purge reaches every process that caches pages (issue 15, ADR 026) — the dialect half of the page
 * cache's bus (DESIGN rule 5: dialect branches live in db/).
 *
 * - Postgres: `announce` runs `pg_notify` inside the writing transaction, so every listening process hears it
 *   exactly when (and only if) the write commits. Each process LISTENs on a dedicated connection; when that
 *   connection fails, it cannot know what it missed, so the cache is emptied and refuses to store until the
 *   connection listens again (then emptied once more: renders during the gap may have read what a lost
 *   notification made old).
 * - SQLite: `announce` inserts the tags into `cache_purges` inside the writing transaction, the same unit of
 *   work as the write: a rolled-back write leaves no row. Every process sharing the file (the CLI, a second
 *   server) polls for the rows past the last one it saw, every half second on the app's own connection, skips
 *   its own and purges the others' tags: the same purge as Postgres's, by tag, within a second. Rows older
 *   than ten minutes are deleted by the next announcement. A poll that fails means purges may be missed:
 *   the cache is emptied and stores nothing until a poll succeeds again (then emptied once more), as when
 *   Postgres's listening connection is lost.
 */
import { sql, type Kysely } from "kysely";
import pg from "pg";
import type { DatabaseHandle } from "./client";
import type { Database } from "./schema";

export const PURGE_CHANNEL = "atrium_cache_purge";
/** Postgres refuses a NOTIFY payload of 8000 bytes or more; tags are sent in chunks under it. */
const MAX_PAYLOAD_BYTES = 7_500;
const CONNECT_TIMEOUT_MS = 5_000;
/** How often the listening connection is probed, and how long a probe may take before it counts as lost. */
const PROBE_INTERVAL_MS = 5_000;
const PROBE_TIMEOUT_MS = 3_000;

export interface PurgeMessage {
  /** The announcing process (it purged itself after commit, and skips its own messages). */
  origin: string;
  tags: string[];
}

export interface BusHandlers {
  purge(tags: string[]): void;
  /** Empty the whole cache: something may have changed that no message described. */
  clear(reason: string): void;
  /** Whether purges from other processes are being heard (false: the cache must not store). */
  listening(value: boolean): void;
  error(error: unknown, message: string): void;
}

export interface PurgeBus {
  announce(trx: Kysely<Database>, tags: readonly string[]): Promise<void>;
  start(handlers: BusHandlers): void;
  stop(): Promise<void>;
  /** Postgres: the listening connection's backend pid (tests terminate it), else null. */
  listenerPid(): number | null;
}

/** Splits tags into NOTIFY payloads under Postgres's limit. */
export function purgePayloads(origin: string, tags: readonly string[]): string[] {
  const payloads: string[] = [];
  let chunk: string[] = [];
  const encode = (list: string[]) => JSON.stringify({ origin, tags: list } satisfies PurgeMessage);
  for (const tag of tags) {
    if (Buffer.byteLength(encode([...chunk, tag])) > MAX_PAYLOAD_BYTES && chunk.length) {
      payloads.push(encode(chunk));
      chunk = [];
    }
    chunk.push(tag);
  }
  if (chunk.length) payloads.push(encode(chunk));
  return payloads;
}

export function openPurgeBus(
  handle: DatabaseHandle,
  options: { url: string; origin: string; pollMs?: number },
): PurgeBus {
  return handle.dialect === "postgres"
    ? postgresBus(options)
    : sqliteBus(handle, options.origin, options.pollMs ?? 500);
}

/** How long a purge row is kept: far past any poll, so a reader never misses one it should have seen. */
const SQLITE_PURGE_RETENTION_MS = 10 * 60_000;

function sqliteBus(handle: DatabaseHandle, origin: string, pollMs: number): PurgeBus {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  return {
    async announce(trx, tags) {
      const now = new Date();
      await trx
        .insertInto("cache_purges")
        .values({ origin, tags: JSON.stringify(tags), created_at: now.toISOString() })
        .execute();
      await trx
        .deleteFrom("cache_purges")
        .where("created_at", "<", new Date(now.getTime() - SQLITE_PURGE_RETENTION_MS).toISOString())
        .execute();
    },
    listenerPid: () => null,
    start(handlers) {
      const { db } = handle;
      let last: number | undefined;
      let failing = false;
      const poll = async () => {
        try {
          if (last === undefined) {
            const top = await db
              .selectFrom("cache_purges")
              .select((eb) => eb.fn.max("seq").as("seq"))
              .executeTakeFirst();
            last = Number(top?.seq ?? 0);
          }
          const rows = await db
            .selectFrom("cache_purges")
            .select(["seq", "origin", "tags"])
            .where("seq", ">", last)
            .orderBy("seq")
            .execute();
          for (const row of rows) {
            last = row.seq;
            if (row.origin !== origin) handlers.purge(JSON.parse(row.tags) as string[]);
          }
          if (failing) {
            failing = false;
            handlers.clear("the purge log is readable again: purges may have been missed meanwhile");
            handlers.listening(true);
          }
        } catch (error) {
          if (stopped) return;
          if (!failing) {
            failing = true;
            handlers.listening(false);
            handlers.clear("the purge log could not be read");
          }
          handlers.error(error, "page cache: reading the purge log failed");
        }
      };
      const tick = () => {
        if (stopped) return;
        timer = setTimeout(() => void poll().finally(tick), pollMs);
        timer.unref();
      };
      void poll().finally(tick);
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

function postgresBus(options: { url: string; origin: string }): PurgeBus {
  let client: pg.Client | undefined;
  let pid: number | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let backoffMs = 100;
  let probe: NodeJS.Timeout | undefined;

  return {
    async announce(trx, tags) {
      for (const payload of purgePayloads(options.origin, tags)) {
        await sql`select pg_notify(${PURGE_CHANNEL}, ${payload})`.execute(trx);
      }
    },
    listenerPid: () => pid,
    start(handlers) {
      const connect = () => {
        if (stopped) return;
        const current = new pg.Client({
          connectionString: options.url,
          connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
          keepAlive: true,
        });
        client = current;
        let lost = false;
        const onLost = (error?: unknown) => {
          clearInterval(probe);
          if (lost || stopped) return;
          lost = true;
          pid = null;
          handlers.listening(false);
          handlers.clear("the purge bus's connection was lost");
          if (error) handlers.error(error, "page cache: the purge bus's connection failed; reconnecting");
          current.removeAllListeners("notification");
          void current.end().catch(() => undefined);
          retry = setTimeout(connect, backoffMs);
          retry.unref();
          backoffMs = Math.min(backoffMs * 2, 10_000);
        };
        current.on("error", onLost);
        current.on("end", () => onLost());
        current.on("notification", (message) => {
          if (message.channel !== PURGE_CHANNEL || !message.payload) return;
          try {
            const parsed = JSON.parse(message.payload) as Partial<PurgeMessage>;
            if (parsed.origin === options.origin) return;
            if (Array.isArray(parsed.tags)) handlers.purge(parsed.tags.filter((t) => typeof t === "string"));
            else handlers.clear("a purge message without tags");
          } catch {
            handlers.clear("an unreadable purge message");
          }
        });
        current
          .connect()
          .then(() => current.query<{ pid: number }>(`listen ${PURGE_CHANNEL}; select pg_backend_pid() as pid`))
          .then((results) => {
            if (lost || stopped) return;
            const rows = (Array.isArray(results) ? results : [results]).flatMap((r) => r.rows ?? []);
            pid = (rows[0] as { pid?: number } | undefined)?.pid ?? null;
            backoffMs = 100;
            // A connection can die without a word (a NAT or firewall dropping it): a node that hears nothing
            // would serve stale pages. A probe that does not answer in time counts as a lost connection.
            probe = setInterval(() => {
              const timeout = new Promise<never>((_, reject) =>
                setTimeout(() => reject(new Error("the purge bus's probe timed out")), PROBE_TIMEOUT_MS).unref(),
              );
              Promise.race([current.query("select 1"), timeout]).catch(onLost);
            }, PROBE_INTERVAL_MS);
            probe.unref();
            // Whatever renders ran while nothing was heard must not be stored: empty, then store again.
            handlers.clear("the purge bus is listening again");
            handlers.listening(true);
          })
          .catch(onLost);
      };
      connect();
    },
    async stop() {
      stopped = true;
      clearInterval(probe);
      clearTimeout(retry);
      const current = client;
      client = undefined;
      if (current) await current.end().catch(() => undefined);
    },
  };
}
