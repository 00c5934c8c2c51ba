/**
 * What only the console does with bookings (issue 19, ADR 036): the team calendar, the bookings list, one booking's
 * detail with its history, and the operator's decisions on it — approve, decline, mark completed or a no-show. Each
 * decision is one guarded UPDATE in a transaction with its audit event (and its e-mail, queued in the same
 * transaction): the WHERE names the state it leaves, so a second click or two operators at once change it once.
 */
import Holidays from "date-holidays";
import { Temporal } from "temporal-polyfill";
import type { BookingRow } from "~db/schema/scheduling";
import type { Db } from "~db/client";
import { isoNow, now as clockNow } from "~/lib/clock.server";
import { conflict, invalid, notFound } from "~/lib/errors";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { writeAndPurge } from "~/modules/cache/purge.server";
import { cacheTags } from "~/modules/cache/tags";
import { profileOf } from "~/modules/sites/profile.server";
import { OCCUPYING_STATUSES, type BookingStatus } from "./api";
import { bookingsOf } from "./bookings.server";
import { enqueueBookingMail } from "./notify.server";
import { hostsOf, type BookingHost } from "./services.server";
import { resolveLocal } from "./slots";

// --- The bookings list ------------------------------------------------------------------------------------------

export type BookingFilter = "upcoming" | "pending" | "past" | "cancelled" | "all";

export interface BookingListItem {
  id: string;
  status: BookingStatus;
  start: string;
  end: string;
  name: string;
  email: string;
  seats: number;
  serviceName: string;
  hostName: string;
  price: number;
  currency: string;
}

