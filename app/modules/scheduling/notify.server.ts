/**
 * A booking's e-mails (ADR 036), queued in the transaction that changed the booking, so a mail server that is
 * down delays them and loses none. `enqueueBookingMail` is the one call the booking code makes; what each event
 * sends (and the reminder and follow-up it schedules) lives here.
 */
import type { Db } from "~db/client";
import { newId } from "~/lib/ids.server";
import { enqueueJob } from "~/modules/jobs/jobs.server";

export const BOOKING_MAIL_JOB = "scheduling.booking-mail";

export type BookingMailEvent = "created" | "confirmed" | "rescheduled" | "cancelled" | "expired" | "declined";

export interface BookingMailPayload {
  bookingId: string;
  event: BookingMailEvent;
  /** The deployment's address the e-mail's links start from. */
  origin: string;
  /** One id per change: the mailer's idempotency key, so a retried job sends each mail once. */
  eventId: string;
  /** Who made the change: the customer's own change is not announced back to them twice. */
  by: "customer" | "guest" | "operator" | "system";
}

export async function enqueueBookingMail(
  trx: Db,
  workspaceId: string,
  payload: Omit<BookingMailPayload, "eventId">,
): Promise<void> {
  await enqueueJob(trx, {
    kind: BOOKING_MAIL_JOB,
    workspaceId,
    payload: { ...payload, eventId: newId() } satisfies BookingMailPayload,
    maxAttempts: 6,
  });
}
