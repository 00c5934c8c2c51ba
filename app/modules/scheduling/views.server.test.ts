// The availability body written by hand (spliced, its slot lists serialised once) is the JSON of the answer's
// object, byte for byte, whatever the service's text holds.
import { describe, expect, it } from "vitest";
import type { BookingService } from "./services.server";
import { availabilityBody, publicService } from "./views.server";

const service: BookingService = {
  id: "S1",
  slug: "cut",
  name: 'Cut "&" colour',
  description: "Line one\nline two, with ü and </script>",
  durationMinutes: 45,
  intervalMinutes: 15,
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 10,
  noticeMinutes: 60,
  windowDays: 30,
  capacity: 1,
  price: 4500,
  deposit: 1000,
  currency: "EUR",
  locationKind: "video",
  locationDetail: "https://meet.example/secret",
  questions: [{ id: "hair", label: "Hair length?", required: true, long: false }],
  cancelNoticeMinutes: 0,
  rescheduleNoticeMinutes: 0,
  requiresApproval: false,
  holdMinutes: 5,
  reminderHours: 24,
  followUpHours: 0,
  status: "active",
  hostIds: ["H1"],
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};
const range = { businessTimeZone: "Europe/Berlin", timeZone: "America/New_York", from: "2026-03-28", to: "2026-03-29" };

describe("availabilityBody", () => {
  it("is exactly the JSON of the answer, and never shows a video link", () => {
    const slots = [
      { start: "2026-03-28T08:00:00Z", end: "2026-03-28T08:45:00Z", seatsLeft: 1 },
      { start: "2026-03-29T07:00:00Z", end: "2026-03-29T07:45:00Z", seatsLeft: 1 },
    ];
    const text = availabilityBody(range, [{ service, slots }]);
    expect(text).toBe(JSON.stringify({ ...range, services: [publicService(service, slots)] }));
    expect(text).not.toContain("meet.example");
    // The same list again is the same text (remembered), and an empty answer is still JSON.
    expect(availabilityBody(range, [{ service, slots }])).toBe(text);
    expect(JSON.parse(availabilityBody(range, []))).toEqual({ ...range, services: [] });
  });
});
