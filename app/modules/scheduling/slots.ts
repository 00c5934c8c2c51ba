/**
 * Bookable times (issue 19, ADR 036): weekly hours in wall-clock time in an IANA zone, date overrides, minus what
 * is booked or held (with the service's buffers), the minimum notice and the booking window — answered as UTC
 * instants. Every wall-clock time is turned into instants by the Temporal polyfill, never by arithmetic on
 * offsets, so a daylight-saving change is a case the library answers rather than one we get wrong: a time in the
 * hour that is skipped gives no slot, and a time in the hour that repeats gives two (one per offset), each its own
 * instant. Slots are on the wall-clock grid (9:00, 9:30 …) as people read a timetable; a slot's length is elapsed
 * time, so a 60-minute appointment is 60 real minutes across a change.
 *
 * Pure: the caller reads rules, overrides and bookings from the database and passes `now`.
 */
import { Temporal } from "temporal-polyfill";

/** `HH:MM`, 00:00–24:00 (24:00 is the end of the day). */
export type WallTime = string;

export interface TimeRange {
  start: WallTime;
  end: WallTime;
}

export interface WeeklyRule extends TimeRange {
  /** ISO weekday: 1 is Monday, 7 is Sunday. */
  weekday: number;
}

/** A date's own hours instead of the weekly ones: none is closed that day. */
export interface DateOverride {
  /** `YYYY-MM-DD` in the schedule's zone. */
  date: string;
  ranges: TimeRange[];
}

/** A booking or hold: its own start and end (buffers are the service's, added here). */
export interface Busy {
  start: string;
  end: string;
  /** How many of the slot's places it takes (1 unless a class). */
  seats?: number;
  /**
   * The service it is a place of (`SlotRules.pool`): only a booking of the same service at the same start shares
   * a slot's places (a class's seats); any other overlap — another service, another start — takes the host whole.
   */
  pool?: string;
}

export interface SlotRules {
  timeZone: string;
  weekly: WeeklyRule[];
  overrides?: DateOverride[];
  durationMinutes: number;
  /** The grid slots start on, from each range's start. */
  intervalMinutes: number;
  bufferBeforeMinutes?: number;
  bufferAfterMinutes?: number;
  /** How long before its start a slot may still be booked. */
  noticeMinutes?: number;
  /** How far ahead a slot may be booked: up to the end of the date that many days after today, in the zone. */
  windowDays?: number;
  /** Places per slot: 1 for an appointment, more for a class. */
  capacity?: number;
  /** Which bookings share a slot's places (see `Busy.pool`): the service's id. */
  pool?: string;
}

export interface Slot {
  /** ISO instants in UTC (`2026-03-29T01:00:00Z`). */
  start: string;
  end: string;
  seatsLeft: number;
}

/** What a wall-clock time on a date is in a zone: one instant, none (skipped by a change), or two (repeated). */
export type LocalTime =
  | { kind: "unique"; instant: Temporal.Instant }
  | { kind: "skipped" }
  | { kind: "ambiguous"; earlier: Temporal.Instant; later: Temporal.Instant };

const TIME = /^([01]\d|2[0-4]):([0-5]\d)$/;

/** Minutes since midnight of a `HH:MM`; throws on anything else (24:00 is 1440). */
export function minutesOf(time: WallTime): number {
  const m = TIME.exec(time);
  if (!m || (m[1] === "24" && m[2] !== "00")) throw new RangeError(`Not a time of day: ${time}`);
  return Number(m[1]) * 60 + Number(m[2]);
}

function wallClock(date: Temporal.PlainDate, minutes: number): Temporal.PlainDateTime {
  return date.toPlainDateTime({ hour: 0, minute: 0 }).add({ minutes });
}

/** Which instant(s) a wall-clock time on a date is in `timeZone`. */
export function resolveLocal(date: Temporal.PlainDate, minutes: number, timeZone: string): LocalTime {
  const local = wallClock(date, minutes);
  const earlier = local.toZonedDateTime(timeZone, { disambiguation: "earlier" });
  const later = local.toZonedDateTime(timeZone, { disambiguation: "later" });
  if (earlier.toInstant().equals(later.toInstant())) return { kind: "unique", instant: earlier.toInstant() };
  // Two instants: a repeated time reads back as itself at both; a skipped one is moved to either side of the gap.
  if (!earlier.toPlainDateTime().equals(local)) return { kind: "skipped" };
  return { kind: "ambiguous", earlier: earlier.toInstant(), later: later.toInstant() };
}

