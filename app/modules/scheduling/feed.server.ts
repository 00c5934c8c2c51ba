/**
 * A host's iCalendar feed (ADR 036): an address with a secret in it that a staff member subscribes to from
 * Google Calendar, Apple Calendar or Outlook, which fetch it with no session, so the secret is the credential.
 * It is stored as its SHA-256 only (DESIGN rule 4) and shown once when made; rotating replaces it, revoking
 * removes it, and either way the old address answers 404 from then on.
 *
 * Staff calendars are synced to third parties, so the feed names the booker and the service and nothing that
 * reaches the customer (no e-mail, no phone, no answers or notes).
 */
import type { Db } from "~db/client";
import { isoNow, now } from "~/lib/clock.server";
import { notFound } from "~/lib/errors";
import { sha256Base64url } from "~/lib/hash.server";
import { newSecret } from "~/lib/ids.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { renderCalendar, type IcsEvent } from "./ics";
import { bookingUid } from "./notify.server";

const DAY_MS = 86_400_000;
/** What a feed covers: recent history for context, and the year ahead. */
export const FEED_PAST_DAYS = 30;
export const FEED_FUTURE_DAYS = 365;

/** The path of a host's feed for a secret; the console puts the deployment's origin in front. */
export const feedPath = (secret: string) => `/api/bookings/feed/${secret}.ics`;

export function hostFeedsOf(db: Db, workspaceId: string) {
  async function setHash(actorUserId: string | null, hostId: string, hash: string | null, action: string) {
    return db.transaction().execute(async (trx) => {
      const done = await trx
        .updateTable("booking_hosts")
        .set({ feed_token_hash: hash, updated_at: isoNow() })
        .where("id", "=", hostId)
        .where("workspace_id", "=", workspaceId)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) === 0) throw notFound("No such staff member or resource");
      await recordWorkspaceEvent(trx, workspaceId, { action, actorUserId, detail: { id: hostId } });
    });
  }

  return {
    /**
     * Makes the host's feed address (replacing any it had): answers the secret and its path, shown this once.
     * Rotating is the same act: the previous address stops working at once.
     */
    async create(actorUserId: string | null, hostId: string): Promise<{ secret: string; path: string }> {
      const secret = newSecret();
      await setHash(actorUserId, hostId, sha256Base64url(secret), "scheduling.feed.created");
      return { secret, path: feedPath(secret) };
    },

    async rotate(actorUserId: string | null, hostId: string): Promise<{ secret: string; path: string }> {
      const secret = newSecret();
      await setHash(actorUserId, hostId, sha256Base64url(secret), "scheduling.feed.rotated");
      return { secret, path: feedPath(secret) };
    },

    async revoke(actorUserId: string | null, hostId: string): Promise<void> {
      await setHash(actorUserId, hostId, null, "scheduling.feed.revoked");
    },
  };
}

/**
 * The calendar text of the feed a secret opens, or undefined for an unknown or revoked one. The secret alone
 * names its workspace (as a manage token does); the lookup is by its hash, an indexed equality on a value an
 * attacker cannot choose, so it leaks nothing by timing.
 */
export async function feedOfSecret(db: Db, secret: string): Promise<string | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(secret)) return undefined;
  const host = await db
    .selectFrom("booking_hosts")
    .select(["id", "workspace_id", "name"])
    .where("feed_token_hash", "=", sha256Base64url(secret))
    .where("status", "=", "active")
    .executeTakeFirst();
  if (!host) return undefined;
  const workspace = await db
    .selectFrom("workspaces")
    .select("name")
    .where("id", "=", host.workspace_id)
    .executeTakeFirst();
  if (!workspace) return undefined;
  const at = now().getTime();
  const rows = await db
    .selectFrom("bookings")
    .innerJoin("booking_services", "booking_services.id", "bookings.service_id")
    .select([
      "bookings.id",
      "bookings.status",
      "bookings.start_at",
      "bookings.end_at",
      "bookings.updated_at",
      "bookings.created_at",
      "bookings.name",
      "bookings.seats",
      "booking_services.name as service_name",
      "booking_services.location_detail",
    ])
    .where("bookings.workspace_id", "=", host.workspace_id)
    .where("bookings.host_id", "=", host.id)
    .where("bookings.status", "in", ["pending", "confirmed"])
    .where("bookings.end_at", ">", new Date(at - FEED_PAST_DAYS * DAY_MS).toISOString())
    .where("bookings.start_at", "<", new Date(at + FEED_FUTURE_DAYS * DAY_MS).toISOString())
    .orderBy("bookings.start_at")
    .orderBy("bookings.id")
    .limit(5000)
    .execute();
  const events = rows.map((b): IcsEvent => ({
    uid: bookingUid(b.id),
    // A feed is re-read whole: the change time orders versions for clients that compare SEQUENCE.
    sequence: Math.floor((Date.parse(b.updated_at) - Date.parse(b.created_at)) / 1000),
    start: b.start_at,
    end: b.end_at,
    stamp: b.updated_at,
    summary: `${b.service_name}: ${b.name}${b.seats > 1 ? ` (${b.seats} places)` : ""}`,
    ...(b.location_detail ? { location: b.location_detail } : {}),
    status: b.status === "pending" ? "TENTATIVE" : "CONFIRMED",
  }));
  return renderCalendar({ method: "PUBLISH", name: `${host.name} — ${workspace.name}`, events });
}
