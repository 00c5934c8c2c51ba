/**
 * The assistant's scheduling tools (ADR 037): the bookings of a period ("today's bookings", "who is coming in on
 * Friday", "the next 14 days") and a customer's bookings. Read-only, every role, every tier; times are said in the
 * business's zone.
 */
import { z } from "zod";
import { defineTool, emailIn, mentions, personNamed, type ToolContext } from "~/modules/chat/tools";
import { parsePeriod, periodInstants } from "~/modules/chat/periods";
import { formatMoney } from "~/modules/commerce/money";
import { BOOKING_STATUS_LABELS } from "./public.server";
import { bookingDeskOf, type BookingListItem } from "./operator.server";

const MAX_LISTED = 25;

const BOOKING_WORDS = [
  "booking",
  "bookings",
  "booked",
  "appointment",
  "appointments",
  "calendar",
  "schedule",
  "scheduled",
  "consultation",
  "consultations",
  "class",
  "classes",
  "session",
  "sessions",
  "coming in",
  "visits",
  "reservations",
];

/**
 * Whose bookings a question asks for, if it names someone: "Priya's consultation", "bookings for Tom Ellison",
 * "does Tom Ellison have a booking".
 */
const bookerNamed = (text: string) =>
  personNamed(text, { after: ["for", "of", "by", "with", "has", "does", "did", "is"] });

function timeOf(iso: string, timeZone: string, withDay: boolean): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    ...(withDay ? { weekday: "short", day: "numeric", month: "short" } : {}),
  }).format(new Date(iso));
}

function bookingLine(b: BookingListItem, context: ToolContext, withDay: boolean): string {
  const tz = context.workspace.timeZone;
  const seats = b.seats > 1 ? `, ${b.seats} places` : "";
  return `- ${timeOf(b.start, tz, withDay)}–${timeOf(b.end, tz, false)} ${b.serviceName} with ${b.name} (${b.hostName}${seats}) — ${BOOKING_STATUS_LABELS[b.status]}`;
}

function bookingOutput(b: BookingListItem, context: ToolContext) {
  return {
    id: b.id,
    status: b.status,
    start: b.start,
    end: b.end,
    service: b.serviceName,
    host: b.hostName,
    name: b.name,
    email: b.email,
    seats: b.seats,
    price: b.price > 0 ? formatMoney(b.price, b.currency) : null,
    url: context.consoleUrl(`/scheduling/bookings/${b.id}`),
  };
}

const PeriodInput = z.object({
  period: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .default("today")
    .describe('A day or range in words: "today", "tomorrow", "this week", "next 14 days", "Friday", "2026-12-24"'),
});

export const bookingsInPeriod = defineTool({
  name: "bookings_in_period",
  description:
    "The workspace's bookings in a period (today, tomorrow, this week, the next N days, a weekday or a date), soonest first, with service, customer, staff member and status.",
  input: PeriodInput,
  audience: ["operator"],
  role: "viewer",
  match(ask, context) {
    if (!mentions(ask.plain, ...BOOKING_WORDS) && !/\bwho(?:s| is) (?:coming|in)\b/.test(ask.plain)) return null;
    if (emailIn(ask.text) || bookerNamed(ask.text)) return null;
    const period = parsePeriod(ask.plain, context.workspace.timeZone, context.at);
    const upcoming = mentions(ask.plain, "upcoming", "next", "coming up", "soon", "ahead");
    if (!period && !upcoming && !mentions(ask.plain, "todays", "today")) return null;
    return { score: 0.8, input: { period: period?.phrase ?? (upcoming ? "next 7 days" : "today") } };
  },
  async run(context, { period: words }) {
    const { timeZone } = context.workspace;
    const period = parsePeriod(words, timeZone, context.at) ?? parsePeriod("next 7 days", timeZone, context.at)!;
    const range = periodInstants(period, timeZone);
    const desk = bookingDeskOf(context.services.db, context.workspace.id);
    const found = await desk.list({ filter: "all", range, soonestFirst: true, limit: 200, offset: 0 });
    const live = found.filter((b) => b.status !== "cancelled");
    const cancelled = found.length - live.length;
    const oneDay = period.until === nextDay(period.from);
    const lines = live.slice(0, MAX_LISTED).map((b) => bookingLine(b, context, !oneDay));
    const more = live.length > MAX_LISTED ? `\n…and ${live.length - MAX_LISTED} more on the calendar.` : "";
    const note = cancelled ? ` (${cancelled} cancelled not listed)` : "";
    return {
      output: { period, bookings: live.slice(0, MAX_LISTED).map((b) => bookingOutput(b, context)), total: live.length },
      answer:
        live.length === 0
          ? `There are no bookings ${period.label}${note}.`
          : `${live.length} booking${live.length === 1 ? "" : "s"} ${period.label}${note}:\n${lines.join("\n")}${more}`,
      sources: [],
    };
  },
});

/** The day after a YYYY-MM-DD date. */
function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

export const findBookings = defineTool({
  name: "find_bookings",
  description:
    "A customer's bookings, found by their name or e-mail address: upcoming first, then past, with service, time and status.",
  input: z.object({
    customer: z.string().trim().min(2).max(120).describe("The customer's name or e-mail address, or part of it"),
  }),
  audience: ["operator"],
  role: "viewer",
  match(ask) {
    // "Did Priya book anything": with someone named, to book is to have a booking.
    if (!mentions(ask.plain, ...BOOKING_WORDS, "book")) return null;
    const customer = emailIn(ask.text) ?? bookerNamed(ask.text);
    return customer ? { score: 0.85, input: { customer } } : null;
  },
  async run(context, { customer }) {
    const desk = bookingDeskOf(context.services.db, context.workspace.id);
    const [upcoming, past] = await Promise.all([
      desk.list({ filter: "upcoming", query: customer, limit: 10, offset: 0 }),
      desk.list({ filter: "past", query: customer, limit: 5, offset: 0 }),
    ]);
    const all = [...upcoming, ...past];
    if (all.length === 0) {
      return { output: { customer, bookings: [] }, answer: `I found no bookings for “${customer}”.`, sources: [] };
    }
    const lines = [
      ...(upcoming.length ? ["Upcoming:", ...upcoming.map((b) => bookingLine(b, context, true))] : []),
      ...(past.length ? ["Past:", ...past.map((b) => bookingLine(b, context, true))] : []),
    ];
    return {
      output: { customer, bookings: all.map((b) => bookingOutput(b, context)) },
      answer: `Bookings for “${customer}”:\n${lines.join("\n")}`,
      sources: [],
    };
  },
});

export const schedulingChatTools = [bookingsInPeriod, findBookings];
