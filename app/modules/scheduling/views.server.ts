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