/** `%` and `_` typed in a search are literal characters, not patterns. */
const likeText = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function bookingDeskOf(db: Db, workspaceId: string) {
  const base = (filter: BookingFilter, query?: string, range?: { fromIso: string; untilIso: string }) => {
    const nowIso = isoNow();
    let q = db
      .selectFrom("bookings")
      .innerJoin("booking_services", "booking_services.id", "bookings.service_id")
      .innerJoin("booking_hosts", "booking_hosts.id", "bookings.host_id")
      .where("bookings.workspace_id", "=", workspaceId)
      // A lapsed hold never was a booking: it is in no list.
      .where("bookings.status", "!=", "expired");
    if (filter === "upcoming") {
      q = q.where("bookings.end_at", ">", nowIso).where("bookings.status", "in", [...OCCUPYING_STATUSES]);
    } else if (filter === "past") {
      q = q.where("bookings.end_at", "<=", nowIso).where("bookings.status", "!=", "cancelled");
    } else if (filter === "pending") {
      q = q.where("bookings.status", "=", "pending");
    } else if (filter === "cancelled") {
      q = q.where("bookings.status", "=", "cancelled");
    }
    // What overlaps the range (the assistant's "today's bookings"): a booking running across midnight counts.
    if (range) q = q.where("bookings.start_at", "<", range.untilIso).where("bookings.end_at", ">", range.fromIso);
    if (query) {
      const pattern = likeText(query);
      q = q.where((eb) =>
        eb.or([
          eb(eb.fn("lower", ["bookings.name"]), "like", eb.val(pattern)),
          eb(eb.fn("lower", ["bookings.email"]), "like", eb.val(pattern)),
        ]),
      );
    }
    return q;
  };

  return {
    /** Upcoming and pending soonest first (what comes next); past, cancelled and all latest first. */
    async list(options: {
      filter: BookingFilter;
      query?: string;
      range?: { fromIso: string; untilIso: string };
      /** Soonest first whatever the filter (a day's bookings read in their order). */
      soonestFirst?: boolean;
      limit: number;
      offset: number;
    }) {
      const soonestFirst = options.soonestFirst ?? (options.filter === "upcoming" || options.filter === "pending");
      const rows = await base(options.filter, options.query, options.range)
        .select([
          "bookings.id",
          "bookings.status",
          "bookings.start_at",
          "bookings.end_at",
          "bookings.name",
          "bookings.email",
          "bookings.seats",
          "bookings.price",
          "bookings.currency",
          "booking_services.name as service_name",
          "booking_hosts.name as host_name",
        ])
        .orderBy("bookings.start_at", soonestFirst ? "asc" : "desc")
        .orderBy("bookings.id")
        .limit(options.limit)
        .offset(options.offset)
        .execute();
      return rows.map((r): BookingListItem => ({
        id: r.id,
        status: r.status as BookingStatus,
        start: r.start_at,
        end: r.end_at,
        name: r.name,
        email: r.email,
        seats: r.seats,
        serviceName: r.service_name,
        hostName: r.host_name,
        price: r.price,
        currency: r.currency,
      }));
    },

    async count(filter: BookingFilter, query?: string, range?: { fromIso: string; untilIso: string }): Promise<number> {
      const row = await base(filter, query, range)
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** One booking with what the detail page shows beside it; another workspace's is a 404. */
    async detail(id: string) {
      const booking = await db
        .selectFrom("bookings")
        .selectAll()
        .where("workspace_id", "=", workspaceId)
        .where("id", "=", id)
        .executeTakeFirst();
      if (!booking) throw notFound("No such booking");
      const [host, payments, history] = await Promise.all([
        db
          .selectFrom("booking_hosts")
          .select(["id", "name", "kind"])
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", booking.host_id)
          .executeTakeFirst(),
        db
          .selectFrom("booking_payments")
          .leftJoin("orders", (join) =>
            join.onRef("orders.id", "=", "booking_payments.order_id").on("orders.workspace_id", "=", workspaceId),
          )
          .select([
            "booking_payments.order_id",
            "booking_payments.kind",
            "booking_payments.amount",
            "booking_payments.created_at",
            "orders.number",
            "orders.status as order_status",
          ])
          .where("booking_payments.workspace_id", "=", workspaceId)
          .where("booking_payments.booking_id", "=", id)
          .orderBy("booking_payments.created_at")
          .execute(),
        db
          .selectFrom("audit_events")
          .leftJoin("users", "users.id", "audit_events.actor_user_id")
          .select([
            "audit_events.id",
            "audit_events.action",
            "audit_events.detail",
            "audit_events.created_at",
            "users.email",
          ])
          .where("audit_events.workspace_id", "=", workspaceId)
          .where("audit_events.action", "like", "booking.%")
          // Its events name it in their detail; ids are ULIDs, so the pattern matches this booking alone.
          .where("audit_events.detail", "like", `%"id":"${id}"%`)
          .orderBy("audit_events.created_at")
          .orderBy("audit_events.id")
          .limit(200)
          .execute(),
      ]);
      return {
        booking,
        host: host ?? null,
        payments: payments.map((p) => ({
          orderId: p.order_id,
          orderNumber: p.number ?? null,
          orderStatus: p.order_status ?? null,
          kind: p.kind,
          amount: p.amount,
          at: p.created_at,
        })),
        history: history.map((h) => ({
          id: h.id,
          action: h.action,
          at: h.created_at,
          by: h.email ?? null,
          detail: JSON.parse(h.detail) as Record<string, unknown>,
        })),
      };
    },

    /** A booking waiting for approval is confirmed, and the booker told. */
    approve: (actorUserId: string | null, id: string, origin: string) =>
      decide(db, workspaceId, id, {
        from: ["pending"],
        to: "confirmed",
        action: "booking.approved",
        actorUserId,
        refusal: "This booking is not waiting for approval",
        mail: { event: "confirmed", origin },
      }),

    /** A booking waiting for approval is turned down: it frees its time, and the booker is told why. */
    decline: (actorUserId: string | null, id: string, reason: string, origin: string) =>
      decide(db, workspaceId, id, {
        from: ["pending"],
        to: "cancelled",
        action: "booking.declined",
        actorUserId,
        reason,
        refusal: "This booking is not waiting for approval",
        mail: { event: "declined", origin },
      }),

    /** It took place. Only once it has started: a future booking marked done would free no one's time honestly. */
    complete: (actorUserId: string | null, id: string) =>
      decide(db, workspaceId, id, {
        from: ["confirmed", "no_show"],
        to: "completed",
        action: "booking.completed",
        actorUserId,
        started: true,
        refusal: "Only a confirmed booking that has started can be marked completed",
      }),

    /** The booker did not come. As `complete`, after its start; either can correct the other. */
    noShow: (actorUserId: string | null, id: string) =>
      decide(db, workspaceId, id, {
        from: ["confirmed", "completed"],
        to: "no_show",
        action: "booking.no_show",
        actorUserId,
        started: true,
        refusal: "Only a confirmed booking that has started can be marked a no-show",
      }),
  };
}

/** What an SOP's `update_booking` step may do to a booking (issue 19). */
export const BOOKING_STEP_ACTIONS = ["confirm", "decline", "cancel", "complete", "no_show"] as const;

/** A booking's status in this workspace, or null when there is none. */
export async function bookingStatusOf(db: Db, workspaceId: string, id: string): Promise<string | null> {
  const row = await db
    .selectFrom("bookings")
    .select("status")
    .where("workspace_id", "=", workspaceId)
    .where("id", "=", id)
    .executeTakeFirst();
  return row?.status ?? null;
}

/** An SOP step's action on a booking, as a member's in the console (no member: the audit names none). */
export async function applyBookingAction(
  db: Db,
  workspaceId: string,
  id: string,
  action: (typeof BOOKING_STEP_ACTIONS)[number],
  reason: string,
  origin: string,
): Promise<BookingRow> {
  const desk = bookingDeskOf(db, workspaceId);
  switch (action) {
    case "confirm":
      return desk.approve(null, id, origin);
    case "decline":
      return desk.decline(null, id, reason, origin);
    case "cancel":
      return bookingsOf(db, workspaceId).cancel(id, { kind: "operator", userId: null }, { reason }, origin);
    case "complete":
      return desk.complete(null, id);
    case "no_show":
      return desk.noShow(null, id);
  }
}

async function decide(
  db: Db,
  workspaceId: string,
  id: string,
  change: {
    from: BookingStatus[];
    to: BookingStatus;
    action: string;
    actorUserId: string | null;
    refusal: string;
    reason?: string;
    started?: boolean;
    mail?: { event: "confirmed" | "declined"; origin: string };
  },
): Promise<BookingRow> {
  const existing = await db
    .selectFrom("bookings")
    .select(["id", "start_at"])
    .where("workspace_id", "=", workspaceId)
    .where("id", "=", id)
    .executeTakeFirst();
  if (!existing) throw notFound("No such booking");
  const at = isoNow();
  if (change.started && existing.start_at > at) throw conflict(`${change.refusal}: it has not started yet`);
  await writeAndPurge(db, async (trx, purge) => {
    // A declined booking frees its time: the booking pages show it again.
    purge(cacheTags.bookings(workspaceId));
    let q = trx
      .updateTable("bookings")
      .set({
        status: change.to,
        updated_at: at,
        ...(change.to === "cancelled"
          ? { cancelled_at: at, cancelled_by: "operator", cancel_reason: change.reason ?? "" }
          : {}),
      })
      .where("id", "=", id)
      .where("workspace_id", "=", workspaceId)
      .where("status", "in", change.from);
    if (change.started) q = q.where("start_at", "<=", at);
    const done = await q.executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) throw conflict(change.refusal);
    await recordWorkspaceEvent(trx, workspaceId, {
      action: change.action,
      actorUserId: change.actorUserId,
      detail: { id, to: change.to, ...(change.reason ? { reason: change.reason } : {}) },
    });
    if (change.mail) {
      await enqueueBookingMail(trx, workspaceId, {
        bookingId: id,
        event: change.mail.event,
        origin: change.mail.origin,
        by: "operator",
      });
    }
  });
  return db.selectFrom("bookings").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

// --- The team calendar ------------------------------------------------------------------------------------------

/** The calendar's grid step: a booking's block covers the quarter-hours it touches. */
export const ROW_MINUTES = 15;

export interface CalendarBlock {
  id: string;
  status: BookingStatus;
  name: string;
  serviceName: string;
  hostName: string;
  seats: number;
  /** Wall-clock `HH:MM` where the business is, as its clocks read that day. */
  startText: string;
  endText: string;
  lane: number;
  /** The first grid row the block covers (0 is the grid's first), and how many. */
  row: number;
  span: number;
}

export interface CalendarColumn {
  key: string;
  label: string;
  /** A second line under the label: the weekday, or staff/resource. */
  sub: string;
  /** The date the column shows (`YYYY-MM-DD`), the business's. */
  date: string;
  lanes: number;
  blocks: CalendarBlock[];
  /** Rows whose wall-clock time does not exist that day (the hour skipped when the clocks go forward). */
  skippedRows: number[];
  /** Rows outside the host's hours that day (day view, when the host keeps the business's zone). */
  closedRows: number[];
}

export interface CalendarDay {
  date: string;
  /** "Sunday 29 March". */
  label: string;
  hours: number;
  /** What the clocks do that day, when they change: "Clocks go forward 02:00 → 03:00". */
  change: string | null;
}

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** Minutes past midnight by the wall clock, the day's edges clamped: the calendar places blocks where clocks read. */
function wallMinutes(iso: string, day: Temporal.PlainDate, zone: string, edge: "start" | "end"): number {
  const local = Temporal.Instant.from(iso).toZonedDateTimeISO(zone);
  const cmp = Temporal.PlainDate.compare(local.toPlainDate(), day);
  if (cmp < 0) return 0;
  if (cmp > 0) return 24 * 60;
  const minutes = local.hour * 60 + local.minute;
  return edge === "end" && local.second + local.millisecond > 0 ? minutes + 1 : minutes;
}

function dayOf(date: Temporal.PlainDate, zone: string): CalendarDay {
  const start = date.toZonedDateTime({ timeZone: zone });
  const hours = start.hoursInDay;
  let change: string | null = null;
  const next = start.getTimeZoneTransition("next");
  if (next && Temporal.ZonedDateTime.compare(next, start.add({ days: 1 })) < 0) {
    const after = next.toPlainTime();
    const before = next.subtract({ nanoseconds: 1 }).toPlainTime().add({ nanoseconds: 1 });
    const fmt = (t: Temporal.PlainTime) => t.toString({ smallestUnit: "minute" });
    const forward = hours < 24;
    change = `Clocks go ${forward ? "forward" : "back"} at ${fmt(before)} to ${fmt(after)}: a ${hours}-hour day`;
  }
  return {
    date: date.toString(),
    label: date.toLocaleString("en-GB", { weekday: "long", day: "numeric", month: "long" }),
    hours,
    change,
  };
}

/** Lanes so that blocks overlapping in time sit side by side: each goes in the first lane free at its start. */
function laneOut<T extends { startMin: number; endMin: number }>(
  items: T[],
): { lanes: number; placed: (T & { lane: number })[] } {
  const ends: number[] = [];
  const placed = [...items]
    .sort((a, b) => a.startMin - b.startMin || b.endMin - a.endMin)
    .map((item) => {
      let lane = ends.findIndex((end) => end <= item.startMin);
      if (lane === -1) lane = ends.length;
      ends[lane] = Math.max(item.endMin, item.startMin + ROW_MINUTES);
      return { ...item, lane };
    });
  return { lanes: Math.max(1, ends.length), placed };
}

function hostRangesOn(host: BookingHost, date: Temporal.PlainDate) {
  const override = host.overrides.find((o) => o.date === date.toString());
  if (override) return override.ranges;
  return host.weekly.filter((r) => r.weekday === date.dayOfWeek);
}

const minutesOfWall = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));

