/**
 * The public booking pages' helpers (issue 19, ADR 036): the services list, the week-and-times picker, the
 * booking form's input, who is looking at a booking, and a booking as its confirmation and the portal show it.
 * Everything a page shows is formatted here, on the server, in the zone the visitor reads times in: the pages
 * ship no JavaScript they need (the picker's script only swaps the zone for the browser's own).
 */
import type { AppLoadContext } from "@remix-run/node";
import { parse } from "cookie";
import { Temporal } from "temporal-polyfill";
import type { BookingRow } from "~db/schema/scheduling";
import type { Db } from "~db/client";
import { now } from "~/lib/clock.server";
import type { FormValues } from "~/lib/forms.server";
import { manageCookieName } from "~/modules/access/customer.server";
import type { ResolvedSite } from "~/modules/access/site.server";
import { publicCacheHeaders } from "~/modules/cache/headers";
import { formatMoney } from "~/modules/commerce/money";
import { grantOfToken, type ManageGrant } from "~/modules/customers/manage-tokens.server";
import { readCustomerSession } from "~/modules/customers/sessions.server";
import type { Customer } from "~/modules/customers/customers.server";
import { siteFrameTags } from "~/modules/sites/page-cache";
import { cacheTags } from "~/modules/cache/tags";
import { profileOf } from "~/modules/sites/profile.server";
import { isTimeZone, type BookingStatus } from "./api";
import { bookingsOf, minutesText, type BookingActor } from "./bookings.server";
import type { BookingService } from "./services.server";
import { openBookingCheckout, settleBookingReturn } from "./payments.server";
import { publicService } from "./views.server";

/**
 * How long a booking page may be served from a cache. Every write that changes its times (a booking made, moved,
 * cancelled or expired; a service or someone's hours saved) purges its `bookings` tag; but times also leave the
 * page as the clock moves into their notice, and a deposit order released by the shop's sweep frees its slot
 * without a purge. So the answer lives half a minute at most: long enough to absorb a burst of visitors, short
 * enough that the clock's changes show soon. A visitor who still picks a time just taken gets the 409's next
 * free times on the form, never a double booking.
 */
export const BOOKING_PAGE_SECONDS = 30;
const BOOKING_CACHE_CONTROL = `public, max-age=0, must-revalidate, s-maxage=${BOOKING_PAGE_SECONDS}, stale-while-revalidate=${BOOKING_PAGE_SECONDS}`;

/** A booking page's own cache headers: the site's frame tags, kept by this process for 30 seconds. */
export function bookingPageCacheHeaders(workspaceId: string, varyQuery: string[]): Record<string, string> {
  return publicCacheHeaders({
    tags: [...siteFrameTags(workspaceId), cacheTags.bookings(workspaceId)],
    until: new Date(now().getTime() + BOOKING_PAGE_SECONDS * 1000),
    varyQuery,
  });
}

/** Merged headers with the shared caches' lifetime cut to the booking pages' (the merge restores the default). */
export function shortLived(headers: Record<string, string>): Record<string, string> {
  const control = headers["Cache-Control"];
  if (!control || !/\bs-maxage=/.test(control)) return headers;
  return { ...headers, "Cache-Control": BOOKING_CACHE_CONTROL };
}

/** Zones offered in "Show times in" besides the business's and the one asked for; a script offers the browser's. */
const COMMON_ZONES = [
  "Pacific/Honolulu",
  "America/Anchorage",
  "America/Los_Angeles",
  "America/Denver",
  "America/Chicago",
  "America/New_York",
  "America/Toronto",
  "America/Mexico_City",
  "America/Sao_Paulo",
  "America/Argentina/Buenos_Aires",
  "Atlantic/Reykjavik",
  "Europe/London",
  "Europe/Dublin",
  "Europe/Lisbon",
  "Europe/Paris",
  "Europe/Berlin",
  "Europe/Madrid",
  "Europe/Rome",
  "Europe/Amsterdam",
  "Europe/Stockholm",
  "Europe/Warsaw",
  "Europe/Athens",
  "Europe/Helsinki",
  "Europe/Istanbul",
  "Europe/Moscow",
  "Africa/Lagos",
  "Africa/Cairo",
  "Africa/Johannesburg",
  "Africa/Nairobi",
  "Asia/Dubai",
  "Asia/Karachi",
  "Asia/Kolkata",
  "Asia/Dhaka",
  "Asia/Bangkok",
  "Asia/Singapore",
  "Asia/Shanghai",
  "Asia/Hong_Kong",
  "Asia/Seoul",
  "Asia/Tokyo",
  "Australia/Perth",
  "Australia/Adelaide",
  "Australia/Sydney",
  "Pacific/Auckland",
  "UTC",
];

