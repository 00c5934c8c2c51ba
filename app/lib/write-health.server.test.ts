import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { setTestClock } from "./clock.server";
import { writeHealth } from "./write-health.server";

let time = Date.parse("2026-01-01T00:00:00Z");
const advance = (ms: number) => (time += ms);
setTestClock(() => new Date(time));
afterAll(() => setTestClock(undefined));

function monitor(outcomes: boolean[]) {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  let probes = 0;
  const health = writeHealth(
    async () => {
      const ok = outcomes[Math.min(probes, outcomes.length - 1)];
      probes += 1;
      if (!ok) throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
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
});
