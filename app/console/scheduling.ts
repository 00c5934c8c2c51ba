/** The console's Scheduling area (ADR 036): its tab bar and the words it uses for states. Plain data for the pages. */
import type { BookingStatus } from "~/modules/scheduling/api";
import type { SectionTab } from "~/ui/section-tabs";

export const SCHEDULING_TABS: readonly SectionTab[] = [
  { label: "Calendar", to: "/scheduling", end: true },
  { label: "Bookings", to: "/scheduling/bookings" },
  { label: "Services", to: "/scheduling/services" },
  { label: "Availability", to: "/scheduling/availability" },
];

/** The bookings list's filters, in the order its chips show them (operator.server.ts reads the same words). */
export const BOOKING_FILTERS = ["upcoming", "pending", "past", "cancelled", "all"] as const;

export const BOOKING_STATUS_LABELS: Record<BookingStatus, string> = {
  held: "Awaiting deposit",
  pending: "Needs approval",
  confirmed: "Confirmed",
  cancelled: "Cancelled",
  expired: "Expired",
  completed: "Completed",
  no_show: "No-show",
};

export const SERVICE_STATUS_LABELS = { draft: "Draft", active: "Active", archived: "Archived" } as const;

export const LOCATION_LABELS = { in_person: "In person", phone: "Phone call", video: "Video call" } as const;

export const WEEKDAYS = [
  { n: 1, name: "Monday" },
  { n: 2, name: "Tuesday" },
  { n: 3, name: "Wednesday" },
  { n: 4, name: "Thursday" },
  { n: 5, name: "Friday" },
  { n: 6, name: "Saturday" },
  { n: 7, name: "Sunday" },
] as const;

/** "1 hour 30 min", "45 min", "2 days": a duration as people say it. */
export function durationText(minutes: number): string {
  if (minutes === 0) return "none";
  if (minutes % 1440 === 0) return `${minutes / 1440} ${minutes === 1440 ? "day" : "days"}`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return [h ? `${h} ${h === 1 ? "hour" : "hours"}` : "", m ? `${m} min` : ""].filter(Boolean).join(" ");
}
