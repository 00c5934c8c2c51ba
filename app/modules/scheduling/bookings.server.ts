/**
 * Bookings (issue 19, ADR 036): what can be booked, and booking it so that no time is ever taken twice.
 *
 * A booking is checked and written in one transaction whose first statement bumps its host's `lock_seq`: on
 * Postgres that row lock queues every other booking of the host until this one commits (and READ COMMITTED lets
 * the next one's reads see it); on SQLite the write takes the database's single writer lock. So the re-read of
 * the host's bookings and holds, the slot check and the insert happen with no other booking of that host in
 * between, and fifty requests for one slot admit exactly its capacity. A service with several hosts tries each
 * in turn. Refusals say why: a time in the past, inside the notice, past the window or off the grid is a 400 on
 * `start`; a time just taken is a 409 with the next free ones.
 */
import { writeAndPurge } from "~/modules/cache/purge.server";
import type { TaggedMemo } from "~/modules/cache/memo.server";
import { cacheTags } from "~/modules/cache/tags";
import { Temporal } from "temporal-polyfill";
import type { BookingRow } from "~db/schema/scheduling";
import type { Db } from "~db/client";
import { isoNow, now as clockNow } from "~/lib/clock.server";
import { DomainError, conflict, invalid, notFound, parseInput } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { issueManageToken, type ManageGrant } from "~/modules/customers/manage-tokens.server";
import { profileOf } from "~/modules/sites/profile.server";
import {
  AvailabilityQuery,
  BookingInput,
  CancelInput,
  MAX_RANGE_DAYS,
  OCCUPYING_STATUSES,
  RescheduleInput,
  type BookingStatus,
} from "./api";
import type { ReleaseCheckout } from "~/modules/commerce/orders.server";
import { endOpenPayments } from "./booking-orders.server";
import { enqueueBookingMail } from "./notify.server";
import { hostsOf, rulesOf, servicesOf, type BookingHost, type BookingService } from "./services.server";
import { resolveLocal, slotsBetween, type Busy, type Slot } from "./slots";

const DAY_MS = 86_400_000;
/** The longest an availability answer is remembered (see `availability`). */
const AVAILABILITY_MEMO_MS = 30_000;
/** Stored instants are `Date#toISOString` (milliseconds, `Z`), so they compare as text in SQL. */
const stored = (ms: number) => new Date(ms).toISOString();

export interface ServiceSlots {
  service: BookingService;
  slots: Slot[];
}

/** Who acts on a booking: its customer, a guest's manage link, or an operator. */
export type BookingActor =
  | { kind: "customer"; customerId: string }
  | { kind: "guest"; grant: ManageGrant }
  | { kind: "operator"; userId: string | null };

/** Of these held bookings, those whose deposit page may still be paid: they keep their slot past the hold. */
export async function heldByOpenPayment(db: Db, bookingIds: string[]): Promise<Set<string>> {
  if (bookingIds.length === 0) return new Set();
  const rows = await db
    .selectFrom("booking_payments")
    .innerJoin("orders", "orders.id", "booking_payments.order_id")
    .select("booking_payments.booking_id")
    .where("booking_payments.booking_id", "in", bookingIds)
    .where("orders.status", "=", "pending")
    .execute();
  return new Set(rows.map((r) => r.booking_id));
}

/**
 * The host's bookings and live holds overlapping [from, to), as `slotsBetween` reads them: a hold lives until its
 * time, or for as long as its deposit's payment page may still be paid (payments.server.ts).
 */
async function busyOf(db: Db, hostId: string, fromMs: number, toMs: number, nowMs: number, except?: string) {
  let q = db
    .selectFrom("bookings")
    .select(["id", "service_id", "start_at", "end_at", "seats", "status", "hold_expires_at"])
    .where("host_id", "=", hostId)
    .where("status", "in", [...OCCUPYING_STATUSES])
    .where("start_at", "<", stored(toMs))
    .where("end_at", ">", stored(fromMs));
  if (except) q = q.where("id", "!=", except);
  const rows = await q.execute();
  const lapsed = rows.filter(
    (r) => r.status === "held" && !(r.hold_expires_at !== null && Date.parse(r.hold_expires_at) > nowMs),
  );
  const paying = await heldByOpenPayment(
    db,
    lapsed.map((r) => r.id),
  );
  return rows
    .filter((r) => !lapsed.includes(r) || paying.has(r.id))
    .map((r): Busy => ({ start: r.start_at, end: r.end_at, seats: r.seats, pool: r.service_id }));
}

