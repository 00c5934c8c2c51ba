/**
 * The bookings event family (`/api/webhooks/bookings`, ADR 027 and 036): booking setup changed by an integration
 * (a staff rota, an HR system's days off, a class timetable), applied through the same functions the console's
 * Scheduling pages call, so each purges the booking pages in its transaction.
 *
 * - `bookings.service.saved` creates a service (`serviceId` null) or replaces one, whole, as the service form saves;
 * - `bookings.availability.saved` creates a staff member or resource (`hostId` null) or replaces their hours;
 * - `bookings.availability.closed` closes a host on some dates (holidays, sick days), keeping their other exceptions.
 */
import { z } from "zod";
import { defineEventFamily, eventEnvelope } from "~/modules/events/family";
import { HostInput, ServiceInput } from "./api";
import { hostsOf, servicesOf } from "./services.server";

const ref = z.string().min(1).max(64);
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Use YYYY-MM-DD");

const BookingsEvent = z.discriminatedUnion("type", [
  eventEnvelope("bookings.service.saved", z.object({ serviceId: ref.nullable(), service: ServiceInput })),
  eventEnvelope("bookings.availability.saved", z.object({ hostId: ref.nullable(), host: HostInput })),
  eventEnvelope(
    "bookings.availability.closed",
    z.object({
      hostId: ref,
      dates: z
        .array(z.object({ date: Day, label: z.string().max(120).default("") }))
        .min(1)
        .max(100),
    }),
  ),
]);

export const bookingsEvents = defineEventFamily({
  family: "bookings",
  schema: BookingsEvent,
  tags: ["bookings"],
  describe: {
    summary: "Booking setup changes (services, hours, days off)",
    description:
      "`bookings.service.saved` creates (`serviceId: null`) or replaces a service whole: length, price and deposit " +
      "in minor units of the business's currency, buffers, notice, window, places, questions and who delivers it " +
      "(`hostIds`). `bookings.availability.saved` creates (`hostId: null`) or replaces a staff member's or " +
      "resource's weekly hours in their IANA zone and dated exceptions. `bookings.availability.closed` closes one " +
      "on the dates given, keeping their other exceptions. Bookings already made stay; another workspace's " +
      "service or staff member is refused with 404 and changes nothing.",
    example: {
      type: "bookings.availability.closed",
      workspace: "01JB6Z0000000000000000000",
      data: { hostId: "01JB6Z0000000000000000001", dates: [{ date: "2026-12-24", label: "Christmas Eve" }] },
    },
  },
  async apply(services, workspace, event) {
    switch (event.type) {
      case "bookings.service.saved": {
        const all = servicesOf(services.db, workspace.id);
        const { serviceId, service } = event.data;
        if (serviceId === null) await all.create(null, service);
        else await all.update(null, serviceId, service);
        return;
      }
      case "bookings.availability.saved": {
        const hosts = hostsOf(services.db, workspace.id);
        const { hostId, host } = event.data;
        if (hostId === null) await hosts.create(null, host);
        else await hosts.update(null, hostId, host);
        return;
      }
      case "bookings.availability.closed":
        await hostsOf(services.db, workspace.id).close(null, event.data.hostId, event.data.dates);
        return;
    }
  },
});
