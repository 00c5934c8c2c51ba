// Bookable times across daylight-saving changes (issue 19, ADR 036): the expected slots are written by hand as UTC
// instants, from the zones' published rules (checked against the system's tz database with `date`), for the
// transition days of Europe/Berlin, America/New_York, Australia/Sydney (both directions, both hemispheres) and a
// zone without daylight saving; then notice, window, buffers, capacity and date overrides.
import { Temporal } from "temporal-polyfill";
import { describe, expect, it } from "vitest";
import { type SlotRules, resolveLocal, slotsBetween } from "./slots";

const LONG_AGO = Temporal.Instant.from("2026-01-01T00:00:00Z");
const starts = (rules: SlotRules, date: string, busy: Parameters<typeof slotsBetween>[3] = [], now = LONG_AGO) =>
  slotsBetween(rules, date, date, busy, now).map((s) => s.start);
const sunday = (timeZone: string, start: string, end: string, minutes: number): SlotRules => ({
  timeZone,
  weekly: [{ weekday: 7, start, end }],
  durationMinutes: minutes,
  intervalMinutes: minutes,
});

describe("daylight-saving transition days", () => {
  it("Europe/Berlin, spring: 02:00–03:00 does not exist on 29 March 2026", () => {
    expect(starts(sunday("Europe/Berlin", "01:00", "04:00", 30), "2026-03-29")).toEqual([
      "2026-03-29T00:00:00Z", // 01:00 CET
      "2026-03-29T00:30:00Z", // 01:30 CET
      "2026-03-29T01:00:00Z", // 03:00 CEST
      "2026-03-29T01:30:00Z", // 03:30 CEST, ends 04:00 CEST
    ]);
  });

  it("Europe/Berlin, autumn: 02:00–03:00 happens twice on 25 October 2026", () => {
    expect(starts(sunday("Europe/Berlin", "01:00", "04:00", 60), "2026-10-25")).toEqual([
      "2026-10-24T23:00:00Z", // 01:00 CEST
      "2026-10-25T00:00:00Z", // 02:00 CEST
      "2026-10-25T01:00:00Z", // 02:00 CET
      "2026-10-25T02:00:00Z", // 03:00 CET, ends 04:00 CET
    ]);
  });

  it("America/New_York, spring: 02:00–03:00 does not exist on 8 March 2026", () => {
    expect(starts(sunday("America/New_York", "01:00", "04:00", 60), "2026-03-08")).toEqual([
      "2026-03-08T06:00:00Z", // 01:00 EST
      "2026-03-08T07:00:00Z", // 03:00 EDT
    ]);
  });

  it("America/New_York, autumn: 01:00–02:00 happens twice on 1 November 2026", () => {
    expect(starts(sunday("America/New_York", "00:00", "03:00", 60), "2026-11-01")).toEqual([
      "2026-11-01T04:00:00Z", // 00:00 EDT
      "2026-11-01T05:00:00Z", // 01:00 EDT
      "2026-11-01T06:00:00Z", // 01:00 EST
      "2026-11-01T07:00:00Z", // 02:00 EST, ends 03:00 EST
    ]);
  });

  it("Australia/Sydney, autumn (April): 02:00–03:00 happens twice on 5 April 2026", () => {
    expect(starts(sunday("Australia/Sydney", "01:00", "04:00", 60), "2026-04-05")).toEqual([
      "2026-04-04T14:00:00Z", // 01:00 AEDT
      "2026-04-04T15:00:00Z", // 02:00 AEDT
      "2026-04-04T16:00:00Z", // 02:00 AEST
      "2026-04-04T17:00:00Z", // 03:00 AEST, ends 04:00 AEST
    ]);
  });

  it("Australia/Sydney, spring (October): 02:00–03:00 does not exist on 4 October 2026", () => {
    expect(starts(sunday("Australia/Sydney", "01:00", "04:00", 60), "2026-10-04")).toEqual([
      "2026-10-03T15:00:00Z", // 01:00 AEST
      "2026-10-03T16:00:00Z", // 03:00 AEDT
    ]);
  });

  it("Asia/Tokyo has no change: the same hours every Sunday", () => {
    const rules = sunday("Asia/Tokyo", "09:00", "12:00", 60);
    for (const [date, day] of [
      ["2026-03-29", "2026-03-29"],
      ["2026-10-25", "2026-10-25"],
    ] as const)
      expect(starts(rules, date)).toEqual([`${day}T00:00:00Z`, `${day}T01:00:00Z`, `${day}T02:00:00Z`]);
  });

  it("a 60-minute appointment is 60 real minutes: none starts at 01:30 CET if it would end past 03:00 CEST's close", () => {
    // Open 01:00–03:30 wall-clock on the spring day: 01:30 CET + 60 min = 03:30 CEST, the close; 02:30 is skipped.
    const rules: SlotRules = { ...sunday("Europe/Berlin", "01:00", "03:30", 60), intervalMinutes: 30 };
    expect(starts(rules, "2026-03-29")).toEqual(["2026-03-29T00:00:00Z", "2026-03-29T00:30:00Z"]);
  });

  it("keeps the wall clock over several days across a change: 09:00 Berlin before, on and after 29 March", () => {
    const daily: SlotRules = {
      timeZone: "Europe/Berlin",
      weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: "09:00", end: "10:00" })),
      durationMinutes: 60,
      intervalMinutes: 60,
    };
    expect(slotsBetween(daily, "2026-03-27", "2026-03-31", [], LONG_AGO).map((s) => s.start)).toEqual([
      "2026-03-27T08:00:00Z", // CET
      "2026-03-28T08:00:00Z",
      "2026-03-29T07:00:00Z", // CEST from the 29th
      "2026-03-30T07:00:00Z",
      "2026-03-31T07:00:00Z",
    ]);
  });

  it("America/Santiago skips midnight itself: 6 September 2026 starts at 01:00, and the days around it are right", () => {
    const nights: SlotRules = {
      timeZone: "America/Santiago",
      weekly: [6, 7, 1].map((weekday) => ({ weekday, start: "00:00", end: "02:00" })),
      durationMinutes: 60,
      intervalMinutes: 60,
    };
    expect(slotsBetween(nights, "2026-09-05", "2026-09-07", [], LONG_AGO).map((s) => s.start)).toEqual([
      "2026-09-05T04:00:00Z", // 00:00 −04
      "2026-09-05T05:00:00Z", // 01:00 −04
      "2026-09-06T04:00:00Z", // 01:00 −03 (00:00 does not exist)
      "2026-09-07T03:00:00Z", // 00:00 −03
      "2026-09-07T04:00:00Z", // 01:00 −03
    ]);
  });

  it("tells a skipped and a repeated local time apart from an ordinary one", () => {
    const at = (date: string, time: number, zone: string) => resolveLocal(Temporal.PlainDate.from(date), time, zone);
    expect(at("2026-03-29", 150, "Europe/Berlin")).toEqual({ kind: "skipped" });
    const repeated = at("2026-10-25", 150, "Europe/Berlin");
    expect(repeated.kind).toBe("ambiguous");
    if (repeated.kind === "ambiguous") {
      expect(repeated.earlier.toString()).toBe("2026-10-25T00:30:00Z");
      expect(repeated.later.toString()).toBe("2026-10-25T01:30:00Z");
    }
    const plain = at("2026-10-26", 150, "Europe/Berlin");
    expect(plain.kind === "unique" && plain.instant.toString()).toBe("2026-10-26T01:30:00Z");
  });
});