/** The host-zone dates a span of instants touches, one day either side (a slot's date is its host's). */
function hostDates(fromMs: number, toMs: number, timeZone: string): [string, string] {
  const first = Temporal.Instant.fromEpochMilliseconds(fromMs).toZonedDateTimeISO(timeZone).toPlainDate();
  const last = Temporal.Instant.fromEpochMilliseconds(toMs).toZonedDateTimeISO(timeZone).toPlainDate();
  return [first.subtract({ days: 1 }).toString(), last.add({ days: 1 }).toString()];
}

/** Slots of one service on one host between two instants, minus what is booked (buffers are the service's). */
async function hostSlots(
  db: Db,
  service: BookingService,
  host: BookingHost,
  fromMs: number,
  toMs: number,
  at: Temporal.Instant,
  except?: string,
): Promise<Slot[]> {
  const margin = (service.bufferBeforeMinutes + service.bufferAfterMinutes + service.durationMinutes) * 60_000;
  const busy = await busyOf(db, host.id, fromMs - margin, toMs + margin, at.epochMilliseconds, except);
  const [from, to] = hostDates(fromMs, toMs, host.timeZone);
  return slotsBetween(rulesOf(service, host), from, to, busy, at).filter((s) => {
    const start = Date.parse(s.start);
    return start >= fromMs && start < toMs;
  });
}

/** Slots of a service across its hosts: one entry per start, its places summed. */
function merged(perHost: Slot[][]): Slot[] {
  if (perHost.length === 1) return perHost[0]!;
  const byStart = new Map<number, Slot>();
  for (const slots of perHost) {
    for (const slot of slots) {
      const key = Date.parse(slot.start);
      const seen = byStart.get(key);
      byStart.set(key, seen ? { ...seen, seatsLeft: seen.seatsLeft + slot.seatsLeft } : slot);
    }
  }
  return [...byStart.entries()].sort(([a], [b]) => a - b).map(([, s]) => s);
}

/** The instant a request's `start` names: with its offset as given, or a wall-clock time in `timeZone`. */
export function instantOfStart(start: string, timeZone: string): Temporal.Instant {
  const instant = readStart(start, timeZone);
  // Far outside any booking window, and past what date arithmetic can reach (year ±275760): refused as such.
  const year = new Date(instant.epochMilliseconds).getUTCFullYear();
  if (year < 2000 || year > 2200) {
    const message = "That time is not one this service can be booked at";
    throw invalid(message, [{ field: "start", message }]);
  }
  return instant;
}