export function zoneChoices(...also: string[]): string[] {
  return [...new Set([...also, ...COMMON_ZONES])].sort((a, b) => a.localeCompare(b));
}

/** The zone asked for, when the runtime knows it; else null (the page falls back to the business's). */
export function askedZone(value: string | null): string | null {
  const zone = value?.trim().slice(0, 64) ?? "";
  return zone && isTimeZone(zone) ? zone : null;
}

const LOCALE = "en-GB";
const formatters = new Map<string, Intl.DateTimeFormat>();
function fmt(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(LOCALE, { timeZone, ...options });
    formatters.set(key, found);
  }
  return found;
}

export const timeLabel = (iso: string, timeZone: string) =>
  fmt(timeZone, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(iso));
/** "Saturday 28 March 2026", from its parts: the same on every ICU version (some put a comma after the day). */
export function dayLabel(iso: string, timeZone: string): string {
  const parts = fmt(timeZone, { weekday: "long", day: "numeric", month: "long", year: "numeric" }).formatToParts(
    new Date(iso),
  );
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("weekday")} ${part("day")} ${part("month")} ${part("year")}`;
}
const offsetLabel = (iso: string, timeZone: string) =>
  fmt(timeZone, { timeZoneName: "shortOffset" })
    .formatToParts(new Date(iso))
    .find((p) => p.type === "timeZoneName")?.value ?? "";
/** "Saturday 28 March 2026, 09:00": a booking's start as its booker reads it. */
export const whenLabel = (iso: string, timeZone: string) => `${dayLabel(iso, timeZone)}, ${timeLabel(iso, timeZone)}`;

const dateOf = (iso: string, timeZone: string) =>
  Temporal.Instant.from(iso).toZonedDateTimeISO(timeZone).toPlainDate().toString();

const LOCATION_LABELS = { in_person: "In person", phone: "By phone", video: "Video call" } as const;

/** What a service card and the picker's summary show of a service. */
export function serviceCard(service: BookingService) {
  const view = publicService(service, []);
  return {
    slug: view.slug,
    name: view.name,
    description: view.description,
    duration: minutesText(view.durationMinutes),
    price: view.price > 0 ? formatMoney(view.price, view.currency) : "Free",
    deposit: view.deposit > 0 ? formatMoney(view.deposit, view.currency) : null,
    location: view.location.detail
      ? `${LOCATION_LABELS[view.location.kind]}: ${view.location.detail}`
      : LOCATION_LABELS[view.location.kind],
    requiresApproval: view.requiresApproval,
    holdMinutes: service.holdMinutes,
    questions: view.questions,
    cancelNotice: view.cancelNoticeMinutes > 0 ? minutesText(view.cancelNoticeMinutes) : null,
  };
}
export type ServiceCard = ReturnType<typeof serviceCard>;

/** /{site}/bookings: every active service with its next free time in the next two weeks. */
export async function servicesPage(db: Db, workspaceId: string, askedTz: string | null) {
  const { businessTimeZone, timeZone, found } = await bookingsOf(db, workspaceId).availability({
    timeZone: askedTz ?? undefined,
  });
  return {
    businessTimeZone,
    timeZone,
    services: found.map(({ service, slots }) => ({
      ...serviceCard(service),
      next: slots[0] ? whenLabel(slots[0].start, timeZone) : null,
    })),
  };
}

export interface PickerQuery {
  serviceSlug: string;
  date: string | null;
  tz: string | null;
  start: string | null;
}

const isDate = (value: string | null): value is string => {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  try {
    return Temporal.PlainDate.from(value, { overflow: "reject" }).toString() === value;
  } catch {
    return false;
  }
};

/**
 * /{site}/bookings/{service}: a week of days (Monday first) around the chosen date, the chosen day's free times
 * in `timeZone`, and the time chosen (when `start` is still free). Without a date, the first day with a free time.
 */
export async function pickerPage(db: Db, workspaceId: string, query: PickerQuery) {
  const bookings = bookingsOf(db, workspaceId);
  const profile = await profileOf(db, workspaceId).get();
  const timeZone = askedZone(query.tz) ?? profile.timeZone;
  const today = Temporal.Instant.fromEpochMilliseconds(now().getTime()).toZonedDateTimeISO(timeZone).toPlainDate();
  let startIso: string | null = null;
  if (query.start) {
    try {
      const instant = Temporal.Instant.from(query.start);
      const year = new Date(instant.epochMilliseconds).getUTCFullYear();
      // A time no calendar could offer (year 275760…) is no choice at all, not a date to compute a week from.
      startIso = year >= 2000 && year <= 2200 ? instant.toString() : null;
    } catch {
      startIso = null;
    }
  }
  let date = isDate(query.date) ? Temporal.PlainDate.from(query.date) : null;
  if (!date && startIso) date = Temporal.PlainDate.from(dateOf(startIso, timeZone));
  if (!date) {
    const ahead = await bookings.availability({
      service: query.serviceSlug,
      from: today.toString(),
      to: today.add({ days: 30 }).toString(),
      timeZone,
    });
    const first = ahead.found[0]?.slots[0];
    date = first ? Temporal.PlainDate.from(dateOf(first.start, timeZone)) : today;
  }
  if (Temporal.PlainDate.compare(date, today) < 0) date = today;
  const monday = date.subtract({ days: date.dayOfWeek - 1 });
  const week = await bookings.availability({
    service: query.serviceSlug,
    from: monday.toString(),
    to: monday.add({ days: 6 }).toString(),
    timeZone,
  });
  const { service, slots } = week.found[0]!;
  const lastDay = today.add({ days: service.windowDays });
  const byDay = new Map<string, typeof slots>();
  for (const slot of slots) {
    const day = dateOf(slot.start, timeZone);
    byDay.set(day, [...(byDay.get(day) ?? []), slot]);
  }
  const days = Array.from({ length: 7 }, (_, i) => {
    const d = monday.add({ days: i });
    const key = d.toString();
    const noon = d.toZonedDateTime({ timeZone, plainTime: "12:00" }).toInstant().toString();
    return {
      date: key,
      weekday: fmt(timeZone, { weekday: "short" }).format(new Date(noon)),
      day: d.day,
      month: fmt(timeZone, { month: "short" }).format(new Date(noon)),
      label: dayLabel(noon, timeZone),
      free: byDay.get(key)?.length ?? 0,
      past: Temporal.PlainDate.compare(d, today) < 0,
      selected: key === date.toString(),
    };
  });
  const chosen = byDay.get(date.toString()) ?? [];
  const labels = chosen.map((s) => timeLabel(s.start, timeZone));
  const times = chosen.map((s, i) => ({
    start: s.start,
    // A time the clocks repeat (the night they go back) reads twice: each says its offset.
    label:
      labels.indexOf(labels[i]!) !== labels.lastIndexOf(labels[i]!)
        ? `${labels[i]} (${offsetLabel(s.start, timeZone)})`
        : labels[i]!,
    seatsLeft: s.seatsLeft,
  }));
  const selected = startIso ? times.find((t) => Date.parse(t.start) === Date.parse(startIso)) : undefined;
  const prev = monday.subtract({ days: 7 });
  const next = monday.add({ days: 7 });
  return {
    service: { ...serviceCard(service), capacity: service.capacity },
    businessTimeZone: profile.timeZone,
    timeZone,
    zones: zoneChoices(timeZone, profile.timeZone),
    date: date.toString(),
    dateLabel: days.find((d) => d.selected)?.label ?? date.toString(),
    weekLabel: `${days[0]!.day} ${days[0]!.month} – ${days[6]!.day} ${days[6]!.month}`,
    days: days.map((d) => ({ ...d, beyond: Temporal.PlainDate.compare(Temporal.PlainDate.from(d.date), lastDay) > 0 })),
    times,
    /** The time asked for is no longer on offer (taken since, or never was). */
    startGone: Boolean(startIso && !selected),
    selected: selected
      ? {
          start: selected.start,
          label: `${dayLabel(selected.start, timeZone)}, ${selected.label}`,
          end: timeLabel(
            new Date(Date.parse(selected.start) + service.durationMinutes * 60_000).toISOString(),
            timeZone,
          ),
        }
      : null,
    prevWeek:
      Temporal.PlainDate.compare(prev.add({ days: 6 }), today) >= 0
        ? Temporal.PlainDate.compare(prev, today) < 0
          ? today.toString()
          : prev.toString()
        : null,
    nextWeek: Temporal.PlainDate.compare(next, lastDay) <= 0 ? next.toString() : null,
  };
}

/** The booking form's fields as `BookingInput`: `answers.{id}` fields become the answers. */
export function bookingInputOf(serviceSlug: string, values: FormValues) {
  const answers: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) if (key.startsWith("answers.")) answers[key.slice(8)] = value;
  return {
    service: serviceSlug,
    start: values.start ?? "",
    timeZone: askedZone(values.timeZone ?? null) ?? undefined,
    name: values.name ?? "",
    email: values.email ?? "",
    phone: values.phone ?? "",
    answers,
    notes: values.notes ?? "",
  };
}

export interface BookingVisitor {
  actor: BookingActor;
  customer: Customer | null;
  grant: ManageGrant | null;
}

/** A guest's manage link for one booking of this site, from the site's manage cookie (set when they booked). */
export async function bookingGrantOf(
  request: Request,
  context: AppLoadContext,
  site: ResolvedSite,
): Promise<ManageGrant | null> {
  const token = parse(request.headers.get("cookie") ?? "")[manageCookieName(context, site.workspace.slug)];
  const grant = token ? await grantOfToken(context.services.db, token) : undefined;
  return grant && grant.workspaceId === site.workspace.id && grant.subjectType === "booking" ? grant : null;
}

/**
 * Who is looking at a booking on a public booking page (the confirmation, a move): the site's signed-in customer,
 * or a guest holding a booking's manage link in the cookie; null for anyone else. The module still checks the
 * booking is theirs (another's is a 404).
 */
export async function bookingVisitorOf(
  request: Request,
  context: AppLoadContext,
  site: ResolvedSite,
): Promise<BookingVisitor | null> {
  const session = await readCustomerSession(context, request, site.workspace);
  if (session) {
    return { actor: { kind: "customer", customerId: session.customer.id }, customer: session.customer, grant: null };
  }
  const grant = await bookingGrantOf(request, context, site);
  return grant ? { actor: { kind: "guest", grant }, customer: null, grant } : null;
}

export const BOOKING_STATUS_LABELS: Record<BookingStatus, string> = {
  held: "Held: deposit due",
  pending: "Awaiting confirmation",
  confirmed: "Confirmed",
  cancelled: "Cancelled",
  expired: "Hold expired",
  completed: "Completed",
  no_show: "Missed",
};

const stamp = (iso: string) =>
  new Date(iso)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

/** "Add to calendar" links: Google's and Outlook's event templates (no file, no account with us). */
export function calendarLinks(event: { title: string; start: string; end: string; details: string; location: string }) {
  const google = new URL("https://calendar.google.com/calendar/render");
  google.search = new URLSearchParams({
    action: "TEMPLATE",
    text: event.title,
    dates: `${stamp(event.start)}/${stamp(event.end)}`,
    details: event.details,
    location: event.location,
  }).toString();
  const outlook = new URL("https://outlook.live.com/calendar/0/deeplink/compose");
  outlook.search = new URLSearchParams({
    path: "/calendar/action/compose",
    rru: "addevent",
    subject: event.title,
    startdt: new Date(event.start).toISOString(),
    enddt: new Date(event.end).toISOString(),
    body: event.details,
    location: event.location,
  }).toString();
  return { google: google.toString(), outlook: outlook.toString() };
}

/** A booking as its booker sees it: times in their zone, what is owed, and what they may still do and why not. */
export async function bookingCard(
  db: Db,
  workspaceId: string,
  b: BookingRow,
  actor: BookingActor,
  siteName: string,
  manageUrl: string,
) {
  const { service, canCancel, canReschedule } = await bookingsOf(db, workspaceId).rights(b, actor);
  const zone = b.visitor_time_zone;
  const profile = await profileOf(db, workspaceId).get();
  const nowMs = now().getTime();
  const status = b.status as BookingStatus;
  const live = ["held", "pending", "confirmed"].includes(status) && Date.parse(b.start_at) > nowMs;
  const guestMay = (action: "cancel" | "reschedule") => actor.kind !== "guest" || actor.grant.actions.includes(action);
  const location = service.locationDetail || LOCATION_LABELS[service.locationKind];
  return {
    id: b.id,
    status,
    statusLabel: BOOKING_STATUS_LABELS[status] ?? status,
    serviceSlug: service.slug,
    serviceName: service.name,
    when: whenLabel(b.start_at, zone),
    until: timeLabel(b.end_at, zone),
    timeZone: zone,
    /** The business's own clock, when the booker reads another. */
    businessWhen: zone === profile.timeZone ? null : `${whenLabel(b.start_at, profile.timeZone)} (${profile.timeZone})`,
    start: b.start_at,
    past: Date.parse(b.end_at) <= nowMs,
    seats: b.seats,
    name: b.name,
    email: b.email,
    location: `${LOCATION_LABELS[service.locationKind]}${service.locationDetail ? `: ${service.locationDetail}` : ""}`,
    price: formatMoney(b.price, b.currency),
    deposit: b.deposit > 0 ? formatMoney(b.deposit, b.currency) : null,
    paid: b.amount_paid > 0 ? formatMoney(b.amount_paid, b.currency) : null,
    owed: live && b.amount_paid < b.price ? formatMoney(b.price - b.amount_paid, b.currency) : null,
    depositDue:
      status === "held" && b.amount_paid < b.deposit ? formatMoney(b.deposit - b.amount_paid, b.currency) : null,
    holdExpires: status === "held" && b.hold_expires_at ? timeLabel(b.hold_expires_at, zone) : null,
    canCancel: canCancel && guestMay("cancel"),
    canReschedule: canReschedule && guestMay("reschedule"),
    cannotCancel:
      live && !canCancel
        ? `Cancelling closes ${minutesText(service.cancelNoticeMinutes)} before the start: contact ${siteName} to change it.`
        : null,
    cannotReschedule: !live
      ? null
      : status === "held"
        ? "You can move it once the deposit is paid."
        : !canReschedule
          ? `Moving closes ${minutesText(service.rescheduleNoticeMinutes)} before the start: contact ${siteName} to change it.`
          : null,
    calendar: calendarLinks({
      title: `${service.name} · ${siteName}`,
      start: b.start_at,
      end: b.end_at,
      details: `Your booking with ${siteName}. See, move or cancel it: ${manageUrl}`,
      location,
    }),
  };
}
export type BookingCard = Awaited<ReturnType<typeof bookingCard>>;

/** The bookings a portal visitor sees: all of a customer's, or the one booking of a guest's link. */
export async function bookingsOfVisitor(db: Db, workspaceId: string, visitor: BookingVisitor) {
  const bookings = bookingsOf(db, workspaceId);
  if (visitor.actor.kind === "customer") return bookings.ofCustomer(visitor.actor.customerId);
  const one = await bookings.get(visitor.grant!.subjectId, visitor.actor).catch(() => null);
  const ended = one ? Date.parse(one.end_at) <= now().getTime() : false;
  return { upcoming: one && !ended ? [one] : [], past: one && ended ? [one] : [] };
}

/**
 * The provider's page for what a booking owes now (the deposit while held, then the rest), opened through
 * scheduling's payments (`openBookingCheckout`, as POST /api/v1/bookings/{id}/checkout does). The booker comes
 * back to the portal's bookings, which applies the payment (`settleBookingPayment`). Refusals (nothing owed, the
 * hold ran out, no provider connected) are the module's conflicts, shown beside the button.
 */
export async function bookingPaymentUrl(
  context: AppLoadContext,
  site: ResolvedSite,
  booking: BookingRow,
  actor: BookingActor,
  origin: string,
  base: string,
): Promise<string> {
  const { checkoutUrl } = await openBookingCheckout(context.services, site.workspace.id, booking.id, actor, {
    paymentMethod: null,
    origin,
    returnUrl: `${origin}${base}/account/my-bookings?booking=${encodeURIComponent(booking.id)}`,
    site: site.workspace.slug,
    brand: site.workspace.name,
  });
  return checkoutUrl;
}

/**
 * The booker's return from the provider's page (`?booking=` with the provider's `session_id` or `token`): the
 * payment applied once, or "confirming" while the provider has not confirmed it. Only for a booking of theirs.
 */
export async function settleBookingPayment(
  context: AppLoadContext,
  site: ResolvedSite,
  visitor: BookingVisitor,
  search: URLSearchParams,
  origin: string,
): Promise<"applied" | "confirming" | "none"> {
  const id = search.get("booking");
  if (!id || !(search.has("session_id") || search.has("token"))) return "none";
  await bookingsOf(context.services.db, site.workspace.id).get(id, visitor.actor);
  const settled = await settleBookingReturn(context.services, site.workspace.id, id, search, origin).catch(
    (error: unknown) => {
      context.services.logger.warn(
        { err: error, booking: id },
        "a return from the payment page could not be confirmed",
      );
      return "confirming" as const;
    },
  );
  if (settled === "applied") context.services.jobRunner.wake();
  return settled;
}
