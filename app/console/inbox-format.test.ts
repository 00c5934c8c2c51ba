import { describe, expect, it } from "vitest";
import { excerpt, receivedAt, receivedShort } from "./inbox-format";

describe("the inbox's times, in the workspace's time zone", () => {
  it("gives the full date and time where the business is, with its zone", () => {
    expect(receivedAt("2026-11-24T07:27:00.000Z", "Europe/Berlin")).toBe("24 Nov 2026, 08:27 CET");
    expect(receivedAt("2026-11-24T07:27:00.000Z", "UTC")).toBe("24 Nov 2026, 07:27 UTC");
  });

  it("leaves the year out of this year's messages, counting the year where the business is", () => {
    const now = new Date("2027-01-05T12:00:00.000Z");
    // New Year's Eve in UTC is already 2027 in Auckland: this year's, there.
    expect(receivedShort("2026-12-31T23:30:00.000Z", now, "Pacific/Auckland")).toBe("1 Jan, 12:30");
    expect(receivedShort("2026-12-31T23:30:00.000Z", now, "UTC")).toBe("31 Dec 2026");
  });

  it("shows a message's first words on one line", () => {
    expect(excerpt("Hello\n\n  there", 140)).toBe("Hello there");
    expect(excerpt("a".repeat(200), 10)).toBe(`${"a".repeat(9)}…`);
  });
});
