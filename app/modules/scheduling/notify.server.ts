/**
 * A booking's e-mails (ADR 036), queued in the transaction that changed the booking, so a mail server that is
 * down delays them and loses none. `enqueueBookingMail` is the one call the booking code makes; what each event
 * sends (and the reminder and follow-up it schedules) lives here.
 *
 * - To the booker, in their own zone (and the business's when it differs): created (confirmed, awaiting approval,
 *   or a deposit to pay), confirmed, rescheduled — each with an invitation (`booking.ics`, METHOD:REQUEST) whose
 *   UID is the booking's and whose SEQUENCE grows with every change, so calendars move the event they have —
 *   and cancelled, expired, declined with METHOD:CANCEL. Each carries a new manage link.
 * - To the members told about bookings: new, moved and cancelled bookings not made by an operator.
 * - A place that frees is offered to the first on the slot's waiting list.
 * - Reminders and follow-ups are their own jobs, queued with `runAt` by the events that fix a time.
 *
 * Each mail's idempotency key starts with the change's event id, so a retried job sends each mail once.
 */
import type { Db } from "~db/client";
import type { BookingRow } from "~db/schema/scheduling";
import type { AppServices } from "~/lib/context";
import { isoNow, now } from "~/lib/clock.server";
import { newId } from "~/lib/ids.server";
import { formatMoney } from "~/modules/commerce/money";
import { issueManageToken } from "~/modules/customers/manage-tokens.server";
import { enqueueJob, type JobHandler } from "~/modules/jobs/jobs.server";
import { withTokensHidden, type MailAttachment } from "~/modules/mail/mail.server";
import { siteAddressOf, siteUrl } from "~/modules/sites/address.server";
import { profileOf } from "~/modules/sites/profile.server";
import { roleAtLeast, type Role } from "~/modules/tenancy/roles";
import { minutesText } from "./bookings.server";
import { googleCalendarUrl, outlookCalendarUrl, renderCalendar, type IcsEvent } from "./ics";
import { servicesOf, type BookingService } from "./services.server";
import { seatsLeftAt, waitlistOf } from "./waitlist.server";

export const BOOKING_MAIL_JOB = "scheduling.booking-mail";
export const BOOKING_REMINDER_JOB = "scheduling.booking-reminder";

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
  /**
   * For `rescheduled`: the start it moved from, whose place the waiting list is offered. Without it the handler
   * reads the latest `booking.rescheduled` audit event, right unless the booking moved twice before the job ran.
   */
  previousStart?: string;
}

export interface BookingReminderPayload {
  bookingId: string;
  kind: "reminder" | "follow-up";
  /** The start (reminder) or end (follow-up) it was scheduled for: a booking moved since is left alone. */
  at: string;
  /**
   * The booking's `updated_at` when it was scheduled. A reminder is claimed only while `reminder_sent_at` is
   * empty or older than this: one reminder per booking per start, however many runners and retries.
   */
  since: string;
  origin: string;
  eventId: string;
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

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** The same UID in every invitation and in the host's feed, so a calendar holds one event per booking. */
export const bookingUid = (bookingId: string) => `booking-${bookingId}@atrium`;

/** "Sunday 29 March 2026, 03:00" in `timeZone`. */
function dateTimeIn(iso: string, timeZone: string): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      weekday: "long",
      day: "numeric",
      month: "long",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone,
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return {
    date: `${parts.weekday} ${parts.day} ${parts.month} ${parts.year}`,
    time: `${parts.hour}:${parts.minute}`,
  };
}

const placeName = (zone: string) => (zone.split("/").at(-1) ?? zone).replace(/_/g, " ");

/**
 * When a booking is, as its booker reads it: "Sunday 29 March 2026, 03:00 (America/New_York) — 09:00 in
 * Berlin", the business's time added only when its zone differs (with its date when that differs too).
 */
