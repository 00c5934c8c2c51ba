import { describe, expect, it } from "vitest";
import {
  escapeText,
  foldLine,
  googleCalendarUrl,
  icsDateTime,
  outlookCalendarUrl,
  paramValue,
  renderCalendar,
  type IcsEvent,
} from "./ics";

const octets = (s: string) => new TextEncoder().encode(s).length;

const event: IcsEvent = {
  uid: "01JBOOKING@atrium",
  sequence: 2,
  start: "2026-03-29T07:00:00.000Z",
  end: "2026-03-29T08:00:00.000Z",
  stamp: "2026-03-25T08:00:00.000Z",
  summary: "Massage, deep; tissue",
  description: "Line one\nLine two",
  location: "Torstraße 1, Berlin",
  status: "CONFIRMED",
  organizer: { name: "Studio: Mia", email: "bookings@example.test" },
  attendee: { name: 'Ada "the" Visitor', email: "ada@example.test" },
};

describe("escaping (RFC 5545 §3.3.11)", () => {
  it("escapes backslash, semicolon, comma and line breaks, backslash first", () => {
    expect(escapeText("a\\b;c,d\ne\r\nf")).toBe("a\\\\b\\;c\\,d\\ne\\nf");
    expect(escapeText("C:\\path")).toBe("C:\\\\path");
  });

  it("quotes parameter values that need it and drops what no parameter may hold", () => {
    expect(paramValue("Mia")).toBe("Mia");
    expect(paramValue("Studio: Mia")).toBe('"Studio: Mia"');
    expect(paramValue('Ada "the" Visitor')).toBe("Ada the Visitor");
    expect(paramValue("a\nb")).toBe("ab");
  });
});

describe("folding (RFC 5545 §3.1)", () => {
  it("leaves a line of 75 octets alone and folds the 76th onto a continuation line", () => {
    const line = "X".repeat(75);
    expect(foldLine(line)).toBe(line);
    expect(foldLine(`${line}Y`)).toBe(`${line}\r\n Y`);
  });

  it("keeps every physical line within 75 octets, the leading space included, and unfolds to the original", () => {
    const line = `DESCRIPTION:${"ab".repeat(120)}`;
    const physical = foldLine(line).split("\r\n");
    expect(physical.length).toBeGreaterThan(3);
    for (const p of physical) expect(octets(p)).toBeLessThanOrEqual(75);
    expect(physical.slice(1).every((p) => p.startsWith(" "))).toBe(true);
    expect(foldLine(line).replace(/\r\n /g, "")).toBe(line);
  });

  it("counts UTF-8 octets and never splits a character", () => {
    const line = `SUMMARY:${"ß".repeat(40)}${"😀".repeat(10)}`;
    const physical = foldLine(line).split("\r\n");
    for (const p of physical) {
      expect(octets(p)).toBeLessThanOrEqual(75);
      expect(p).not.toContain("\uFFFD");
    }
    // 8 + 33×2 = 74 octets fit; the 34th ß (75, 76) does not.
    expect(physical[0]).toBe(`SUMMARY:${"ß".repeat(33)}`);
    expect(foldLine(line).replace(/\r\n /g, "")).toBe(line);
  });
});

describe("a booking's calendar", () => {
  it("writes UTC times with Z, one UID and SEQUENCE, CRLF everywhere, and escaped text", () => {
    const text = renderCalendar({ method: "REQUEST", events: [event] });
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    const lines = text.replace(/\r\n /g, "").split("\r\n");
    expect(lines).toContain("METHOD:REQUEST");
    expect(lines).toContain("DTSTART:20260329T070000Z");
    expect(lines).toContain("DTEND:20260329T080000Z");
    expect(lines).toContain("UID:01JBOOKING@atrium");
    expect(lines).toContain("SEQUENCE:2");
    expect(lines).toContain("SUMMARY:Massage\\, deep\\; tissue");
    expect(lines).toContain("DESCRIPTION:Line one\\nLine two");
    expect(lines).toContain("LOCATION:Torstraße 1\\, Berlin");
    expect(lines).toContain('ORGANIZER;CN="Studio: Mia":mailto:bookings@example.test');
    expect(lines).toContain("ATTENDEE;CN=Ada the Visitor;ROLE=REQ-PARTICIPANT;RSVP=FALSE:mailto:ada@example.test");
    expect(lines[0]).toBe("BEGIN:VCALENDAR");
    expect(lines.at(-2)).toBe("END:VCALENDAR");
  });

  it("leaves out people without an address (a staff feed names no customer's e-mail)", () => {
    const text = renderCalendar({
      method: "PUBLISH",
      name: "Mia, bookings",
      events: [{ ...event, organizer: undefined, attendee: { name: "Ada" } }],
    });
    expect(text).not.toContain("ATTENDEE");
    expect(text).not.toContain("mailto:");
    expect(text).toContain("X-WR-CALNAME:Mia\\, bookings\r\n");
  });

  it("formats instants with offsets or milliseconds in UTC, and refuses garbage", () => {
    expect(icsDateTime("2026-03-29T09:00:00+02:00")).toBe("20260329T070000Z");
    expect(() => icsDateTime("tomorrow")).toThrow();
  });
});

describe("add-to-calendar links", () => {
  it("prefill Google Calendar and Outlook with the UTC times", () => {
    const google = new URL(googleCalendarUrl(event));
    expect(google.searchParams.get("action")).toBe("TEMPLATE");
    expect(google.searchParams.get("dates")).toBe("20260329T070000Z/20260329T080000Z");
    expect(google.searchParams.get("location")).toBe("Torstraße 1, Berlin");
    const outlook = new URL(outlookCalendarUrl(event));
    expect(outlook.host).toBe("outlook.live.com");
    expect(outlook.searchParams.get("startdt")).toBe("2026-03-29T07:00:00Z");
    expect(outlook.searchParams.get("subject")).toBe("Massage, deep; tissue");
  });
});