function readStart(start: string, timeZone: string): Temporal.Instant {
  const field = (message: string) => invalid(message, [{ field: "start", message }]);
  if (/(Z|[+-]\d{2}:?\d{2})$/i.test(start)) {
    try {
      return Temporal.Instant.from(start);
    } catch {
      throw field("Give the time as an ISO 8601 instant, such as 2026-03-29T09:00:00+02:00");
    }
  }
  let local: Temporal.PlainDateTime;
  try {
    local = Temporal.PlainDateTime.from(start);
  } catch {
    throw field("Give the time as an ISO 8601 instant, such as 2026-03-29T09:00:00+02:00");
  }
  const minutes = local.hour * 60 + local.minute;
  const resolved = resolveLocal(local.toPlainDate(), minutes, timeZone);
  const said = `${local.toPlainDate().toString()} ${local.toPlainTime().toString({ smallestUnit: "minute" })}`;
  if (resolved.kind === "skipped") {
    throw field(`${said} does not exist in ${timeZone}: the clocks skip that hour. Choose another time.`);
  }
  if (resolved.kind === "ambiguous") {
    const offset = (i: Temporal.Instant) => i.toZonedDateTimeISO(timeZone).offset;
    throw field(
      `${said} happens twice in ${timeZone} as the clocks go back: give its offset, ` +
        `${offset(resolved.earlier)} (the first) or ${offset(resolved.later)} (the second).`,
    );
  }
  return resolved.instant;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;
export function minutesText(minutes: number): string {
  if (minutes % 1440 === 0) return plural(minutes / 1440, "day");
  if (minutes % 60 === 0) return plural(minutes / 60, "hour");
  return plural(minutes, "minute");
}

/** Why a time cannot be booked at all (taken or not): the 400 on `start`, or nothing when it is on offer. */
function refusal(service: BookingService, hosts: BookingHost[], startMs: number, at: Temporal.Instant, open: boolean) {
  const message = (() => {
    if (startMs < at.epochMilliseconds) return "That time has passed: choose a later one";
    if (startMs < at.epochMilliseconds + service.noticeMinutes * 60_000) {
      return `Book at least ${minutesText(service.noticeMinutes)} ahead`;
    }
    const beyond = hosts.every((h) => {
      const lastDay = at
        .toZonedDateTimeISO(h.timeZone)
        .toPlainDate()
        .add({ days: service.windowDays + 1 });
      return startMs >= lastDay.toZonedDateTime({ timeZone: h.timeZone }).epochMilliseconds;
    });
    if (beyond) return `Bookings open up to ${plural(service.windowDays, "day")} ahead`;
    if (!open) return "That is not a time this service can be booked at: choose one of the times offered";
    return null;
  })();
  return message ? invalid(message, [{ field: "start", message }]) : null;
}

function conflictWithNext(message: string, next: Slot[]): DomainError {
  return new DomainError("conflict", message, { body: { nextAvailable: next } });
}

export function bookingsOf(db: Db, workspaceId: string) {
  const services = servicesOf(db, workspaceId);
  const hosts = hostsOf(db, workspaceId);
  const rows = () => db.selectFrom("bookings").where("workspace_id", "=", workspaceId);

  async function hostsFor(service: BookingService): Promise<BookingHost[]> {
    return Promise.all(service.hostIds.map((id) => hosts.get(id)));
  }

  async function slotsOf(service: BookingService, fromMs: number, toMs: number, at: Temporal.Instant) {
    const delivering = await hostsFor(service);
    return merged(await Promise.all(delivering.map((h) => hostSlots(db, service, h, fromMs, toMs, at))));
  }

  async function nextFree(service: BookingService, afterMs: number, seats: number, at: Temporal.Instant) {
    const from = Math.max(afterMs, at.epochMilliseconds);
    const slots = await slotsOf(service, from, from + 14 * DAY_MS, at);
    return slots.filter((s) => s.seatsLeft >= seats).slice(0, 3);
  }

  /**
   * Takes `seats` of the slot at `startMs` on the first host that has them, in one transaction per host (see the
   * file's comment); `write` inserts or moves the booking. Answers the host it went to, or null when none had room.
   */
  async function claim(
    service: BookingService,
    candidates: BookingHost[],
    startMs: number,
    seats: number,
    at: Temporal.Instant,
    write: (trx: Db, host: BookingHost, endMs: number) => Promise<void>,
    except?: string,
  ): Promise<BookingHost | null> {
    for (const host of candidates) {
      const placed = await writeAndPurge(db, async (trx, purge) => {
        await trx
          .updateTable("booking_hosts")
          .set((eb) => ({ lock_seq: eb("lock_seq", "+", 1) }))
          .where("id", "=", host.id)
          .where("workspace_id", "=", workspaceId)
          .execute();
        const slots = await hostSlots(trx, service, host, startMs, startMs + 1, at, except);
        const slot = slots.find((s) => Date.parse(s.start) === startMs);
        if (!slot || slot.seatsLeft < seats) return false;
        await write(trx, host, Date.parse(slot.end));
        purge(cacheTags.bookings(workspaceId));
        return true;
      });
      if (placed) return host;
    }
    return null;
  }

  /** The hosts whose free grid (ignoring bookings) has this start, or the 400 that says why none has. */
  async function offering(service: BookingService, startMs: number, at: Temporal.Instant): Promise<BookingHost[]> {
    const delivering = await hostsFor(service);
    const open = delivering.filter((h) =>
      slotsBetween(rulesOf(service, h), ...hostDates(startMs, startMs, h.timeZone), [], at).some(
        (s) => Date.parse(s.start) === startMs,
      ),
    );
    const refused = refusal(service, delivering, startMs, at, open.length > 0);
    if (refused) throw refused;
    return open;
  }

  async function row(id: string): Promise<BookingRow> {
    const found = await rows().selectAll().where("id", "=", id).executeTakeFirst();
    if (!found) throw notFound("No such booking");
    return found;
  }

  /** The booking if this actor may see it; anyone else's is a 404, never a 403 that says it exists. */
  async function visibleTo(id: string, actor: BookingActor): Promise<BookingRow> {
    const found = await rows().selectAll().where("id", "=", id).executeTakeFirst();
    const mine =
      found &&
      (actor.kind === "operator" ||
        (actor.kind === "customer" && found.customer_id === actor.customerId) ||
        (actor.kind === "guest" &&
          actor.grant.workspaceId === workspaceId &&
          actor.grant.subjectType === "booking" &&
          actor.grant.subjectId === found.id));
    if (!mine) throw notFound("No such booking");
    return found;
  }

  function occupying(b: BookingRow, nowMs: number) {
    if (b.status === "held") return b.hold_expires_at !== null && Date.parse(b.hold_expires_at) > nowMs;
    return b.status === "pending" || b.status === "confirmed";
  }

  return {
    /** Active services (or the one named) with their free times between two dates of the visitor's zone. */
    /**
     * Active services (or the one named) with their free times between two dates of the visitor's zone. With
     * `remember` (the page cache's tagged memo) the times are kept between requests until a write purges the
     * workspace's `bookings` or `settings` tag — every booking made, moved, cancelled or expired (its deposit
     * order released included), every service or hours saved — or a live hold on them lapses; and at most half a
     * minute, so a write that forgot to purge cannot hide a time for long. Only the notice is applied per request,
     * as the clock moves. The booking itself never reads this: its transaction checks the slot afresh.
     */
    async availability(query: unknown, options: { at?: Temporal.Instant; remember?: TaggedMemo["remember"] } = {}) {
      const at = options.at ?? Temporal.Instant.fromEpochMilliseconds(clockNow().getTime());
      const q = parseInput(AvailabilityQuery, query);
      const load = async () => {
        const profile = await profileOf(db, workspaceId).get();
        const zone = q.timeZone ?? profile.timeZone;
        const today = at.toZonedDateTimeISO(zone).toPlainDate();
        const from = q.from ? Temporal.PlainDate.from(q.from) : today;
        const to = q.to ? Temporal.PlainDate.from(q.to) : from.add({ days: 13 });
        const days = from.until(to, { largestUnit: "days" }).days + 1;
        if (days < 1) throw invalid("Check the dates", [{ field: "to", message: "End on or after the first date" }]);
        if (days > MAX_RANGE_DAYS) {
          const message = `Ask for at most ${MAX_RANGE_DAYS} days at a time`;
          throw invalid(message, [{ field: "to", message }]);
        }
        const fromMs = from.toZonedDateTime({ timeZone: zone }).epochMilliseconds;
        const toMs = to.add({ days: 1 }).toZonedDateTime({ timeZone: zone }).epochMilliseconds;
        const list = q.service ? [await services.bookable(q.service)] : await services.list({ status: "active" });
        const found = await Promise.all(
          list.map(async (service) => {
            // The notice is the request's to apply (it moves with the clock); everything else is kept.
            const slots = await slotsOf({ ...service, noticeMinutes: 0 }, fromMs, toMs, at);
            return { service, slots, starts: slots.map((slot) => Date.parse(slot.start)) };
          }),
        );
        const hold = await rows()
          .select((eb) => eb.fn.min<string>("hold_expires_at").as("until"))
          .where("status", "=", "held")
          .where("hold_expires_at", ">", stored(at.epochMilliseconds))
          .executeTakeFirst();
        return {
          view: { businessTimeZone: profile.timeZone, timeZone: zone, from: from.toString(), to: to.toString() },
          found,
          holdUntil: hold?.until ? Date.parse(hold.until) : Infinity,
        };
      };
      const key = ["availability", workspaceId, q.service ?? "*", q.from ?? "", q.to ?? "", q.timeZone ?? ""];
      // Without dates the range is "from today": the day is part of what was asked.
      if (!q.from || !q.to) key.push(new Date(at.epochMilliseconds).toISOString().slice(0, 10));
      const kept = options.remember
        ? await options.remember(
            key.join("|"),
            [cacheTags.bookings(workspaceId), cacheTags.settings(workspaceId)],
            load,
            (value) => Math.min(value.holdUntil, at.epochMilliseconds + AVAILABILITY_MEMO_MS),
          )
        : await load();
      const nowMs = clockNow().getTime();
      const found: ServiceSlots[] = kept.found.map(({ service, slots, starts }) => {
        const earliest = nowMs + service.noticeMinutes * 60_000;
        let first = 0;
        while (first < starts.length && starts[first]! < earliest) first += 1;
        return { service, slots: first === 0 ? slots : slots.slice(first) };
      });
      return { ...kept.view, found };
    },

    /** Books a slot: held while a deposit is owed, pending when the operator approves, confirmed otherwise. */
    async book(
      input: unknown,
      options: {
        customerId: string | null;
        source: "site" | "console" | "api" | "sop";
        /** The deployment's address for the e-mails' links. */
        origin: string;
        actorUserId?: string | null;
      },
    ): Promise<{ booking: BookingRow; manageToken: string | null }> {
      const v = parseInput(BookingInput, input);
      const service = await services.bookable(v.service);
      const profile = await profileOf(db, workspaceId).get();
      const zone = v.timeZone ?? profile.timeZone;
      const at = Temporal.Instant.fromEpochMilliseconds(clockNow().getTime());
      const startMs = instantOfStart(v.start, zone).epochMilliseconds;
      if (v.seats > service.capacity) {
        const message = `At most ${plural(service.capacity, "place")} per booking`;
        throw invalid(message, [{ field: "seats", message }]);
      }
      const missing = service.questions.filter((q) => q.required && !(v.answers[q.id] ?? "").trim());
      if (missing.length > 0) {
        throw invalid(
          "Answer the required questions",
          missing.map((q) => ({ field: `answers.${q.id}`, message: `${q.label}: please answer` })),
        );
      }
      const answers = Object.fromEntries(
        service.questions.filter((q) => v.answers[q.id] !== undefined).map((q) => [q.id, v.answers[q.id]!.trim()]),
      );

      const id = newId();
      const nowIso = isoNow();
      const status: BookingStatus = service.deposit > 0 ? "held" : service.requiresApproval ? "pending" : "confirmed";
      const host = await claim(
        service,
        await offering(service, startMs, at),
        startMs,
        v.seats,
        at,
        async (trx, h, endMs) => {
          await trx
            .insertInto("bookings")
            .values({
              id,
              workspace_id: workspaceId,
              service_id: service.id,
              host_id: h.id,
              customer_id: options.customerId,
              status,
              start_at: stored(startMs),
              end_at: stored(endMs),
              seats: v.seats,
              name: v.name,
              email: v.email,
              phone: v.phone,
              answers: JSON.stringify(answers),
              visitor_time_zone: zone,
              notes: v.notes,
              price: service.price * v.seats,
              deposit: service.deposit * v.seats,
              currency: service.currency,
              amount_paid: 0,
              hold_expires_at: status === "held" ? stored(at.epochMilliseconds + service.holdMinutes * 60_000) : null,
              source: options.source,
              cancelled_at: null,
              cancelled_by: null,
              cancel_reason: "",
              reminder_sent_at: null,
              follow_up_sent_at: null,
              created_at: nowIso,
              updated_at: nowIso,
            })
            .execute();
          await recordWorkspaceEvent(trx, workspaceId, {
            action: "booking.created",
            actorUserId: options.actorUserId ?? null,
            detail: { id, service: service.slug, start: stored(startMs), status, source: options.source },
          });
          const by = options.source === "console" ? "operator" : options.customerId ? "customer" : "guest";
          await enqueueBookingMail(trx, workspaceId, { bookingId: id, event: "created", origin: options.origin, by });
        },
      );
      if (!host) {
        throw conflictWithNext(
          "That time was just taken: choose another",
          await nextFree(service, startMs, v.seats, at),
        );
      }
      // A guest's key to see, move or cancel it without an account, until a week after it starts (a customer's
      // booking is in their portal).
      const days = Math.min(400, Math.ceil((startMs - at.epochMilliseconds) / DAY_MS) + 7);
      const manageToken = options.customerId
        ? null
        : await issueManageToken(db, workspaceId, {
            subjectType: "booking",
            subjectId: id,
            actions: ["view", "cancel", "reschedule"],
            email: v.email,
            days,
          });
      return { booking: await row(id), manageToken };
    },

    get: (id: string, actor: BookingActor) => visibleTo(id, actor),

    /** What the booker may still do, by the service's notice rules (an operator may always). */
    async rights(b: BookingRow, actor: BookingActor) {
      const service = await services.get(b.service_id);
      const nowMs = clockNow().getTime();
      const live = occupying(b, nowMs) && Date.parse(b.start_at) > nowMs;
      const before = (minutes: number) => Date.parse(b.start_at) - nowMs >= minutes * 60_000;
      const operator = actor.kind === "operator";
      return {
        service,
        canCancel: live && (operator || before(service.cancelNoticeMinutes)),
        canReschedule: live && b.status !== "held" && (operator || before(service.rescheduleNoticeMinutes)),
      };
    },

    /**
     * Cancels a booking within the rules; its payments still open are ended after (`endOpenPayments`, with the
     * provider's page closed when `release` is given).
     */
    async cancel(
      id: string,
      actor: BookingActor,
      input: unknown,
      origin: string,
      release?: ReleaseCheckout,
    ): Promise<BookingRow> {
      const { reason } = parseInput(CancelInput, input ?? {});
      const b = await visibleTo(id, actor);
      const { service, canCancel } = await this.rights(b, actor);
      if (!canCancel) {
        if (!occupying(b, clockNow().getTime())) throw conflict("This booking is no longer active");
        if (Date.parse(b.start_at) <= clockNow().getTime()) throw conflict("This booking has already started");
        throw conflict(
          `Bookings can be cancelled up to ${minutesText(service.cancelNoticeMinutes)} before they start: ` +
            "contact the business to change it now",
        );
      }
      const at = isoNow();
      await writeAndPurge(db, async (trx, purge) => {
        purge(cacheTags.bookings(workspaceId));
        // Only an active booking is cancelled: a second click, or one racing an expiry, changes nothing.
        const done = await trx
          .updateTable("bookings")
          .set({
            status: "cancelled",
            cancelled_at: at,
            cancelled_by: actor.kind,
            cancel_reason: reason,
            updated_at: at,
          })
          .where("id", "=", id)
          .where("status", "in", [...OCCUPYING_STATUSES])
          .executeTakeFirst();
        if (Number(done.numUpdatedRows) === 0) throw conflict("This booking is no longer active");
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "booking.cancelled",
          actorUserId: actor.kind === "operator" ? actor.userId : null,
          detail: { id, by: actor.kind, reason },
        });
        await enqueueBookingMail(trx, workspaceId, { bookingId: id, event: "cancelled", origin, by: actor.kind });
      });
      await endOpenPayments(db, workspaceId, id, origin, release);
      return row(id);
    },

    /** Moves a booking to another free time of its service (any of its hosts), within the reschedule notice. */
    async reschedule(id: string, actor: BookingActor, input: unknown, origin: string): Promise<BookingRow> {
      const v = parseInput(RescheduleInput, input);
      const b = await visibleTo(id, actor);
      const { service, canReschedule } = await this.rights(b, actor);
      if (!canReschedule) {
        if (!occupying(b, clockNow().getTime()) || b.status === "held") {
          throw conflict("This booking cannot be moved now");
        }
        throw conflict(
          `Bookings can be moved up to ${minutesText(service.rescheduleNoticeMinutes)} before they start: ` +
            "contact the business to change it now",
        );
      }
      const at = Temporal.Instant.fromEpochMilliseconds(clockNow().getTime());
      const startMs = instantOfStart(v.start, v.timeZone ?? b.visitor_time_zone).epochMilliseconds;
      const candidates = await offering(service, startMs, at);
      // Its own host first, so a move within the day keeps the same person where it can.
      candidates.sort((a, c) => (a.id === b.host_id ? -1 : c.id === b.host_id ? 1 : 0));
      const host = await claim(
        service,
        candidates,
        startMs,
        b.seats,
        at,
        async (trx, h, endMs) => {
          const moved = await trx
            .updateTable("bookings")
            .set({ host_id: h.id, start_at: stored(startMs), end_at: stored(endMs), updated_at: isoNow() })
            .where("id", "=", id)
            .where("status", "in", ["pending", "confirmed"])
            .executeTakeFirst();
          if (Number(moved.numUpdatedRows) === 0) throw conflict("This booking is no longer active");
          await recordWorkspaceEvent(trx, workspaceId, {
            action: "booking.rescheduled",
            actorUserId: actor.kind === "operator" ? actor.userId : null,
            detail: { id, from: b.start_at, to: stored(startMs), by: actor.kind },
          });
          await enqueueBookingMail(trx, workspaceId, {
            bookingId: id,
            event: "rescheduled",
            origin,
            by: actor.kind,
            previousStart: b.start_at,
          });
        },
        id,
      );
      if (!host) {
        throw conflictWithNext(
          "That time was just taken: choose another",
          await nextFree(service, startMs, b.seats, at),
        );
      }
      return row(id);
    },

    /** The signed-in customer's bookings: upcoming first (soonest first), then past (latest first). */
    async ofCustomer(customerId: string) {
      const found = await rows().selectAll().where("customer_id", "=", customerId).orderBy("start_at").execute();
      const nowIso = isoNow();
      return {
        upcoming: found.filter((b) => b.end_at > nowIso),
        past: found.filter((b) => b.end_at <= nowIso).reverse(),
      };
    },

    /** Everything on the calendar between two instants, for the console. */
    async between(fromIso: string, toIso: string) {
      return rows()
        .selectAll()
        .where("start_at", "<", toIso)
        .where("end_at", ">", fromIso)
        .where("status", "not in", ["expired"])
        .orderBy("start_at")
        .orderBy("id")
        .limit(2000)
        .execute();
    },
  };
}