export function whenText(iso: string, visitorZone: string, businessZone: string): string {
  const mine = dateTimeIn(iso, visitorZone);
  const text = `${mine.date}, ${mine.time} (${visitorZone})`;
  if (visitorZone === businessZone) return text;
  const theirs = dateTimeIn(iso, businessZone);
  if (theirs.time === mine.time && theirs.date === mine.date) return text;
  const day = theirs.date === mine.date ? "" : ` on ${theirs.date}`;
  return `${text} — ${theirs.time}${day} in ${placeName(businessZone)}`;
}

function locationLine(service: BookingService): string | null {
  if (!service.locationDetail) return null;
  if (service.locationKind === "phone") return `By phone: ${service.locationDetail}`;
  if (service.locationKind === "video") return `Online: ${service.locationDetail}`;
  return `Where: ${service.locationDetail}`;
}

/** The address in MAIL_FROM (`Name <a@b>` or `a@b`): the invitation's organizer must be a mailbox. */
function fromAddress(from: string): string | undefined {
  const inBrackets = /<([^>]+)>/.exec(from)?.[1] ?? from;
  return /^[^\s@<>]+@[^\s@<>]+$/.test(inBrackets.trim()) ? inBrackets.trim() : undefined;
}

/**
 * The invitation's SEQUENCE: one more for every recorded change of the booking after its creation (moves,
 * cancellations, approvals), plus `extra` for a change that records none (a lapsed hold). It only grows, which
 * is what calendars compare.
 */
async function sequenceOf(db: Db, workspaceId: string, bookingId: string, extra: number): Promise<number> {
  const row = await db
    .selectFrom("audit_events")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("workspace_id", "=", workspaceId)
    .where("action", "like", "booking.%")
    .where("action", "!=", "booking.created")
    .where("detail", "like", `%"id":"${bookingId}"%`)
    .executeTakeFirst();
  return Number(row?.n ?? 0) + extra;
}

interface MailContext {
  booking: BookingRow;
  service: BookingService;
  host: { id: string; name: string; user_id: string | null } | undefined;
  workspace: { id: string; name: string; slug: string };
  businessZone: string;
  site: { origin: string; base: "" | `/${string}` };
  /** The booker's choice of reminders, when the booking is a signed-in customer's. */
  wantsReminders: boolean;
}

/** Everything a booking's mail needs; undefined when there is no one to write to (deleted, or erased). */
async function contextOf(
  services: AppServices,
  workspaceId: string,
  bookingId: string,
  origin: string,
): Promise<MailContext | undefined> {
  const { db } = services;
  const booking = await db
    .selectFrom("bookings")
    .selectAll()
    .where("workspace_id", "=", workspaceId)
    .where("id", "=", bookingId)
    .executeTakeFirst();
  // Erased (privacy.server.ts): a guest's booking keeps no address, only an `…@invalid` placeholder.
  if (!booking || !booking.email || booking.email.endsWith("@invalid")) return undefined;
  let wantsReminders = true;
  if (booking.customer_id) {
    const customer = await db
      .selectFrom("customers")
      .select(["erased_at", "notifications"])
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", booking.customer_id)
      .executeTakeFirst();
    if (customer?.erased_at) return undefined;
    try {
      wantsReminders =
        (JSON.parse(customer?.notifications ?? "{}") as { bookingReminders?: boolean }).bookingReminders !== false;
    } catch {
      wantsReminders = true;
    }
  }
  const service = await servicesOf(db, workspaceId)
    .get(booking.service_id)
    .catch(() => undefined);
  const workspace = await db
    .selectFrom("workspaces")
    .select(["id", "name", "slug"])
    .where("id", "=", workspaceId)
    .executeTakeFirst();
  if (!service || !workspace) return undefined;
  const host = await db
    .selectFrom("booking_hosts")
    .select(["id", "name", "user_id"])
    .where("workspace_id", "=", workspaceId)
    .where("id", "=", booking.host_id)
    .executeTakeFirst();
  const profile = await profileOf(db, workspaceId).get();
  const address = await siteAddressOf(services, workspace, { origin, fromRequest: false });
  return {
    booking,
    service,
    host,
    workspace,
    businessZone: profile.timeZone,
    site: address ?? { origin, base: `/${workspace.slug}` as const },
    wantsReminders,
  };
}