/** "23 – 29 March 2026", "30 March – 5 April 2026", "28 December 2026 – 3 January 2027". */
function weekTitle(first: Temporal.PlainDate, last: Temporal.PlainDate): string {
  const end = last.toLocaleString("en-GB", { day: "numeric", month: "long", year: "numeric" });
  if (first.year !== last.year)
    return `${first.toLocaleString("en-GB", { day: "numeric", month: "long", year: "numeric" })} – ${end}`;
  if (first.month !== last.month) return `${first.toLocaleString("en-GB", { day: "numeric", month: "long" })} – ${end}`;
  return `${first.day} – ${end}`;
}

export function calendarOf(db: Db, workspaceId: string) {
  return {
    /**
     * The day (columns per host) or the week (columns per day, optionally one host's) around `date`, in the
     * business's zone. Every local time comes from the Temporal polyfill, so the 23- and 25-hour days of a
     * daylight-saving change place each booking where the clocks read, never an hour off.
     */
    async view(options: { view: "day" | "week"; date?: string | null; hostId?: string | null }) {
      const profile = await profileOf(db, workspaceId).get();
      const zone = profile.timeZone;
      const today = Temporal.Instant.fromEpochMilliseconds(clockNow().getTime()).toZonedDateTimeISO(zone).toPlainDate();
      let anchor = today;
      if (options.date && /^\d{4}-\d{2}-\d{2}$/.test(options.date)) {
        try {
          anchor = Temporal.PlainDate.from(options.date, { overflow: "reject" });
        } catch {
          anchor = today;
        }
      }
      const first = options.view === "week" ? anchor.subtract({ days: anchor.dayOfWeek - 1 }) : anchor;
      const count = options.view === "week" ? 7 : 1;
      const dates = Array.from({ length: count }, (_, i) => first.add({ days: i }));
      const iso = (d: Temporal.PlainDate) =>
        new Date(d.toZonedDateTime({ timeZone: zone }).epochMilliseconds).toISOString();
      const fromIso = iso(first);
      const toIso = iso(first.add({ days: count }));

      const [hosts, rows] = await Promise.all([
        hostsOf(db, workspaceId).list(),
        db
          .selectFrom("bookings")
          .innerJoin("booking_services", "booking_services.id", "bookings.service_id")
          .innerJoin("booking_hosts", "booking_hosts.id", "bookings.host_id")
          .select([
            "bookings.id",
            "bookings.status",
            "bookings.start_at",
            "bookings.end_at",
            "bookings.name",
            "bookings.seats",
            "bookings.host_id",
            "booking_services.name as service_name",
            "booking_hosts.name as host_name",
          ])
          .where("bookings.workspace_id", "=", workspaceId)
          .where("bookings.start_at", "<", toIso)
          .where("bookings.end_at", ">", fromIso)
          .where("bookings.status", "!=", "expired")
          .orderBy("bookings.start_at")
          .orderBy("bookings.id")
          .limit(2000)
          .execute(),
      ]);
      const hostFilter = options.view === "week" && hosts.some((h) => h.id === options.hostId) ? options.hostId! : null;

      // Every local time of every booking, per date it touches.
      const pieces = dates.flatMap((date) =>
        rows
          .filter((r) => (hostFilter ? r.host_id === hostFilter : true))
          .map((r) => ({
            r,
            date,
            startMin: wallMinutes(r.start_at, date, zone, "start"),
            endMin: wallMinutes(r.end_at, date, zone, "end"),
          }))
          .filter((p) => {
            const localStart = Temporal.Instant.from(p.r.start_at).toZonedDateTimeISO(zone).toPlainDate();
            const localEnd = Temporal.Instant.from(p.r.end_at).toZonedDateTimeISO(zone).toPlainDate();
            return (
              Temporal.PlainDate.compare(localStart, p.date) <= 0 && Temporal.PlainDate.compare(localEnd, p.date) >= 0
            );
          })
          // A booking ending at midnight does not show on the next day.
          .filter((p) => p.endMin > p.startMin),
      );

      // The visible hours: the working day (08–18) widened to the hosts' hours and to every booking shown.
      let startHour = 8;
      let endHour = 18;
      for (const h of hosts) {
        for (const r of h.weekly) {
          startHour = Math.min(startHour, Math.floor(minutesOfWall(r.start) / 60));
          endHour = Math.max(endHour, Math.ceil(minutesOfWall(r.end) / 60));
        }
      }
      for (const p of pieces) {
        startHour = Math.min(startHour, Math.floor(p.startMin / 60));
        endHour = Math.max(endHour, Math.ceil(p.endMin / 60));
      }
      endHour = Math.min(24, Math.max(endHour, startHour + 1));
      const rowCount = ((endHour - startHour) * 60) / ROW_MINUTES;
      const rowOf = (minutes: number) => Math.floor((minutes - startHour * 60) / ROW_MINUTES);

      const skippedOn = (date: Temporal.PlainDate) =>
        Array.from({ length: rowCount }, (_, i) => i).filter(
          (i) => resolveLocal(date, startHour * 60 + i * ROW_MINUTES, zone).kind === "skipped",
        );
      const closedOn = (host: BookingHost, date: Temporal.PlainDate) => {
        if (host.timeZone !== zone) return [];
        const ranges = hostRangesOn(host, date).map((r) => [minutesOfWall(r.start), minutesOfWall(r.end)] as const);
        return Array.from({ length: rowCount }, (_, i) => i).filter((i) => {
          const m = startHour * 60 + i * ROW_MINUTES;
          return !ranges.some(([s, e]) => m >= s && m < e);
        });
      };

      const column = (
        key: string,
        label: string,
        sub: string,
        date: Temporal.PlainDate,
        items: typeof pieces,
        host: BookingHost | null,
      ): CalendarColumn => {
        const { lanes, placed } = laneOut(items);
        return {
          key,
          label,
          sub,
          date: date.toString(),
          lanes,
          skippedRows: skippedOn(date),
          closedRows: host ? closedOn(host, date) : [],
          blocks: placed.map((p) => {
            const row = Math.max(0, rowOf(p.startMin));
            const last = Math.min(rowCount, Math.ceil((p.endMin - startHour * 60) / ROW_MINUTES));
            return {
              id: p.r.id,
              status: p.r.status as BookingStatus,
              name: p.r.name,
              serviceName: p.r.service_name,
              hostName: p.r.host_name,
              seats: p.r.seats,
              startText: hhmm(wallMinutes(p.r.start_at, p.date, zone, "start")),
              endText: hhmm(Math.min(24 * 60, wallMinutes(p.r.end_at, p.date, zone, "end"))),
              lane: p.lane,
              row,
              span: Math.max(1, last - row),
            };
          }),
        };
      };

      const weekday = (d: Temporal.PlainDate) =>
        d.toLocaleString("en-GB", { weekday: "short", day: "numeric", month: "short" });
      let columns: CalendarColumn[];
      if (options.view === "day") {
        const date = dates[0]!;
        const known = new Set(hosts.map((h) => h.id));
        // A booking of a host no longer listed still shows, in a column of its own.
        const others = [...new Set(pieces.filter((p) => !known.has(p.r.host_id)).map((p) => p.r.host_id))];
        columns = [
          ...hosts.map((h) =>
            column(
              h.id,
              h.name,
              h.kind === "staff" ? "Staff" : "Resource",
              date,
              pieces.filter((p) => p.r.host_id === h.id),
              h,
            ),
          ),
          ...others.map((id) =>
            column(
              id,
              pieces.find((p) => p.r.host_id === id)!.r.host_name,
              "No longer listed",
              date,
              pieces.filter((p) => p.r.host_id === id),
              null,
            ),
          ),
        ];
      } else {
        const host = hosts.find((h) => h.id === hostFilter) ?? null;
        columns = dates.map((date) =>
          column(
            date.toString(),
            weekday(date),
            date.equals(today) ? "Today" : "",
            date,
            pieces.filter((p) => p.date.equals(date)),
            host,
          ),
        );
      }

      const step = options.view === "week" ? { weeks: 1 } : { days: 1 };
      return {
        view: options.view,
        timeZone: zone,
        date: anchor.toString(),
        today: today.toString(),
        previous: anchor.subtract(step).toString(),
        next: anchor.add(step).toString(),
        title:
          options.view === "week"
            ? weekTitle(first, dates[6]!)
            : anchor.toLocaleString("en-GB", { weekday: "long", day: "numeric", month: "long", year: "numeric" }),
        days: dates.map((d) => dayOf(d, zone)),
        hosts: hosts.map((h) => ({ id: h.id, name: h.name })),
        hostId: hostFilter,
        rows: Array.from({ length: rowCount }, (_, i) => ({
          index: i,
          time: hhmm(startHour * 60 + i * ROW_MINUTES),
          hourStart: (startHour * 60 + i * ROW_MINUTES) % 60 === 0,
        })),
        columns,
        total: new Set(pieces.map((p) => p.r.id)).size,
      };
    },
  };
}