class KeptForPayment extends Error {}

/**
 * A hold past its time is over: its slot was already free to others from that moment; this records it and tells
 * the booker (each booking once: only a row still held is changed, in the transaction that queues its e-mail).
 */
export async function expireBookingHolds(db: Db, origin: string): Promise<number> {
  const at = isoNow();
  const lapsed = await db
    .selectFrom("bookings")
    .select(["id", "workspace_id"])
    .where("status", "=", "held")
    .where("hold_expires_at", "<=", at)
    .orderBy("hold_expires_at")
    .limit(500)
    .execute();
  // One whose deposit page is open is the shop's to end: its expiry sweep closes the page, then frees the slot.
  const paying = await heldByOpenPayment(
    db,
    lapsed.map((b) => b.id),
  );
  let expired = 0;
  for (const b of lapsed.filter((l) => !paying.has(l.id))) {
    await writeAndPurge(db, async (trx, purge) => {
      const done = await trx
        .updateTable("bookings")
        .set({ status: "expired", hold_expires_at: null, updated_at: at })
        .where("id", "=", b.id)
        .where("status", "=", "held")
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) === 0) return;
      // Its row is ours now: a payment page opened just before is seen, and the booking is left to the shop.
      if ((await heldByOpenPayment(trx, [b.id])).size > 0) throw new KeptForPayment();
      expired += 1;
      purge(cacheTags.bookings(b.workspace_id));
      await enqueueBookingMail(trx, b.workspace_id, { bookingId: b.id, event: "expired", origin, by: "system" });
    }).catch((error: unknown) => {
      if (!(error instanceof KeptForPayment)) throw error;
    });
  }
  return expired;
}