/**
 * Where the e-mail sends the booker to see, move or cancel it: a signed-in customer's booking is in their portal
 * (they sign in); a guest's gets a new manage link, valid until a week after it starts.
 */
async function manageLink(db: Db, c: MailContext): Promise<string> {
  if (c.booking.customer_id) {
    return `${c.site.origin}${c.site.base}/account/my-bookings?booking=${encodeURIComponent(c.booking.id)}`;
  }
  const days = Math.max(7, Math.min(400, Math.ceil((Date.parse(c.booking.start_at) - now().getTime()) / DAY_MS) + 7));
  const token = await issueManageToken(db, c.workspace.id, {
    subjectType: "booking",
    subjectId: c.booking.id,
    actions: ["view", "cancel", "reschedule"],
    email: c.booking.email,
    days,
  });
  return `${c.site.origin}/portal/callback?token=${token}`;
}

function icsEventOf(c: MailContext, sequence: number, status: IcsEvent["status"], from: string): IcsEvent {
  const b = c.booking;
  return {
    uid: bookingUid(b.id),
    sequence,
    start: b.start_at,
    end: b.end_at,
    stamp: isoNow(),
    summary: `${c.service.name} — ${c.workspace.name}`,
    description: [c.host ? `With ${c.host.name}` : null, locationLine(c.service)].filter(Boolean).join("\n"),
    ...(c.service.locationDetail ? { location: c.service.locationDetail } : {}),
    status,
    organizer: { name: c.workspace.name, email: fromAddress(from) },
    attendee: { name: b.name, email: b.email },
  };
}

function icsAttachment(method: "REQUEST" | "CANCEL", event: IcsEvent): MailAttachment {
  return {
    filename: "booking.ics",
    contentType: `text/calendar; charset=utf-8; method=${method}`,
    content: Buffer.from(renderCalendar({ method, events: [event] }), "utf8"),
  };
}

/** What the booking is, in the lines every booker's mail repeats. */
function detailLines(c: MailContext): string[] {
  const b = c.booking;
  const money = (n: number) => formatMoney(n, b.currency);
  const lines = [
    c.service.name,
    whenText(b.start_at, b.visitor_time_zone, c.businessZone),
    `${minutesText(Math.round((Date.parse(b.end_at) - Date.parse(b.start_at)) / 60_000))}${c.host ? `, with ${c.host.name}` : ""}${b.seats > 1 ? `, ${b.seats} places` : ""}`,
  ];
  const where = locationLine(c.service);
  if (where) lines.push(where);
  if (b.price > 0) lines.push(`Price: ${money(b.price)}`);
  if (b.deposit > 0) {
    lines.push(`Deposit: ${money(b.deposit)}${b.amount_paid > 0 ? ` (paid: ${money(b.amount_paid)})` : ""}`);
  }
  return lines;
}

function calendarLines(event: IcsEvent): string[] {
  const plain = { ...event, description: event.description ?? "" };
  return [
    "Add it to your calendar with the attached booking.ics, or:",
    `Google Calendar: ${googleCalendarUrl(plain)}`,
    `Outlook: ${outlookCalendarUrl(plain)}`,
  ];
}

/** The members told about bookings: the host's own member, and owners and admins (see the ADR's "Not done"). */
async function memberRecipients(db: Db, workspaceId: string, hostUserId: string | null): Promise<string[]> {
  const members = await db
    .selectFrom("workspace_members as m")
    .innerJoin("users as u", "u.id", "m.user_id")
    .select(["u.email", "m.role", "m.user_id"])
    .where("m.workspace_id", "=", workspaceId)
    .where("u.status", "=", "active")
    .orderBy("u.email")
    .execute();
  return members.filter((m) => m.user_id === hostUserId || roleAtLeast(m.role as Role, "admin")).map((m) => m.email);
}

const OPEN = new Set(["held", "pending", "confirmed"]);

