import { describe, expect, it } from "vitest";
import { retryDelayMs } from "./jobs.server";

describe("retry backoff", () => {
  it("doubles from the base, with jitter between half and all of it, capped at an hour", () => {
    expect(retryDelayMs(1, 1000, () => 0)).toBe(500);
    expect(retryDelayMs(1, 1000, () => 1)).toBe(1000);
    expect(retryDelayMs(3, 1000, () => 0)).toBe(2000);
    expect(retryDelayMs(3, 1000, () => 1)).toBe(4000);
    expect(retryDelayMs(40, 1000, () => 1)).toBe(3_600_000);
    const draws = new Set(Array.from({ length: 20 }, () => retryDelayMs(2, 1000)));
    expect(draws.size).toBeGreaterThan(1);
    for (const d of draws) expect(d).toBeGreaterThanOrEqual(1000);
  });
});