describe("what makes a time unavailable", () => {
  const weekday: SlotRules = {
    timeZone: "Europe/London",
    weekly: [{ weekday: 3, start: "09:00", end: "12:00" }],
    durationMinutes: 45,
    intervalMinutes: 30,
  };
  // Wednesday 3 June 2026, London on BST (UTC+1): 09:00 is 08:00Z.
  const day = "2026-06-03";

  it("keeps a slot whole inside its hours, on the grid", () => {
    expect(starts(weekday, day)).toEqual([
      "2026-06-03T08:00:00Z",
      "2026-06-03T08:30:00Z",
      "2026-06-03T09:00:00Z",
      "2026-06-03T09:30:00Z",
      "2026-06-03T10:00:00Z", // 11:00–11:45; 11:30 would end after 12:00
    ]);
  });

  it("leaves out what is booked, with the buffers on both sides", () => {
    const rules = { ...weekday, bufferBeforeMinutes: 15, bufferAfterMinutes: 15 };
    // Booked 10:00–10:45 BST: nothing may end after 09:30 (plus its own 15 minutes after) or start before 11:15.
    const busy = [{ start: "2026-06-03T09:00:00Z", end: "2026-06-03T09:45:00Z" }];
    expect(starts(rules, day, busy)).toEqual([]); // 09:00 ends 09:45 + 15 + 15 > 10:00; 11:00 starts too soon
    expect(starts({ ...rules, bufferBeforeMinutes: 0, bufferAfterMinutes: 0 }, day, busy)).toEqual([
      "2026-06-03T08:00:00Z",
      "2026-06-03T10:00:00Z",
    ]);
  });

  it("counts places for a class and hides a full one", () => {
    const rules = { ...weekday, capacity: 3 };
    const twoBooked = [
      { start: "2026-06-03T08:00:00Z", end: "2026-06-03T08:45:00Z", seats: 2 },
      { start: "2026-06-03T10:00:00Z", end: "2026-06-03T10:45:00Z", seats: 3 },
    ];
    const slots = slotsBetween(rules, day, day, twoBooked, LONG_AGO);
    expect(slots[0]).toEqual({ start: "2026-06-03T08:00:00Z", end: "2026-06-03T08:45:00Z", seatsLeft: 1 });
    expect(slots.map((s) => s.start)).not.toContain("2026-06-03T10:00:00Z");
  });

  it("shares a class's places only among its own bookings at the same start: anything else takes the host", () => {
    const yoga = { ...weekday, capacity: 10, pool: "yoga" };
    const busy = [
      // A one-to-one appointment of another service on the same host at 08:00…
      { start: "2026-06-03T08:00:00Z", end: "2026-06-03T08:45:00Z", seats: 1, pool: "massage" },
      // …and two places of this class at 10:00.
      { start: "2026-06-03T10:00:00Z", end: "2026-06-03T10:45:00Z", seats: 2, pool: "yoga" },
    ];
    const slots = slotsBetween(yoga, day, day, busy, LONG_AGO);
    expect(slots.map((s) => s.start)).not.toContain("2026-06-03T08:00:00Z");
    expect(slots.find((s) => s.start === "2026-06-03T10:00:00Z")?.seatsLeft).toBe(8);
    // No second session of the class overlapping the first.
    const onGrid = slotsBetween({ ...yoga, intervalMinutes: 15 }, day, day, busy, LONG_AGO).map((s) => s.start);
    expect(onGrid).not.toContain("2026-06-03T10:15:00Z");
    expect(onGrid).toContain("2026-06-03T10:00:00Z");
  });

  it("keeps the notice and the window", () => {
    const now = Temporal.Instant.from("2026-06-03T07:50:00Z");
    expect(starts({ ...weekday, noticeMinutes: 60 }, day, [], now)[0]).toBe("2026-06-03T09:00:00Z");
    expect(slotsBetween({ ...weekday, windowDays: 6 }, day, "2026-06-10", [], now).at(-1)?.start).toBe(
      "2026-06-03T10:00:00Z",
    );
    expect(slotsBetween({ ...weekday, windowDays: 7 }, day, "2026-06-10", [], now).at(-1)?.start).toBe(
      "2026-06-10T10:00:00Z",
    );
  });

  it("takes a date's own hours over the weekly ones, and none as closed", () => {
    const closed = { ...weekday, overrides: [{ date: day, ranges: [] }] };
    expect(starts(closed, day)).toEqual([]);
    const late = { ...weekday, overrides: [{ date: day, ranges: [{ start: "17:00", end: "18:00" }] }] };
    expect(starts(late, day)).toEqual(["2026-06-03T16:00:00Z"]);
    // An extra day the weekly hours do not have.
    const thursday = { ...weekday, overrides: [{ date: "2026-06-04", ranges: [{ start: "09:00", end: "10:00" }] }] };
    expect(starts(thursday, "2026-06-04")).toEqual(["2026-06-04T08:00:00Z"]);
  });
});