/** Queues the reminder and follow-up of the booking's current time, unless one just like it is queued. */
async function scheduleFollowUps(db: Db, c: MailContext, origin: string, eventId: string): Promise<void> {
  const b = c.booking;
  const nowMs = now().getTime();
  const plans: Array<{ kind: BookingReminderPayload["kind"]; at: string; runAt: number }> = [];
  if (c.service.reminderHours > 0) {
    plans.push({ kind: "reminder", at: b.start_at, runAt: Date.parse(b.start_at) - c.service.reminderHours * HOUR_MS });
  }
  if (c.service.followUpHours > 0) {
    plans.push({ kind: "follow-up", at: b.end_at, runAt: Date.parse(b.end_at) + c.service.followUpHours * HOUR_MS });
  }
  for (const plan of plans) {
    if (plan.runAt <= nowMs) continue;
    const payload: BookingReminderPayload = {
      bookingId: b.id,
      kind: plan.kind,
      at: plan.at,
      since: b.updated_at,
      origin,
      eventId,
    };
    const text = JSON.stringify(payload);
    // A retried mail job finds its own earlier one; a duplicate that slips through is refused by the claim.
    const queued = await db
      .selectFrom("jobs")
      .select("id")
      .where("workspace_id", "=", c.workspace.id)
      .where("kind", "=", BOOKING_REMINDER_JOB)
      .where("payload", "=", text)
      .executeTakeFirst();
    if (queued) continue;
    await enqueueJob(db, {
      kind: BOOKING_REMINDER_JOB,
      workspaceId: c.workspace.id,
      payload,
      maxAttempts: 6,
      runAt: new Date(plan.runAt),
    });
  }
}

/** The start a rescheduled booking left, from the payload or else its latest recorded move. */
async function previousStartOf(db: Db, workspaceId: string, payload: BookingMailPayload): Promise<string | null> {
  if (payload.previousStart) return payload.previousStart;
  const rows = await db
    .selectFrom("audit_events")
    .select(["detail"])
    .where("workspace_id", "=", workspaceId)
    .where("action", "=", "booking.rescheduled")
    .where("detail", "like", `%"id":"${payload.bookingId}"%`)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .execute();
  try {
    const from = (JSON.parse(rows[0]?.detail ?? "{}") as { from?: unknown }).from;
    return typeof from === "string" ? from : null;
  } catch {
    return null;
  }
}

/** Offers a freed place to the first visitor waiting for it, once per change (the mail's key). */
async function offerFreedPlace(services: AppServices, c: MailContext, startAt: string, eventId: string) {
  const { db, mailer } = services;
  const key = `booking:${eventId}:waitlist`;
  if (Date.parse(startAt) <= now().getTime() || c.service.status !== "active") return;
  // A retry after the offer was made must not offer the same place to the next in line too.
  const offered = await db
    .selectFrom("mail_messages")
    .select("id")
    .where("workspace_id", "=", c.workspace.id)
    .where("idempotency_key", "=", key)
    .executeTakeFirst();
  if (offered) return;
  if ((await seatsLeftAt(db, c.workspace.id, c.service, Date.parse(startAt))) < 1) return;
  const entry = await waitlistOf(db, c.workspace.id).offerNext(c.service.id, startAt);
  if (!entry) return;
  const link = siteUrl(c.site, `/bookings/${c.service.slug}?start=${encodeURIComponent(startAt)}`);
  await mailer.send({
    workspaceId: c.workspace.id,
    to: entry.email,
    subject: `A place opened: ${c.service.name} at ${c.workspace.name}`,
    text: [
      `Hello ${entry.name},`,
      "",
      `A place has opened for the time you were waiting for at ${c.workspace.name}:`,
      "",
      c.service.name,
      whenText(startAt, entry.visitor_time_zone, c.businessZone),
      "",
      "It is not held for you: the first to book it has it.",
      `Book it now: ${link}`,
    ].join("\n"),
    idempotencyKey: key,
  });
}

