/**
 * The one clock. Timestamps are stored as ISO-8601 UTC text on both dialects. Tests that run the server in
 * their own process move it with `setTestClock` (the server build is a separate module instance, so the
 * override lives on globalThis).
 */
const CLOCK = Symbol.for("atrium.clock");

export function setTestClock(clock: (() => Date) | undefined): void {
  (globalThis as Record<symbol, unknown>)[CLOCK] = clock;
}

export function now(): Date {
  const injected = (globalThis as Record<symbol, unknown>)[CLOCK] as (() => Date) | undefined;
  return injected ? injected() : new Date();
}

export function isoNow(): string {
  return now().toISOString();
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000);
}
