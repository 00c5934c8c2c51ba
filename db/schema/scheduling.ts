/**
 * Owned by `app/modules/scheduling` (issue 19, ADR 036). Created in 0032-scheduling. Times are ISO-8601 UTC
 * instants; wall-clock hours live in a host's JSON rules with its IANA zone, never as offsets. Money columns are
 * integers in minor units of the service's `currency`.
 */
import type { Selectable } from "kysely";

export interface BookingServicesTable {
  id: string;
  workspace_id: string;
  slug: string;
  name: string;
  description: string;
  duration_minutes: number;
  interval_minutes: number;
  buffer_before_minutes: number;
  buffer_after_minutes: number;
  notice_minutes: number;
  window_days: number;
  /** Places per slot: 1 for an appointment, more for a class. */
  capacity: number;
  price: number;
  /** Taken at booking; 0 books without paying first. */
  deposit: number;
  currency: string;
  /** `in_person` | `phone` | `video`. */
  location_kind: string;
  /** The address, the number to call, or the video link. */
  location_detail: string;
  /** JSON: `BookingQuestion[]`. */
  questions: string;
  cancel_notice_minutes: number;
  reschedule_notice_minutes: number;
  requires_approval: number;
  /** How long an unpaid deposit holds its slot. */
  hold_minutes: number;
  /** Hours before the start the reminder goes; 0 sends none. */
  reminder_hours: number;
  /** Hours after the end the follow-up goes; 0 sends none. */
  follow_up_hours: number;
  /** `draft` | `active` | `archived`. */
  status: string;
  created_at: string;
  updated_at: string;
}

/** Who or what delivers a service: a staff member or a resource (a room, a chair), each with its own hours. */
export interface BookingHostsTable {
  id: string;
  workspace_id: string;
  /** `staff` | `resource`. */
  kind: string;
  name: string;
  /** The member a staff host is, when they have an account (their notifications, their feed). */
  user_id: string | null;
  time_zone: string;
  /** JSON: `WeeklyRule[]`. */
  weekly: string;
  /** JSON: `DateOverride[]` (closed dates are overrides with no hours). */
  overrides: string;
  /** Bumped by every booking of this host: the first write of its transaction, so it serialises them. */
  lock_seq: number;
  /** SHA-256 of the secret in the host's iCalendar feed address; null when there is none. */
  feed_token_hash: string | null;
  status: string;
  created_at: string;
  updated_at: string;
}

export interface BookingServiceHostsTable {
  service_id: string;
  host_id: string;
}

export interface BookingsTable {
  id: string;
  workspace_id: string;
  service_id: string;
  host_id: string;
  customer_id: string | null;
  /** `held` | `pending` | `confirmed` | `cancelled` | `expired` | `completed` | `no_show`. */
  status: string;
  start_at: string;
  end_at: string;
  seats: number;
  name: string;
  email: string;
  phone: string;
  /** JSON: `Record<questionId, string>`. */
  answers: string;
  /** The zone the booker chose the time in, for their e-mails. */
  visitor_time_zone: string;
  notes: string;
  price: number;
  deposit: number;
  currency: string;
  amount_paid: number;
  /** Until when an unpaid deposit holds the slot; null once paid or when none is owed. */
  hold_expires_at: string | null;
  /** `site` | `console` | `api` | `sop`. */
  source: string;
  cancelled_at: string | null;
  cancelled_by: string | null;
  cancel_reason: string;
  reminder_sent_at: string | null;
  follow_up_sent_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A shop order that pays (part of) a booking: `deposit` or `balance`. */
export interface BookingPaymentsTable {
  order_id: string;
  booking_id: string;
  workspace_id: string;
  kind: string;
  amount: number;
  created_at: string;
}

export interface BookingWaitlistTable {
  id: string;
  workspace_id: string;
  service_id: string;
  start_at: string;
  customer_id: string | null;
  name: string;
  email: string;
  visitor_time_zone: string;
  /** `waiting` | `offered` | `booked` | `withdrawn`. */
  status: string;
  offered_at: string | null;
  created_at: string;
}

export interface SchedulingTables {
  booking_services: BookingServicesTable;
  booking_hosts: BookingHostsTable;
  booking_service_hosts: BookingServiceHostsTable;
  bookings: BookingsTable;
  booking_payments: BookingPaymentsTable;
  booking_waitlist: BookingWaitlistTable;
}

export type BookingServiceRow = Selectable<BookingServicesTable>;
export type BookingHostRow = Selectable<BookingHostsTable>;
export type BookingRow = Selectable<BookingsTable>;
