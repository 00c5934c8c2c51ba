/**
 * Bookable services and the hosts who deliver them (issue 19, ADR 036), workspace-scoped: the console, the
 * editor API, the public pages and the customer API all go through these functions.
 */
import { writeAndPurge } from "~/modules/cache/purge.server";
import { cacheTags } from "~/modules/cache/tags";
import type { BookingHostRow, BookingServiceRow } from "~db/schema/scheduling";
import type { Db } from "~db/client";
import { isoNow } from "~/lib/clock.server";
import { conflict, invalid, notFound, parseInput } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { slugify } from "~/lib/slug";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { profileOf } from "~/modules/sites/profile.server";
import {
  HostInput,
  ServiceInput,
  type BookingQuestion,
  type LOCATION_KINDS,
  type SERVICE_STATUSES,
  type HOST_KINDS,
} from "./api";
import type { DateOverride, SlotRules, WeeklyRule } from "./slots";

export interface BookingService {
  id: string;
  slug: string;
  name: string;
  description: string;
  durationMinutes: number;
  intervalMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  noticeMinutes: number;
  windowDays: number;
  capacity: number;
  price: number;
  deposit: number;
  currency: string;
  locationKind: (typeof LOCATION_KINDS)[number];
  locationDetail: string;
  questions: BookingQuestion[];
  cancelNoticeMinutes: number;
  rescheduleNoticeMinutes: number;
  requiresApproval: boolean;
  holdMinutes: number;
  reminderHours: number;
  followUpHours: number;
  status: (typeof SERVICE_STATUSES)[number];
  hostIds: string[];
  createdAt: string;
  updatedAt: string;
}

export interface BookingHost {
  id: string;
  kind: (typeof HOST_KINDS)[number];
  name: string;
  userId: string | null;
  timeZone: string;
  weekly: WeeklyRule[];
  overrides: (DateOverride & { label?: string })[];
  hasFeed: boolean;
  updatedAt: string;
}

