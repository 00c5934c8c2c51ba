/**
 * Harbor Bakery's bookings for the demo (ADR 036): a consultation with a baker on weekdays and a Saturday baking
 * class for eight in the kitchen, with a deposit — set up through the module functions the console calls, and two
 * bookings on the calendar so its first look is not empty.
 */
import type { Db } from "~db/client";
import { bookingsOf } from "./bookings.server";
import { hostsOf, servicesOf } from "./services.server";

const weekdays = (start: string, end: string) => [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start, end }));

export async function seedDemoScheduling(db: Db, workspaceId: string, userId: string, origin: string) {
  const hosts = hostsOf(db, workspaceId);
  const maya = await hosts.create(userId, {
    name: "Maya Chen",
    kind: "staff",
    userId,
    timeZone: "Europe/London",
    weekly: [...weekdays("09:00", "12:30"), ...weekdays("13:30", "16:00")],
  });
  const kitchen = await hosts.create(userId, {
    name: "The kitchen",
    kind: "resource",
    timeZone: "Europe/London",
    weekly: [{ weekday: 6, start: "09:00", end: "13:00" }],
  });
  const services = servicesOf(db, workspaceId);
  const consultation = await services.create(userId, {
    name: "Celebration cake consultation",
    description:
      "Half an hour with a baker to plan a wedding, birthday or anniversary cake: flavours, size, decoration and a " +
      "tasting of three sponges. Free, and the cost comes off your order.",
    durationMinutes: 30,
    bufferAfterMinutes: 15,
    noticeMinutes: 24 * 60,
    windowDays: 60,
    locationKind: "in_person",
    locationDetail: "12 Quayside, Whitby YO21 3PJ",
    questions: [
      { id: "occasion", label: "What is the occasion, and when?", required: true },
      { id: "guests", label: "How many guests?" },
    ],
    cancelNoticeMinutes: 12 * 60,
    rescheduleNoticeMinutes: 12 * 60,
    hostIds: [maya.id],
  });
  await services.create(userId, {
    name: "Sourdough baking class",
    description:
      "Three hours in our kitchen on a Saturday morning: feed a starter, shape two loaves and take them home with a " +
      "jar of our 40-year-old starter. Aprons and coffee provided.",
    durationMinutes: 180,
    intervalMinutes: 240,
    capacity: 8,
    price: 6500,
    deposit: 2000,
    windowDays: 90,
    noticeMinutes: 48 * 60,
    locationKind: "in_person",
    locationDetail: "12 Quayside, Whitby YO21 3PJ (the side door)",
    questions: [{ id: "allergies", label: "Any allergies we should know about?", long: true }],
    cancelNoticeMinutes: 7 * 24 * 60,
    rescheduleNoticeMinutes: 2 * 24 * 60,
    hostIds: [kitchen.id],
  });

  // The next two free consultations, booked by two of the demo's customers.
  const bookings = bookingsOf(db, workspaceId);
  const { found } = await bookings.availability({ service: consultation.slug, timeZone: "Europe/London" });
  const slots = found[0]?.slots ?? [];
  const guests = [
    { name: "Priya Natarajan", email: "priya@example.com", answers: { occasion: "Wedding, 14 June", guests: "120" } },
    { name: "Tom Ellison", email: "tom.ellison@example.com", answers: { occasion: "My dad's 70th, next month" } },
  ];
  for (const [i, guest] of guests.entries()) {
    const slot = slots[i * 3];
    if (!slot) break;
    await bookings.book(
      { service: consultation.slug, start: slot.start, timeZone: "Europe/London", ...guest },
      { customerId: null, source: "console", origin, actorUserId: userId },
    );
  }
}
