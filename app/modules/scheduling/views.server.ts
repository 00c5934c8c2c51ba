/** What the customer API and the public pages show of services and bookings (ADR 036). */
import type { BookingRow } from "~db/schema/scheduling";
import type { BookingStatus } from "./api";
import type { BookingService } from "./services.server";
import type { Slot } from "./slots";

/**
 * A service as the public sees it. A video link or a phone number is the booker's alone: it is in their
 * confirmation, not on the open site; an address is public (people look it up before booking).
 */
export function publicService(service: BookingService, slots: Slot[]) {
  return {
    id: service.id,
    slug: service.slug,
    name: service.name,
    description: service.description,
    durationMinutes: service.durationMinutes,
    price: service.price,
    deposit: service.deposit,
    currency: service.currency,
    capacity: service.capacity,
    location: {
      kind: service.locationKind,
      detail: service.locationKind === "in_person" ? service.locationDetail : null,
    },
    questions: service.questions,
    requiresApproval: service.requiresApproval,
    cancelNoticeMinutes: service.cancelNoticeMinutes,
    rescheduleNoticeMinutes: service.rescheduleNoticeMinutes,
    slots,
  };
}

export function bookingView(
  b: BookingRow,
  service: BookingService,
  rights: { canCancel: boolean; canReschedule: boolean },
) {
  return {
    id: b.id,
    status: b.status as BookingStatus,
    service: { id: service.id, slug: service.slug, name: service.name },
    start: b.start_at,
    end: b.end_at,
    timeZone: b.visitor_time_zone,
    seats: b.seats,
    name: b.name,
    email: b.email,
    price: b.price,
    deposit: b.deposit,
    amountPaid: b.amount_paid,
    currency: b.currency,
    holdExpiresAt: b.hold_expires_at,
    location: { kind: service.locationKind, detail: service.locationDetail },
    canCancel: rights.canCancel,
    canReschedule: rights.canReschedule,
    createdAt: b.created_at,
  };
}

/** The JSON of a remembered slot list, made once per list (a fortnight's is tens of kilobytes). */
const slotsJson = new WeakMap<readonly Slot[], string>();

/**
 * `GET /api/v1/bookings/services`' body as text. The slot lists come from the remembered availability (see
 * `bookingsOf().availability`), the same arrays from request to request until a booking changes them, so each is
 * serialised once and spliced in; only the small rest is written per request.
 */
export function availabilityBody(
  range: { businessTimeZone: string; timeZone: string; from: string; to: string },
  found: readonly { service: BookingService; slots: Slot[] }[],
): string {
  const services = found.map(({ service, slots }) => {
    let list = slotsJson.get(slots);
    if (list === undefined) {
      list = JSON.stringify(slots);
      slotsJson.set(slots, list);
    }
    const { slots: _omitted, ...rest } = publicService(service, []);
    return `${JSON.stringify(rest).slice(0, -1)},"slots":${list}}`;
  });
  return `${JSON.stringify(range).slice(0, -1)},"services":[${services.join(",")}]}`;
}
