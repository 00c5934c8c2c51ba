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

/** The instants a range's edge stands for: its start's first moment, its end's last (a skipped edge: the gap's end). */
function edge(date: Temporal.PlainDate, minutes: number, timeZone: string, which: "earlier" | "later") {
  return wallClock(date, minutes).toZonedDateTime(timeZone, { disambiguation: which }).toInstant();
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
  const taken = busy.map((b) => ({
    start: Temporal.Instant.from(b.start).epochMilliseconds - before,
    end: Temporal.Instant.from(b.end).epochMilliseconds + after,
    seats: b.seats ?? 1,
  }));

  const found = new Map<number, Slot>();
  const today = now.toZonedDateTimeISO(rules.timeZone).toPlainDate();
  const asked = Temporal.PlainDate.from(to);
  const horizon = rules.windowDays === undefined ? asked : today.add({ days: rules.windowDays });
  const last = Temporal.PlainDate.compare(asked, horizon) <= 0 ? asked : horizon;
  for (
    let date = Temporal.PlainDate.from(from);
    Temporal.PlainDate.compare(date, last) <= 0;
    date = date.add({ days: 1 })
  ) {
    for (const range of rangesOn(date, rules)) {
      const startMinutes = minutesOf(range.start);
      const endMinutes = minutesOf(range.end);
      if (endMinutes <= startMinutes) continue;
      const opens = edge(date, startMinutes, rules.timeZone, "earlier").epochMilliseconds;
      const closes = edge(date, endMinutes, rules.timeZone, "later").epochMilliseconds;
      for (let minutes = startMinutes; minutes < endMinutes; minutes += step) {
        const local = resolveLocal(date, minutes, rules.timeZone);
        const instants =
          local.kind === "unique" ? [local.instant] : local.kind === "ambiguous" ? [local.earlier, local.later] : [];
        for (const instant of instants) {
          const start = instant.epochMilliseconds;
          const end = start + duration * 60_000;
          if (start < opens || end > closes || start < earliest) continue;
          const used = taken
            .filter((b) => b.start < end + after && start - before < b.end)
            .reduce((sum, b) => sum + b.seats, 0);
          if (used >= capacity) continue;
          found.set(start, {
            start: instant.toString(),
            end: Temporal.Instant.fromEpochMilliseconds(end).toString(),
            seatsLeft: capacity - used,
          });
        }
      }
    }
  }
  return [...found.entries()].sort(([a], [b]) => a - b).map(([, slot]) => slot);
}