const DAY_MS = 86_400_000;
const twoDigits = (n: number) => (n < 10 ? `0${n}` : String(n));
let dayPrefix = { day: NaN, text: "" };

/**
 * An instant on the minute as `2026-03-29T01:00:00Z`, the polyfill's own `Instant#toString` form. A fortnight's
 * slots are hundreds of these per request: the date part is made once per UTC day, the time from the minutes.
 */
function isoMinute(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  if (day !== dayPrefix.day) dayPrefix = { day, text: new Date(day * DAY_MS).toISOString().slice(0, 11) };
  const minutes = Math.floor((ms - day * DAY_MS) / 60_000);
  return `${dayPrefix.text}${twoDigits(Math.floor(minutes / 60))}:${twoDigits(minutes % 60)}:00Z`;
}

/** The first zone transition at or after `ms` (epoch milliseconds), or Infinity for a zone that has no more. */
function transitionFrom(ms: number, timeZone: string): number {
  const next = Temporal.Instant.fromEpochMilliseconds(ms - 1)
    .toZonedDateTimeISO(timeZone)
    .getTimeZoneTransition("next");
  return next ? next.epochMilliseconds : Infinity;
}

interface DayStart {
  /** The date's first instant. */
  start: number;
  /** Whether the zone keeps one offset all day and the day starts at 00:00: a wall-clock minute is then elapsed. */
  steady: boolean;
}

/**
 * Where each date of `first`…`last` starts in a zone, and whether it is steady. The polyfill is asked once for the
 * first date and for the next transition; a steady day's next day starts exactly 24 hours later. Only across a
 * transition is the next date asked again — so a fortnight costs a few zone lookups, not one per day or per slot.
 */
function dayStartsOf(first: Temporal.PlainDate, last: Temporal.PlainDate, timeZone: string): Map<string, DayStart> {
  const days = new Map<string, DayStart>();
  let date = first;
  let zoned: Temporal.ZonedDateTime | null = date.toZonedDateTime({ timeZone });
  let start = zoned.epochMilliseconds;
  let transition = transitionFrom(start, timeZone);
  while (Temporal.PlainDate.compare(date, last) <= 0) {
    const atMidnight = zoned === null || (zoned.hour === 0 && zoned.minute === 0);
    // A change exactly at the next midnight may still belong to this date (a fall-back from 24:00 to 23:00): only
    // a change after it leaves the date whole.
    const steady = atMidnight && transition > start + DAY_MS;
    days.set(date.toString(), { start, steady });
    date = date.add({ days: 1 });
    if (steady) {
      start += DAY_MS;
      zoned = null;
    } else {
      zoned = date.toZonedDateTime({ timeZone });
      start = zoned.epochMilliseconds;
      transition = transitionFrom(start, timeZone);
    }
  }
  return days;
}

/**
 * Wall-clock minutes of one date in a zone as epoch milliseconds: `earlier` (a range's start: its first moment),
 * `later` (a range's end: its last), or `all` (a grid time: none when skipped, two when repeated). On a steady
 * day (see `dayStartsOf`) a wall-clock time is that many elapsed minutes after the day's start, which the polyfill
 * gave; on a transition day every time is resolved by the polyfill.
 */
function wallClockOf(date: Temporal.PlainDate, timeZone: string, day: DayStart) {
  const { start, steady } = day;
  function at(minutes: number, which: "earlier" | "later"): number;
  function at(minutes: number, which: "all"): number[];
  function at(minutes: number, which: "earlier" | "later" | "all"): number | number[] {
    if (steady) return which === "all" ? [start + minutes * 60_000] : start + minutes * 60_000;
    if (which !== "all") {
      return wallClock(date, minutes).toZonedDateTime(timeZone, { disambiguation: which }).epochMilliseconds;
    }
    const local = resolveLocal(date, minutes, timeZone);
    if (local.kind === "unique") return [local.instant.epochMilliseconds];
    if (local.kind === "ambiguous") return [local.earlier.epochMilliseconds, local.later.epochMilliseconds];
    return [];
  }
  return at;
}