export function bookingMailHandler(services: AppServices): JobHandler {
  const { db, mailer } = services;
  return async (job) => {
    const workspaceId = job.workspace_id;
    if (!workspaceId) return;
    const payload = JSON.parse(job.payload) as BookingMailPayload;
    const c = await contextOf(services, workspaceId, payload.bookingId, payload.origin);
    if (!c) return;
    const b = c.booking;
    const key = (who: string) => `booking:${payload.eventId}:${who}`;
    const from = services.env.MAIL_FROM;
    const { event } = payload;
    const announcing = event === "created" || event === "confirmed" || event === "rescheduled";
    // A booking cancelled (or lapsed) before this job ran: its own mail says so; this one would contradict it.
    const stillOpen = OPEN.has(b.status);

    if (announcing && stillOpen) await scheduleFollowUps(db, c, payload.origin, payload.eventId);

    if ((event === "created" || event === "rescheduled" || event === "cancelled") && payload.by !== "operator") {
      const what = { created: "New booking", rescheduled: "Booking moved", cancelled: "Booking cancelled" }[event];
      const text = [
        `${what} on ${c.workspace.name}'s site: ${b.name} <${b.email}>.`,
        "",
        c.service.name,
        whenText(b.start_at, c.businessZone, c.businessZone),
        `${c.host ? `With ${c.host.name}. ` : ""}Status: ${b.status}.`,
        "",
        `Open the calendar in the console: ${payload.origin}/scheduling`,
      ].join("\n");
      for (const email of await memberRecipients(db, workspaceId, c.host?.user_id ?? null)) {
        await mailer.send({
          workspaceId,
          to: email,
          subject: `${what}: ${c.service.name}, ${dateTimeIn(b.start_at, c.businessZone).date}`,
          text,
          idempotencyKey: key(`member:${email}`),
        });
      }
    }

    if (event === "cancelled" || event === "expired") await offerFreedPlace(services, c, b.start_at, payload.eventId);
    if (event === "rescheduled") {
      const left = await previousStartOf(db, workspaceId, payload);
      if (left && left !== b.start_at) await offerFreedPlace(services, c, left, payload.eventId);
    }

    if (announcing && !stillOpen) return;
    const closing = event === "cancelled" || event === "expired" || event === "declined";
    const sequence = await sequenceOf(db, workspaceId, b.id, event === "expired" ? 1 : 0);
    const link = await manageLink(db, c);
    const body: string[] = [`Hello ${b.name},`, ""];
    const attachments: MailAttachment[] = [];
    let subject: string;
    let linked = false;
    if (closing) {
      subject = {
        cancelled: `Cancelled: ${c.service.name} at ${c.workspace.name}`,
        expired: `Not booked: ${c.service.name} at ${c.workspace.name}`,
        declined: `Not accepted: ${c.service.name} at ${c.workspace.name}`,
      }[event];
      body.push(
        {
          cancelled: `Your booking with ${c.workspace.name} was cancelled${b.cancel_reason ? ` (${b.cancel_reason})` : ""}:`,
          expired: `The time held for you at ${c.workspace.name} was released because the deposit was not paid in time:`,
          declined: `${c.workspace.name} could not accept your booking request:`,
        }[event],
        "",
        ...detailLines(c),
        "",
        b.amount_paid > 0
          ? "If you paid anything, the business will refund it as its terms say."
          : "You are welcome to book another time.",
        "",
        `Book again: ${siteUrl(c.site, `/bookings/${c.service.slug}`)}`,
      );
      attachments.push(icsAttachment("CANCEL", icsEventOf(c, sequence, "CANCELLED", from)));
    } else {
      const held = b.status === "held";
      const pending = b.status === "pending";
      subject =
        event === "rescheduled"
          ? `Moved: ${c.service.name} at ${c.workspace.name}`
          : held
            ? `Pay your deposit to book ${c.service.name} at ${c.workspace.name}`
            : pending
              ? `Request received: ${c.service.name} at ${c.workspace.name}`
              : `Confirmed: ${c.service.name} at ${c.workspace.name}`;
      const intro =
        event === "rescheduled"
          ? `Your booking with ${c.workspace.name} was moved to ${whenText(b.start_at, b.visitor_time_zone, c.businessZone)}:`
          : held
            ? `${c.workspace.name} is holding this time for you:`
            : pending
              ? `${c.workspace.name} received your request. It is awaiting their approval; we will e-mail you when they answer:`
              : `Your booking with ${c.workspace.name} is confirmed:`;
      body.push(intro, "", ...detailLines(c));
      if (held && b.hold_expires_at) {
        const minutes = Math.max(1, Math.ceil((Date.parse(b.hold_expires_at) - now().getTime()) / 60_000));
        body.push(
          "",
          `Complete your deposit of ${formatMoney(b.deposit, b.currency)} within ${minutesText(minutes)} to keep it; after that the time is released.`,
          `Pay from your booking's page: ${link}`,
        );
        linked = true;
      } else {
        const ics = icsEventOf(c, sequence, pending ? "TENTATIVE" : "CONFIRMED", from);
        attachments.push(icsAttachment("REQUEST", ics));
        body.push("", ...calendarLines(ics));
      }
    }
    if (!linked) body.push("", closing ? `See your booking: ${link}` : `See, move or cancel your booking: ${link}`);
    const text = body.join("\n");
    await mailer.send({
      workspaceId,
      to: b.email,
      subject,
      text,
      storedText: withTokensHidden(text),
      idempotencyKey: key("booker"),
      ...(attachments.length ? { attachments } : {}),
    });
  };
}

