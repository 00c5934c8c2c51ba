/**
 * The waiting list of a full slot (ADR 036): a visitor may wait for a time only when it is actually full (a free
 * time is booked, not waited for), once per address. When a place frees — a cancellation, a lapsed hold, a
 * booking moved away — the first still waiting is offered it by e-mail (notify.server.ts sends it). The offer
 * holds nothing: it links to the booking page, and whoever books first has the place, as with any free time.
 */
import { Temporal } from "temporal-polyfill";
import { z } from "zod";
import type { Db } from "~db/client";
import { isUniqueViolation } from "~db/client";
import type { Selectable } from "kysely";
import type { BookingWaitlistTable } from "~db/schema/scheduling";
import { isoNow, now as clockNow } from "~/lib/clock.server";
import { conflict, invalid, parseInput } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { profileOf } from "~/modules/sites/profile.server";
import { TimeZone } from "./api";
import { bookingsOf, instantOfStart } from "./bookings.server";
import { hostsOf, rulesOf, servicesOf, type BookingService } from "./services.server";
import { slotsBetween } from "./slots";

export type WaitlistEntry = Selectable<BookingWaitlistTable>;

export const WaitlistInput = z.object({
  service: z.string().min(1, "Name the service by its slug or id").max(80),
  /** The full slot, as the availability or a 409's time named it: an instant with its offset. */
  start: z.string().min(10).max(40),
  timeZone: TimeZone.optional(),
  name: z.string().trim().min(1, "Enter your name").max(120),
  email: z.string().trim().toLowerCase().email("Enter an e-mail address").max(254),
});
export type WaitlistInput = z.input<typeof WaitlistInput>;

export const WaitlistOutput = z.object({
  id: z.string(),
  status: z.enum(["waiting", "offered", "booked", "withdrawn"]),
  service: z.object({ slug: z.string(), name: z.string() }),
  start: z.string(),
  timeZone: z.string(),
  createdAt: z.string(),
});

const stored = (ms: number) => new Date(ms).toISOString();
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The places still free at one start of a service (0 when it is full or not on offer at all). */
export async function seatsLeftAt(db: Db, workspaceId: string, service: BookingService, startMs: number) {
  const at = Temporal.Instant.fromEpochMilliseconds(clockNow().getTime());
  const day = utcDate(startMs);
  const { found } = await bookingsOf(db, workspaceId).availability(
    { service: service.id, from: day, to: day, timeZone: "UTC" },
    { at },
  );
  const slot = found[0]?.slots.find((s) => Date.parse(s.start) === startMs);
  return slot?.seatsLeft ?? 0;
}

export function waitlistOf(db: Db, workspaceId: string) {
  /** Whether any host's grid (bookings ignored) has this start: only a real time can be full. */
  async function onGrid(service: BookingService, startMs: number): Promise<boolean> {
    const at = Temporal.Instant.fromEpochMilliseconds(clockNow().getTime());
    const hosts = hostsOf(db, workspaceId);
    const delivering = await Promise.all(service.hostIds.map((id) => hosts.get(id)));
    return delivering.some((h) => {
      const day = Temporal.Instant.fromEpochMilliseconds(startMs).toZonedDateTimeISO(h.timeZone).toPlainDate();
      const from = day.subtract({ days: 1 }).toString();
      const to = day.add({ days: 1 }).toString();
      return slotsBetween(rulesOf(service, h), from, to, [], at).some((s) => Date.parse(s.start) === startMs);
    });
  }

  return {
    /** Puts a visitor on the list of a full slot; a free one is a 409 that says to book it. */
    async join(
      input: unknown,
      options: { customerId: string | null },
    ): Promise<{ entry: WaitlistEntry; service: BookingService }> {
      const v = parseInput(WaitlistInput, input);
      const service = await servicesOf(db, workspaceId).bookable(v.service);
      const zone = v.timeZone ?? (await profileOf(db, workspaceId).get()).timeZone;
      const startMs = instantOfStart(v.start, zone).epochMilliseconds;
      const field = (message: string) => invalid(message, [{ field: "start", message }]);
      if (startMs <= clockNow().getTime()) throw field("That time has passed: choose a later one");
      if (!(await onGrid(service, startMs))) {
        throw field("That is not a time this service can be booked at: choose one of the times offered");
      }
      if ((await seatsLeftAt(db, workspaceId, service, startMs)) > 0) throw conflict("That time is free: book it");
      const entry: WaitlistEntry = {
        id: newId(),
        workspace_id: workspaceId,
        service_id: service.id,
        start_at: stored(startMs),
        customer_id: options.customerId,
        name: v.name,
        email: v.email,
        visitor_time_zone: zone,
        status: "waiting",
        offered_at: null,
        created_at: isoNow(),
      };
      try {
        await db.insertInto("booking_waitlist").values(entry).execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict("You are already on the waiting list for that time");
        throw error;
      }
      return { entry, service };
    },

    /**
     * Marks the first visitor still waiting for this start as offered it, and answers them (null: nobody
     * waits). The guarded update lets one runner only make a given offer.
     */
    async offerNext(serviceId: string, startAt: string): Promise<WaitlistEntry | null> {
      const candidates = await db
        .selectFrom("booking_waitlist")
        .selectAll()
        .where("workspace_id", "=", workspaceId)
        .where("service_id", "=", serviceId)
        .where("start_at", "=", startAt)
        .where("status", "=", "waiting")
        .orderBy("created_at")
        .orderBy("id")
        .limit(5)
        .execute();
      for (const entry of candidates) {
        const at = isoNow();
        const done = await db
          .updateTable("booking_waitlist")
          .set({ status: "offered", offered_at: at })
          .where("id", "=", entry.id)
          .where("workspace_id", "=", workspaceId)
          .where("status", "=", "waiting")
          .executeTakeFirst();
        if (Number(done.numUpdatedRows) === 1) return { ...entry, status: "offered", offered_at: at };
      }
      return null;
    },
  };
}

export function waitlistView(entry: WaitlistEntry, service: BookingService): z.output<typeof WaitlistOutput> {
  return {
    id: entry.id,
    status: entry.status as z.output<typeof WaitlistOutput>["status"],
    service: { slug: service.slug, name: service.name },
    start: entry.start_at,
    timeZone: entry.visitor_time_zone,
    createdAt: entry.created_at,
  };
}

/** Housekeeping: the lists of times a month past, whose offers nobody can take any more. */
export async function purgePastWaitlist(db: Db): Promise<void> {
  const before = new Date(clockNow().getTime() - 30 * 86_400_000).toISOString();
  await db.deleteFrom("booking_waitlist").where("start_at", "<", before).execute();
}