function toService(row: BookingServiceRow, hostIds: string[]): BookingService {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    durationMinutes: row.duration_minutes,
    intervalMinutes: row.interval_minutes,
    bufferBeforeMinutes: row.buffer_before_minutes,
    bufferAfterMinutes: row.buffer_after_minutes,
    noticeMinutes: row.notice_minutes,
    windowDays: row.window_days,
    capacity: row.capacity,
    price: row.price,
    deposit: row.deposit,
    currency: row.currency,
    locationKind: row.location_kind as BookingService["locationKind"],
    locationDetail: row.location_detail,
    questions: JSON.parse(row.questions) as BookingQuestion[],
    cancelNoticeMinutes: row.cancel_notice_minutes,
    rescheduleNoticeMinutes: row.reschedule_notice_minutes,
    requiresApproval: row.requires_approval === 1,
    holdMinutes: row.hold_minutes,
    reminderHours: row.reminder_hours,
    followUpHours: row.follow_up_hours,
    status: row.status as BookingService["status"],
    hostIds,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toHost(row: BookingHostRow): BookingHost {
  return {
    id: row.id,
    kind: row.kind as BookingHost["kind"],
    name: row.name,
    userId: row.user_id,
    timeZone: row.time_zone,
    weekly: JSON.parse(row.weekly) as WeeklyRule[],
    overrides: JSON.parse(row.overrides) as BookingHost["overrides"],
    hasFeed: row.feed_token_hash !== null,
    updatedAt: row.updated_at,
  };
}

/** The rules `slotsBetween` reads for one service delivered by one host. */
export function rulesOf(service: BookingService, host: BookingHost): SlotRules {
  return {
    timeZone: host.timeZone,
    weekly: host.weekly,
    overrides: host.overrides,
    durationMinutes: service.durationMinutes,
    intervalMinutes: service.intervalMinutes,
    bufferBeforeMinutes: service.bufferBeforeMinutes,
    bufferAfterMinutes: service.bufferAfterMinutes,
    noticeMinutes: service.noticeMinutes,
    windowDays: service.windowDays,
    capacity: service.capacity,
    pool: service.id,
  };
}

export function hostsOf(db: Db, workspaceId: string) {
  const rows = () => db.selectFrom("booking_hosts").where("workspace_id", "=", workspaceId);
  return {
    async list(): Promise<BookingHost[]> {
      const found = await rows().selectAll().where("status", "=", "active").orderBy("name").orderBy("id").execute();
      return found.map(toHost);
    },

    async get(id: string): Promise<BookingHost> {
      const row = await rows().selectAll().where("id", "=", id).executeTakeFirst();
      if (!row) throw notFound("No such staff member or resource");
      return toHost(row);
    },

    async create(actorUserId: string | null, input: unknown): Promise<BookingHost> {
      const v = parseInput(HostInput, input);
      await this.assertMember(v.userId ?? null);
      const at = isoNow();
      const id = newId();
      await writeAndPurge(db, async (trx, purge) => {
        purge(cacheTags.bookings(workspaceId));
        await trx
          .insertInto("booking_hosts")
          .values({
            id,
            workspace_id: workspaceId,
            kind: v.kind,
            name: v.name,
            user_id: v.userId ?? null,
            time_zone: v.timeZone,
            weekly: JSON.stringify(v.weekly),
            overrides: JSON.stringify([...v.overrides].sort((a, b) => a.date.localeCompare(b.date))),
            lock_seq: 0,
            feed_token_hash: null,
            status: "active",
            created_at: at,
            updated_at: at,
          })
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "scheduling.host.created",
          actorUserId,
          detail: { id, name: v.name },
        });
      });
      return this.get(id);
    },

    /** Replaces a host's name, zone, weekly hours and dated exceptions. */
    async update(actorUserId: string | null, id: string, input: unknown): Promise<BookingHost> {
      const v = parseInput(HostInput, input);
      await this.get(id);
      await this.assertMember(v.userId ?? null);
      await writeAndPurge(db, async (trx, purge) => {
        purge(cacheTags.bookings(workspaceId));
        await trx
          .updateTable("booking_hosts")
          .set({
            kind: v.kind,
            name: v.name,
            user_id: v.userId ?? null,
            time_zone: v.timeZone,
            weekly: JSON.stringify(v.weekly),
            overrides: JSON.stringify([...v.overrides].sort((a, b) => a.date.localeCompare(b.date))),
            updated_at: isoNow(),
          })
          .where("id", "=", id)
          .where("workspace_id", "=", workspaceId)
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "scheduling.host.updated",
          actorUserId,
          detail: { id, name: v.name },
        });
      });
      return this.get(id);
    },

    /** Closes a host on these dates (no hours), replacing any exception already on them and keeping the rest. */
    async close(
      actorUserId: string | null,
      id: string,
      dates: { date: string; label?: string }[],
    ): Promise<BookingHost> {
      const host = await this.get(id);
      const closing = new Map(dates.map((d) => [d.date, { date: d.date, ranges: [], label: d.label ?? "" }]));
      const kept = host.overrides.filter((o) => !closing.has(o.date));
      return this.update(actorUserId, id, {
        name: host.name,
        kind: host.kind,
        userId: host.userId,
        timeZone: host.timeZone,
        weekly: host.weekly,
        overrides: [...kept, ...closing.values()].map((o) => ({
          date: o.date,
          ranges: o.ranges,
          label: o.label ?? "",
        })),
      });
    },

    async assertMember(userId: string | null): Promise<void> {
      if (!userId) return;
      const member = await db
        .selectFrom("workspace_members")
        .select("user_id")
        .where("workspace_id", "=", workspaceId)
        .where("user_id", "=", userId)
        .executeTakeFirst();
      if (!member) throw invalid("Choose a member of this workspace", [{ field: "userId", message: "Not a member" }]);
    },
  };
}