/**
 * A reminder or follow-up when its time comes. The guarded update is the claim: it changes the row only while
 * the booking is still active, still at the time the job was scheduled for, and not yet reminded for that time
 * (see `BookingReminderPayload.since`), so of two runners — or a job and its duplicate — one sends.
 */
export function bookingReminderHandler(services: AppServices): JobHandler {
  const { db, mailer } = services;
  return async (job) => {
    const workspaceId = job.workspace_id;
    if (!workspaceId) return;
    const payload = JSON.parse(job.payload) as BookingReminderPayload;
    const c = await contextOf(services, workspaceId, payload.bookingId, payload.origin);
    if (!c || !c.wantsReminders) return;
    const reminder = payload.kind === "reminder";
    const column = reminder ? "reminder_sent_at" : "follow_up_sent_at";
    const key = `booking:${payload.eventId}:${payload.kind}`;
    const claimed = await db
      .updateTable("bookings")
      .set({ [column]: isoNow() })
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", payload.bookingId)
      .where(reminder ? "start_at" : "end_at", "=", payload.at)
      .where("status", "in", reminder ? ["pending", "confirmed"] : ["confirmed", "completed"])
      .where((eb) => eb.or([eb(column, "is", null), eb(column, "<", payload.since)]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) {
      // Claimed already: by this job's own earlier attempt whose mail failed (the mailer then retries that
      // message), or by someone else, who sends it; either way nothing new is written here.
      const mine = await db
        .selectFrom("mail_messages")
        .select("status")
        .where("workspace_id", "=", workspaceId)
        .where("idempotency_key", "=", key)
        .executeTakeFirst();
      if (mine?.status !== "failed") return;
    }
    const b = c.booking;
    const body: string[] = [`Hello ${b.name},`, ""];
    let subject: string;
    if (reminder) {
      const link = await manageLink(db, c);
      subject = `Reminder: ${c.service.name} at ${c.workspace.name}, ${dateTimeIn(b.start_at, b.visitor_time_zone).date}`;
      body.push(
        `A reminder of your booking with ${c.workspace.name}:`,
        "",
        ...detailLines(c),
        "",
        `See, move or cancel your booking: ${link}`,
      );
    } else {
      subject = `Thank you for visiting ${c.workspace.name}`;
      body.push(
        `Thank you for your ${c.service.name} with ${c.workspace.name}. We hope it went well.`,
        "",
        `Book again: ${siteUrl(c.site, `/bookings/${c.service.slug}`)}`,
      );
    }
    const text = body.join("\n");
    await mailer.send({
      workspaceId,
      to: b.email,
      subject,
      text,
      ...(reminder ? { storedText: withTokensHidden(text) } : {}),
      idempotencyKey: key,
    });
  };
}
