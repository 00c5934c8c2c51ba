/**
 * Scheduling's API bodies (issue 19, ADR 036), as zod schemas: what `/api/v1/bookings*` and
 * `/api/editor/bookings/services` take and answer, for their routes, the console's forms and the API reference.
 * Plain data, no server imports. Amounts are integers in minor units of `currency`; times are ISO-8601 instants.
 */
import { z } from "zod";
import { minutesOf } from "./slots";

export const LOCATION_KINDS = ["in_person", "phone", "video"] as const;
export const SERVICE_STATUSES = ["draft", "active", "archived"] as const;
export const HOST_KINDS = ["staff", "resource"] as const;
export const BOOKING_STATUSES = [
  "held",
  "pending",
  "confirmed",
  "cancelled",
  "expired",
  "completed",
  "no_show",
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
/** The states that occupy their time (a hold only until it expires). */
export const OCCUPYING_STATUSES = ["held", "pending", "confirmed"] as const;

/** The longest stretch one availability request may ask for. */
export const MAX_RANGE_DAYS = 31;

/** Whether the runtime knows an IANA zone (aliases such as `Asia/Calcutta` included, as browsers report them). */
export function isTimeZone(value: string): boolean {
  const known = zoneChecks.get(value);
  if (known !== undefined) return known;
  let valid: boolean;
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    valid = value.length > 0;
  } catch {
    valid = false;
  }
  // Making a formatter costs a fraction of a millisecond, asked on every availability request: remembered, for the
  // few hundred zones there are (a cap keeps made-up names from filling memory).
  if (zoneChecks.size < 2000) zoneChecks.set(value, valid);
  return valid;
}
const zoneChecks = new Map<string, boolean>();

export const TimeZone = z.string().trim().max(64).refine(isTimeZone, "Use an IANA time zone, such as Europe/Berlin");

const Minutes = (label: string, max: number) =>
  z
    .number({ message: `Enter ${label} in minutes` })
    .int(`Enter ${label} as a whole number of minutes`)
    .min(0, `${label[0]!.toUpperCase()}${label.slice(1)} cannot be negative`)
    .max(max, `Keep ${label} to at most ${max} minutes`);

const Money = (label: string) =>
  z
    .number({ message: `Enter ${label}` })
    .int(`Enter ${label} in minor units (cents)`)
    .min(0, `${label[0]!.toUpperCase()}${label.slice(1)} cannot be negative`)
    .max(100_000_000);

export const Question = z.object({
  id: z.string().regex(/^[a-z0-9_-]{1,40}$/, "A question's id is lowercase letters, digits, - or _"),
  label: z.string().trim().min(1, "Write the question").max(200, "Keep a question under 200 characters"),
  required: z.boolean().default(false),
  long: z.boolean().default(false),
});
export type BookingQuestion = z.output<typeof Question>;

export const ServiceInput = z
  .object({
    name: z.string().trim().min(1, "Give the service a name").max(120, "Keep the name under 120 characters"),
    slug: z
      .string()
      .trim()
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "Use lowercase letters, digits and dashes")
      .max(80)
      .optional(),
    description: z.string().max(4000, "Keep the description under 4,000 characters").default(""),
    durationMinutes: z
      .number({ message: "Enter how long it takes" })
      .int("Enter whole minutes")
      .min(5, "At least 5 minutes")
      .max(720, "At most 12 hours"),
    /** The grid times start on; the duration when not given. */
    intervalMinutes: z.number().int("Enter whole minutes").min(5, "At least 5 minutes").max(720).optional(),
    bufferBeforeMinutes: Minutes("the buffer before", 240).default(0),
    bufferAfterMinutes: Minutes("the buffer after", 240).default(0),
    noticeMinutes: Minutes("the minimum notice", 60 * 24 * 60).default(0),
    windowDays: z.number().int("Enter whole days").min(1, "At least 1 day").max(365, "At most a year").default(60),
    capacity: z
      .number()
      .int("Enter a whole number")
      .min(1, "At least 1 place")
      .max(500, "At most 500 places")
      .default(1),
    price: Money("the price").default(0),
    deposit: Money("the deposit").default(0),
    locationKind: z.enum(LOCATION_KINDS, { message: "Choose in person, phone or video" }).default("in_person"),
    locationDetail: z.string().trim().max(500).default(""),
    questions: z.array(Question).max(10, "Ask at most 10 questions").default([]),
    cancelNoticeMinutes: Minutes("the cancellation notice", 60 * 24 * 30).default(0),
    rescheduleNoticeMinutes: Minutes("the reschedule notice", 60 * 24 * 30).default(0),
    requiresApproval: z.boolean().default(false),
    holdMinutes: z.number().int().min(1, "At least a minute").max(60, "At most an hour").default(5),
    reminderHours: z.number().int("Enter whole hours").min(0).max(168, "At most a week before").default(24),
    followUpHours: z.number().int("Enter whole hours").min(0).max(720, "At most 30 days after").default(0),
    status: z.enum(SERVICE_STATUSES).default("active"),
    hostIds: z.array(z.string().min(1).max(64)).min(1, "Choose who delivers it").max(50),
  })
  .refine((s) => s.deposit <= s.price, { message: "The deposit cannot be more than the price", path: ["deposit"] })
  .refine((s) => new Set(s.questions.map((q) => q.id)).size === s.questions.length, {
    message: "Each question needs its own id",
    path: ["questions"],
  });
