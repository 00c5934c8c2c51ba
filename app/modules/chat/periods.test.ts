import { describe, expect, it } from "vitest";
import { isPeriodWord, parsePeriod, periodInstants, todayIn } from "./periods";

const BERLIN = "Europe/Berlin";
/** Wednesday 10 March 2027, 09:00 in Berlin (CET, UTC+1). */
const AT = new Date("2027-03-10T08:00:00.000Z");
const parse = (text: string, options?: { past?: boolean }) => parsePeriod(text, BERLIN, AT, options);

describe("parsePeriod", () => {
  it("reads today, yesterday and tomorrow as days in the business's zone", () => {
    expect(parse("today's bookings")).toEqual({
      from: "2027-03-10",
      until: "2027-03-11",
      label: "today (Wed 10 Mar)",
      phrase: "todays",
    });
    expect(parse("sales yesterday")).toMatchObject({
      from: "2027-03-09",
      until: "2027-03-10",
      label: "yesterday (Tue 9 Mar)",
    });
    expect(parse("who is in tomorrow")).toMatchObject({ from: "2027-03-11", until: "2027-03-12" });
  });

  it("starts a week on Monday and a month on its first", () => {
    expect(parse("this week")).toMatchObject({
      from: "2027-03-08",
      until: "2027-03-15",
      label: "this week (Mon 8 Mar – Sun 14 Mar)",
    });
    expect(parse("last month")).toMatchObject({
      from: "2027-02-01",
      until: "2027-03-01",
      label: "last month (Mon 1 Feb – Sun 28 Feb)",
    });
  });

  it("counts the next and the last N days from today, today included", () => {
    expect(parse("the next 14 days")).toMatchObject({
      from: "2027-03-10",
      until: "2027-03-24",
      label: "in the next 14 days (Wed 10 Mar – Tue 23 Mar)",
    });
    expect(parse("the last 7 days")).toMatchObject({ from: "2027-03-04", until: "2027-03-11" });
  });

  it("reads a weekday as the coming one, or the last one when the question looks back; today is either", () => {
    expect(parse("bookings on Friday")).toMatchObject({ from: "2027-03-12", label: "on Friday (Fri 12 Mar)" });
    expect(parse("sales on Friday", { past: true })).toMatchObject({ from: "2027-03-05", until: "2027-03-06" });
    expect(parse("on Wednesday")).toMatchObject({ from: "2027-03-10" });
    expect(parse("on Wednesday", { past: true })).toMatchObject({ from: "2027-03-10" });
  });

  it("reads a month as this year's while it lasts, then the next (or, looking back, the last) one", () => {
    expect(parse("bookings in March")).toMatchObject({ from: "2027-03-01", until: "2027-04-01" });
    expect(parse("bookings in January")).toMatchObject({ from: "2028-01-01", until: "2028-02-01" });
    expect(parse("sales in January", { past: true })).toMatchObject({ from: "2027-01-01" });
    expect(parse("sales in April", { past: true })).toMatchObject({ from: "2026-04-01", until: "2026-05-01" });
  });

  it("reads the weekend as this week's Saturday and Sunday, or the last one looking back", () => {
    expect(parse("this weekend")).toMatchObject({ from: "2027-03-13", until: "2027-03-15" });
    expect(parse("sales at the weekend", { past: true })).toMatchObject({ from: "2027-03-06", until: "2027-03-08" });
  });

  it("reads an ISO date, and refuses one that does not exist", () => {
    expect(parse("bookings on 2027-12-24")).toEqual({
      from: "2027-12-24",
      until: "2027-12-25",
      label: "on 2027-12-24 (Fri 24 Dec)",
      phrase: "2027-12-24",
    });
    expect(parse("bookings on 2027-02-30")).toBeNull();
  });

  it("takes the period named last, and none when none is named", () => {
    expect(parse("today's bookings? and tomorrow?")).toMatchObject({ from: "2027-03-11" });
    expect(parse("tomorrow, no, yesterday")).toMatchObject({ from: "2027-03-09" });
    expect(parse("what is low on stock")).toBeNull();
  });
});

describe("periodInstants", () => {
  it("turns a day into its instants in the zone, so a day across a clock change is 23 or 25 hours long", () => {
    // Sunday 28 March 2027: Berlin moves from UTC+1 to UTC+2 at 02:00.
    const spring = periodInstants({ from: "2027-03-28", until: "2027-03-29" }, BERLIN);
    expect(spring).toEqual({ fromIso: "2027-03-27T23:00:00.000Z", untilIso: "2027-03-28T22:00:00.000Z" });
    expect(Date.parse(spring.untilIso) - Date.parse(spring.fromIso)).toBe(23 * 3_600_000);
    // Sunday 31 October 2027: back from UTC+2 to UTC+1.
    const autumn = periodInstants({ from: "2027-10-31", until: "2027-11-01" }, BERLIN);
    expect(autumn).toEqual({ fromIso: "2027-10-30T22:00:00.000Z", untilIso: "2027-10-31T23:00:00.000Z" });
    expect(Date.parse(autumn.untilIso) - Date.parse(autumn.fromIso)).toBe(25 * 3_600_000);
  });
});

describe("todayIn and isPeriodWord", () => {
  it("says the date in the zone, not in UTC", () => {
    // 23:30 UTC on the 9th is already 00:30 on the 10th in Berlin.
    expect(todayIn(BERLIN, new Date("2027-03-09T23:30:00.000Z")).toString()).toBe("2027-03-10");
  });

  it("tells a day or a month from a name", () => {
    expect(["Tuesday", "march", "Today's", "Christmas"].map(isPeriodWord)).toEqual([true, true, true, true]);
    expect(["Tom", "Priya"].map(isPeriodWord)).toEqual([false, false]);
  });
});
