/**
 * The record of every event a workspace's receivers were sent (ADR 027): applied, duplicate, refused with its
 * reason, failed. The delivery that owns an event id holds it in a partial unique index (received, applied,
 * failed), claimed before the apply: that is what makes a duplicate change nothing, even when two copies arrive
 * at once. A failed event's id can be claimed again by a retry; a claim left by a process that died is retried
 * once it is older than `STALE_CLAIM_MS`.
 */
import type { Db } from "~db/client";
import { isUniqueViolation } from "~db/client";
import type { ReceiverEventStatus } from "~db/schema";
import { isoNow, now } from "~/lib/clock.server";
import { newId } from "~/lib/ids.server";

/** A claim older than this was left by a process that stopped mid-apply: the next delivery may take it over. */
export const STALE_CLAIM_MS = 5 * 60_000;
export const EVENTS_KEPT_DAYS = 30;

export interface ReceivedEvent {
  family: string;
  eventId: string;
  body: string;
  headers: Record<string, string>;
  verified: boolean;
}

export interface EventLogEntry {
  id: string;
  family: string;
  eventId: string;
  eventType: string | null;
  status: ReceiverEventStatus;
  reason: string | null;
  receivedAt: string;
  appliedAt: string | null;
  verified: boolean;
  replays: number;
  body: string;
  headers: Record<string, string>;
}

export type Claim =
  | { kind: "claimed"; id: string }
  /** Another delivery holds the id: applied already (a duplicate), or being applied right now. */
  | { kind: "taken"; status: ReceiverEventStatus };

export function receiverEventsOf(db: Db, workspaceId: string) {
  const rows = () => db.selectFrom("webhook_receiver_events").where("workspace_id", "=", workspaceId);
  const update = () => db.updateTable("webhook_receiver_events").where("workspace_id", "=", workspaceId);
  const values = (event: ReceivedEvent, status: ReceiverEventStatus, reason: string | null) => ({
    id: newId(),
    workspace_id: workspaceId,
    family: event.family,
    event_id: event.eventId,
    status,
    reason,
    event_type: null,
    received_at: isoNow(),
    applied_at: null,
    body: event.body,
    headers: JSON.stringify(event.headers),
    verified: event.verified ? 1 : 0,
    replays: 0,
  });

  return {
    /** Records a delivery that was refused, or a duplicate, beside the one that owns the id. */
    async note(event: ReceivedEvent, status: "refused" | "duplicate", reason: string): Promise<void> {
      await db
        .insertInto("webhook_receiver_events")
        .values(values(event, status, reason))
        .execute();
    },

    /**
     * Claims the event id for this delivery: a new id, a failed one (the sender's retry) or a stale claim. Else
     * the id is taken, and the caller answers a duplicate (or asks to retry later when it is still in flight).
     */
    async claim(event: ReceivedEvent): Promise<Claim> {
      for (let attempt = 0; attempt < 3; attempt++) {
        const held = await rows()
          .select(["id", "status", "received_at"])
          .where("family", "=", event.family)
          .where("event_id", "=", event.eventId)
          .where("status", "in", ["received", "applied", "failed"])
          .executeTakeFirst();
        if (!held) {
          try {
            const row = values(event, "received", null);
            await db.insertInto("webhook_receiver_events").values(row).execute();
            return { kind: "claimed", id: row.id };
          } catch (error) {
            if (isUniqueViolation(error)) continue; // another copy claimed it between our read and insert
            throw error;
          }
        }
        const stale = new Date(now().getTime() - STALE_CLAIM_MS).toISOString();
        const retryable = held.status === "failed" || (held.status === "received" && held.received_at < stale);
        if (!retryable) return { kind: "taken", status: held.status };
        // Only one retry wins the row: the update is conditional on the state we read.
        const taken = await update()
          .set({
            status: "received",
            reason: null,
            received_at: isoNow(),
            body: event.body,
            headers: JSON.stringify(event.headers),
          })
          .where("id", "=", held.id)
          .where("status", "=", held.status)
          .where("received_at", "=", held.received_at)
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) === 1) return { kind: "claimed", id: held.id };
      }
      return { kind: "taken", status: "received" };
    },

    /** The outcome of a claimed (or replayed) delivery. */
    async settle(
      id: string,
      outcome: { status: "applied" | "failed" | "refused"; reason?: string; eventType?: string | null },
    ): Promise<void> {
      await update()
        .set({
          status: outcome.status,
          reason: outcome.reason ?? null,
          ...(outcome.eventType !== undefined ? { event_type: outcome.eventType } : {}),
          ...(outcome.status === "applied" ? { applied_at: isoNow() } : {}),
        })
        .where("id", "=", id)
        .execute();
    },

    /** A replay from the console: counted on the event's row, whatever its outcome. */
    async countReplay(id: string): Promise<void> {
      const row = await rows().select("replays").where("id", "=", id).executeTakeFirst();
      await update()
        .set({ replays: (row?.replays ?? 0) + 1 })
        .where("id", "=", id)
        .execute();
    },

    async get(id: string): Promise<EventLogEntry | undefined> {
      const row = await rows().selectAll().where("id", "=", id).executeTakeFirst();
      return row && toEntry(row);
    },

    /** Newest first, by family and status when given. */
    async list(filter: {
      family?: string;
      status?: ReceiverEventStatus;
      size: number;
      offset: number;
    }): Promise<{ events: EventLogEntry[]; total: number }> {
      let query = rows();
      if (filter.family) query = query.where("family", "=", filter.family);
      if (filter.status) query = query.where("status", "=", filter.status);
      const [found, count] = await Promise.all([
        query
          .selectAll()
          .orderBy("received_at", "desc")
          .orderBy("id", "desc")
          .limit(filter.size)
          .offset(filter.offset)
          .execute(),
        query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst(),
      ]);
      return { events: found.map(toEntry), total: Number(count?.n ?? 0) };
    },
  };
}

function toEntry(row: {
  id: string;
  family: string;
  event_id: string;
  event_type: string | null;
  status: ReceiverEventStatus;
  reason: string | null;
  received_at: string;
  applied_at: string | null;
  verified: number;
  replays: number;
  body: string;
  headers: string;
}): EventLogEntry {
  return {
    id: row.id,
    family: row.family,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    reason: row.reason,
    receivedAt: row.received_at,
    appliedAt: row.applied_at,
    verified: row.verified === 1,
    replays: row.replays,
    body: row.body,
    headers: JSON.parse(row.headers) as Record<string, string>,
  };
}

/** Maintenance: the record is kept 30 days. */
export async function pruneReceiverEvents(db: Db): Promise<void> {
  const before = new Date(now().getTime() - EVENTS_KEPT_DAYS * 86_400_000).toISOString();
  await db.deleteFrom("webhook_receiver_events").where("received_at", "<", before).execute();
}