// --- Public holidays --------------------------------------------------------------------------------------------

let countries: { code: string; name: string }[] | undefined;

/** The countries `date-holidays` knows, by name, for the import's select. */
export function holidayCountries(): { code: string; name: string }[] {
  countries ??= Object.entries(new Holidays().getCountries("en"))
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => a.name.localeCompare(b.name, "en"));
  return countries;
}

/** A country's public holidays in a year, one per date, in English where the data has it. */
export function publicHolidays(country: string, year: number): { date: string; name: string }[] {
  if (!holidayCountries().some((c) => c.code === country)) {
    throw invalid("Choose a country from the list", [{ field: "country", message: "Choose a country from the list" }]);
  }
  if (!Number.isInteger(year) || year < 2000 || year > 2100) {
    throw invalid("Choose a year from the list", [{ field: "year", message: "Choose a year from the list" }]);
  }
  const calendar = new Holidays(country, { languages: ["en"] });
  const seen = new Set<string>();
  const found: { date: string; name: string }[] = [];
  for (const h of calendar.getHolidays(year, "en")) {
    if (h.type !== "public") continue;
    const date = h.date.slice(0, 10);
    if (seen.has(date)) continue;
    seen.add(date);
    found.push({ date, name: h.name });
  }
  return found.sort((a, b) => a.date.localeCompare(b.date));
}