export function servicesOf(db: Db, workspaceId: string) {
  const rows = () => db.selectFrom("booking_services").where("workspace_id", "=", workspaceId);

  async function withHosts(found: BookingServiceRow[]): Promise<BookingService[]> {
    if (found.length === 0) return [];
    const links = await db
      .selectFrom("booking_service_hosts")
      .innerJoin("booking_hosts", "booking_hosts.id", "booking_service_hosts.host_id")
      .select(["booking_service_hosts.service_id", "booking_service_hosts.host_id"])
      .where(
        "booking_service_hosts.service_id",
        "in",
        found.map((s) => s.id),
      )
      .where("booking_hosts.status", "=", "active")
      .orderBy("booking_hosts.name")
      .orderBy("booking_hosts.id")
      .execute();
    return found.map((row) =>
      toService(
        row,
        links.filter((l) => l.service_id === row.id).map((l) => l.host_id),
      ),
    );
  }

  async function validHosts(hostIds: string[]): Promise<string[]> {
    const unique = [...new Set(hostIds)];
    const found = await db
      .selectFrom("booking_hosts")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .where("status", "=", "active")
      .where("id", "in", unique)
      .execute();
    if (found.length !== unique.length) {
      throw invalid("Check the highlighted fields", [
        { field: "hostIds", message: "Choose staff members or resources of this workspace" },
      ]);
    }
    return unique;
  }

  async function uniqueSlug(wanted: string, exceptId: string | null): Promise<string> {
    const taken = await rows().select("id").where("slug", "=", wanted).executeTakeFirst();
    if (taken && taken.id !== exceptId) {
      throw conflict("Another service already has that address", [
        { field: "slug", message: "Another service already has that address" },
      ]);
    }
    return wanted;
  }

  return {
    async list(filter: { status?: BookingService["status"] } = {}): Promise<BookingService[]> {
      let q = rows().selectAll();
      q = filter.status ? q.where("status", "=", filter.status) : q.where("status", "!=", "archived");
      return withHosts(await q.orderBy("name").orderBy("id").execute());
    },

    async get(id: string): Promise<BookingService> {
      const row = await rows().selectAll().where("id", "=", id).executeTakeFirst();
      if (!row) throw notFound("No such service");
      return (await withHosts([row]))[0]!;
    },

    /** An active service by slug or id, as the public site and the customer API name it. */
    async bookable(slugOrId: string): Promise<BookingService> {
      const row = await rows()
        .selectAll()
        .where((eb) => eb.or([eb("slug", "=", slugOrId), eb("id", "=", slugOrId)]))
        .where("status", "=", "active")
        .executeTakeFirst();
      if (!row) throw notFound("No such service on this site");
      return (await withHosts([row]))[0]!;
    },

    async create(actorUserId: string | null, input: unknown): Promise<BookingService> {
      const v = parseInput(ServiceInput, input);
      const hostIds = await validHosts(v.hostIds);
      const slug = await uniqueSlug(v.slug ?? slugify(v.name, "service"), null);
      const { currency } = await profileOf(db, workspaceId).get();
      const id = newId();
      const at = isoNow();
      await writeAndPurge(db, async (trx, purge) => {
        purge(cacheTags.bookings(workspaceId));
        await trx
          .insertInto("booking_services")
          .values({ id, workspace_id: workspaceId, slug, ...columnsOf(v), currency, created_at: at, updated_at: at })
          .execute();
        await trx
          .insertInto("booking_service_hosts")
          .values(hostIds.map((host_id) => ({ service_id: id, host_id })))
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "scheduling.service.created",
          actorUserId,
          detail: { id, name: v.name },
        });
      });
      return this.get(id);
    },

    async update(actorUserId: string | null, id: string, input: unknown): Promise<BookingService> {
      const existing = await this.get(id);
      const v = parseInput(ServiceInput, input);
      const hostIds = await validHosts(v.hostIds);
      const slug = await uniqueSlug(v.slug ?? existing.slug, id);
      await writeAndPurge(db, async (trx, purge) => {
        purge(cacheTags.bookings(workspaceId));
        await trx
          .updateTable("booking_services")
          .set({ slug, ...columnsOf(v), updated_at: isoNow() })
          .where("id", "=", id)
          .where("workspace_id", "=", workspaceId)
          .execute();
        await trx.deleteFrom("booking_service_hosts").where("service_id", "=", id).execute();
        await trx
          .insertInto("booking_service_hosts")
          .values(hostIds.map((host_id) => ({ service_id: id, host_id })))
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "scheduling.service.updated",
          actorUserId,
          detail: { id, name: v.name },
        });
      });
      return this.get(id);
    },

    count: async (status: BookingService["status"]) =>
      Number(
        (
          await rows()
            .select((eb) => eb.fn.countAll().as("n"))
            .where("status", "=", status)
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
}

function columnsOf(v: ReturnType<typeof ServiceInput.parse>) {
  return {
    name: v.name,
    description: v.description,
    duration_minutes: v.durationMinutes,
    interval_minutes: v.intervalMinutes ?? v.durationMinutes,
    buffer_before_minutes: v.bufferBeforeMinutes,
    buffer_after_minutes: v.bufferAfterMinutes,
    notice_minutes: v.noticeMinutes,
    window_days: v.windowDays,
    capacity: v.capacity,
    price: v.price,
    deposit: v.deposit,
    location_kind: v.locationKind,
    location_detail: v.locationDetail,
    questions: JSON.stringify(v.questions),
    cancel_notice_minutes: v.cancelNoticeMinutes,
    reschedule_notice_minutes: v.rescheduleNoticeMinutes,
    requires_approval: v.requiresApproval ? 1 : 0,
    hold_minutes: v.holdMinutes,
    reminder_hours: v.reminderHours,
    follow_up_hours: v.followUpHours,
    status: v.status,
  };
}