export type ServiceInput = z.input<typeof ServiceInput>;

const Wall = z.string().refine((v) => {
  try {
    minutesOf(v);
    return true;
  } catch {
    return false;
  }
}, "Use HH:MM, 00:00 to 24:00");

const Range = z
  .object({ start: Wall, end: Wall })
  .refine((r) => minutesOf(r.end) > minutesOf(r.start), { message: "End after the start", path: ["end"] });

const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use YYYY-MM-DD")
  .refine(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    {
      message: "Not a date in the calendar",
    },
  );

export const HostInput = z.object({
  name: z.string().trim().min(1, "Give them a name").max(120),
  kind: z.enum(HOST_KINDS).default("staff"),
  userId: z.string().max(64).nullish(),
  timeZone: TimeZone,
  weekly: z.array(Range.and(z.object({ weekday: z.number().int().min(1).max(7) }))).max(70, "At most 10 ranges a day"),
  overrides: z
    .array(z.object({ date: IsoDate, ranges: z.array(Range).max(10), label: z.string().max(120).default("") }))
    .max(400, "At most 400 dates")
    .default([]),
});
export type HostInput = z.input<typeof HostInput>;

export const AvailabilityQuery = z.object({
  from: IsoDate.optional(),
  to: IsoDate.optional(),
  /** The zone `from` and `to` are dates in, and the visitor reads times in; the business's when not given. */
  timeZone: TimeZone.optional(),
  service: z.string().max(80).optional(),
});

export const BookingInput = z.object({
  service: z.string().min(1, "Name the service by its slug or id").max(80),
  /**
   * The slot: an instant with its offset (`2026-03-29T09:00:00+02:00` or `…Z`), as the availability answers
   * it. A wall-clock time without an offset is read in `timeZone` and refused when that time is skipped or
   * repeated by a daylight-saving change.
   */
  start: z.string().min(10).max(40),
  timeZone: TimeZone.optional(),
  seats: z.number().int().min(1).max(50).default(1),
  name: z.string().trim().min(1, "Enter your name").max(120),
  email: z.string().trim().toLowerCase().email("Enter an e-mail address").max(254),
  phone: z.string().trim().max(40).default(""),
  answers: z.record(z.string(), z.string().max(4000)).default({}),
  notes: z.string().max(4000).default(""),
});
export type BookingInput = z.input<typeof BookingInput>;

export const RescheduleInput = z.object({ start: z.string().min(10).max(40), timeZone: TimeZone.optional() });
export const CancelInput = z.object({ reason: z.string().trim().max(1000).default("") });

const SlotOutput = z.object({ start: z.string(), end: z.string(), seatsLeft: z.number().int() });

export const PublicServiceOutput = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  durationMinutes: z.number().int(),
  price: z.number().int(),
  deposit: z.number().int(),
  currency: z.string(),
  capacity: z.number().int(),
  location: z.object({ kind: z.enum(LOCATION_KINDS), detail: z.string().nullable() }),
  questions: z.array(Question),
  requiresApproval: z.boolean(),
  cancelNoticeMinutes: z.number().int(),
  rescheduleNoticeMinutes: z.number().int(),
  slots: z.array(SlotOutput),
});

export const AvailabilityOutput = z.object({
  businessTimeZone: z.string(),
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  services: z.array(PublicServiceOutput),
});

export const BookingOutput = z.object({
  id: z.string(),
  status: z.enum(BOOKING_STATUSES),
  service: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
  start: z.string(),
  end: z.string(),
  timeZone: z.string(),
  seats: z.number().int(),
  name: z.string(),
  email: z.string(),
  price: z.number().int(),
  deposit: z.number().int(),
  amountPaid: z.number().int(),
  currency: z.string(),
  holdExpiresAt: z.string().nullable(),
  location: z.object({ kind: z.enum(LOCATION_KINDS), detail: z.string() }),
  canCancel: z.boolean(),
  canReschedule: z.boolean(),
  createdAt: z.string(),
  /** Only in the answer that creates a guest's booking: the secret that manages it (also in the e-mail). */
  manageToken: z.string().optional(),
});

export const BookingConflictOutput = z.object({
  error: z.string(),
  message: z.string(),
  statusCode: z.number().int(),
  nextAvailable: z.array(SlotOutput),
});
