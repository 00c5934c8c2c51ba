/** The one clock. Timestamps are stored as ISO-8601 UTC text on both dialects. */
export function now(): Date {
  return new Date();
}

export function isoNow(): string {
  return now().toISOString();
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000);
}
