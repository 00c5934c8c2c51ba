import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { isReadOnly } from "~db/client";
import { setTestClock } from "./clock.server";
import { writeHealth } from "./write-health.server";

let time = Date.parse("2026-01-01T00:00:00Z");
const advance = (ms: number) => (time += ms);
setTestClock(() => new Date(time));
afterAll(() => setTestClock(undefined));

/** Errors as the drivers throw them: better-sqlite3's SqliteError and pg's DatabaseError carry the code. */
const failure = (code: string, message = code) => Object.assign(new Error(message), { code });
const FULL = failure("SQLITE_FULL", "database or disk is full");

/** Each probe's outcome in turn (the last repeats): `true` writes, an error is thrown. */
function monitor(outcomes: (boolean | Error)[]) {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  let probes = 0;
  const health = writeHealth(
    async () => {
      const outcome = outcomes[Math.min(probes, outcomes.length - 1)];
      probes += 1;
      if (outcome !== true) throw outcome === false ? FULL : outcome;
    },
    logger,
    10_000,
  );
  return { health, lines, probes: () => probes };
}

describe("write health", () => {
  it("probes at most once per interval, and shares a probe between concurrent checks", async () => {
    const { health, probes } = monitor([true]);
    expect(await Promise.all([health.canWrite(), health.canWrite()])).toEqual([true, true]);
    advance(9_999);
    expect(await health.canWrite()).toBe(true);
    expect(probes()).toBe(1);
    advance(1);
    expect(await health.canWrite()).toBe(true);
    expect(probes()).toBe(2);
  });

  it("reports a failed probe until a later probe succeeds", async () => {
    const { health } = monitor([false, true]);
    expect(await health.canWrite()).toBe(false);
    advance(5_000);
    expect(await health.canWrite()).toBe(false);
    advance(5_000);
    expect(await health.canWrite()).toBe(true);
  });

  it("counts a write refused for want of space as a failed probe at once", async () => {
    const { health, probes } = monitor([true]);
    expect(await health.canWrite()).toBe(true);
    health.reportFull(new Error("full"));
    expect(await health.canWrite()).toBe(false);
    expect(probes()).toBe(1);
    advance(10_000);
    expect(await health.canWrite()).toBe(true);
  });

  it("logs a change of verdict once, not once per refused write", async () => {
    const { health, lines } = monitor([true]);
    await health.canWrite();
    for (let i = 0; i < 5; i++) health.reportFull(new Error("full"));
    advance(10_000);
    await health.canWrite();
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [50, "the database cannot write (is its disk full?): writes answer 503"],
      [30, "the database writes again"],
    ]);
  });

  it.each([
    ["SQLite, full", failure("SQLITE_FULL")],
    ["SQLite, read-only", failure("SQLITE_READONLY", "attempt to write a readonly database")],
    ["SQLite, read-only file moved", failure("SQLITE_READONLY_DBMOVED")],
    ["Postgres, disk full", failure("53100")],
    ["Postgres, read-only transaction", failure("25006", "cannot execute UPDATE in a read-only transaction")],
  ])("marks the database read-only for a refusal that lasts (%s)", async (_name, error) => {
    const { health } = monitor([error]);
    expect(await health.canWrite()).toBe(false);
  });

  it.each([
    ["SQLite, locked by another writer", failure("SQLITE_BUSY", "database is locked")],
    ["SQLite, locked table", failure("SQLITE_LOCKED")],
    ["Postgres, statement timeout", failure("57014", "canceling statement due to statement timeout")],
    ["Postgres, lock timeout", failure("55P03")],
    ["no code at all", new Error("Connection terminated unexpectedly")],
  ])("keeps its verdict for any other failed probe, logs it and probes again later (%s)", async (_name, error) => {
    const { health, lines, probes } = monitor([error, FULL]);
    expect(await health.canWrite()).toBe(true);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [40, "the write probe failed, but not for want of space or a read-only database: readiness keeps its verdict"],
    ]);
    advance(10_000);
    expect(await health.canWrite()).toBe(false);
    expect(probes()).toBe(2);
  });

  it("keeps a degraded verdict through a transient failure", async () => {
    const { health } = monitor([FULL, failure("SQLITE_BUSY"), true]);
    expect(await health.canWrite()).toBe(false);
    advance(10_000);
    expect(await health.canWrite()).toBe(false);
    advance(10_000);
    expect(await health.canWrite()).toBe(true);
  });

  it("recognises a read-only database by its code on both dialects, and nothing else", () => {
    for (const code of ["SQLITE_READONLY", "SQLITE_READONLY_RECOVERY", "SQLITE_READONLY_CANTLOCK", "25006"]) {
      expect(isReadOnly(failure(code))).toBe(true);
    }
    for (const other of [failure("SQLITE_READONLYX"), failure("SQLITE_BUSY"), failure("25P02"), new Error("x"), null]) {
      expect(isReadOnly(other)).toBe(false);
    }
  });
});