function rangesOn(date: Temporal.PlainDate, rules: SlotRules): TimeRange[] {
  const iso = date.toString();
  const override = rules.overrides?.find((o) => o.date === iso);
  if (override) return override.ranges;
  return rules.weekly.filter((r) => r.weekday === date.dayOfWeek);
}

/**
 * The slots of the dates `from`…`to` (inclusive, `YYYY-MM-DD` in the rules' zone) that can still be booked at
 * `now`: on the grid, whole inside their range, after the notice, inside the window, and with a place left once
 * the bookings (each widened by the buffers) that overlap it are counted.
 */
export function slotsBetween(rules: SlotRules, from: string, to: string, busy: Busy[], now: Temporal.Instant): Slot[] {
  const duration = rules.durationMinutes;
  const step = rules.intervalMinutes;
  if (!(duration > 0) || !(step > 0)) throw new RangeError("A slot needs a length and a grid");
  const before = (rules.bufferBeforeMinutes ?? 0) * 60_000;
  const after = (rules.bufferAfterMinutes ?? 0) * 60_000;
  const capacity = rules.capacity ?? 1;
  const earliest = now.add({ minutes: rules.noticeMinutes ?? 0 }).epochMilliseconds;
  // Stored instants are ISO-8601 in UTC: the platform parses them exactly, and much faster than the polyfill.
  const taken = busy
    .map((b) => ({
      at: Date.parse(b.start),
      start: Date.parse(b.start) - before,
      end: Date.parse(b.end) + after,
      seats: b.seats ?? 1,
      pool: b.pool,
    }))
    .sort((a, b) => a.start - b.start);
  const longest = taken.reduce((most, b) => Math.max(most, b.end - b.start), 0);
  /** The index of the first booking starting at or after `ms` (binary search over the sorted starts). */
  const firstFrom = (ms: number) => {
    let lo = 0;
    let hi = taken.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (taken[mid]!.start < ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  const found = new Map<number, Slot>();
  const today = now.toZonedDateTimeISO(rules.timeZone).toPlainDate();
  const asked = Temporal.PlainDate.from(to);
  const horizon = rules.windowDays === undefined ? asked : today.add({ days: rules.windowDays });
  const last = Temporal.PlainDate.compare(asked, horizon) <= 0 ? asked : horizon;
  const firstDate = Temporal.PlainDate.from(from);
  if (Temporal.PlainDate.compare(firstDate, last) > 0) return [];
  const starts = dayStartsOf(firstDate, last, rules.timeZone);
  for (let date = firstDate; Temporal.PlainDate.compare(date, last) <= 0; date = date.add({ days: 1 })) {
    const ranges = rangesOn(date, rules).filter((r) => minutesOf(r.end) > minutesOf(r.start));
    if (ranges.length === 0) continue;
    const instantsAt = wallClockOf(date, rules.timeZone, starts.get(date.toString())!);
    for (const range of ranges) {
      const startMinutes = minutesOf(range.start);
      const endMinutes = minutesOf(range.end);
      const opens = instantsAt(startMinutes, "earlier");
      const closes = instantsAt(endMinutes, "later");
      for (let minutes = startMinutes; minutes < endMinutes; minutes += step) {
        for (const start of instantsAt(minutes, "all")) {
          const end = start + duration * 60_000;
          if (start < opens || end > closes || start < earliest) continue;
          let used = 0;
          // From the first booking that could still reach this slot (none is longer than `longest`).
          for (let i = firstFrom(start - before - longest); i < taken.length; i += 1) {
            const b = taken[i]!;
            if (b.start >= end + after) break;
            if (!(start - before < b.end)) continue;
            // A place in this very slot, or the host busy elsewhere: a class never overlaps another session.
            if (b.pool === rules.pool && b.at === start) used += b.seats;
            else used = capacity;
            if (used >= capacity) break;
          }
          if (used >= capacity) continue;
          found.set(start, { start: isoMinute(start), end: isoMinute(end), seatsLeft: capacity - used });
        }
      }
    }
  }
  return [...found.entries()].sort(([a], [b]) => a - b).map(([, slot]) => slot);
}
