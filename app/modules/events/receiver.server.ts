/**
 * The event receiver (issue 15 item 3, ADR 027): `POST /api/webhooks/{family}`, in the order the issue fixes,
 * each step refusing before the next one costs anything:
 *
 * 1. the workspace, named outside the body (`Atrium-Workspace` header or `?workspace=`), and the family (an
 *    unknown family is a 404; an unknown workspace answers as a known one without a matching secret, a 401);
 * 2. the rate limits (per client address, then per named workspace, family and address), then the 256 KB cap
 *    on the body (stream-read) — before any secret is loaded, so a flood costs a counter, not a decryption and
 *    an HMAC per request, and forgeries from one address do not spend a sender's allowance at another;
 * 3. the workspace's secrets for the family (current + rotated within the overlap), or the provider's own;
 * 4. the Standard Webhooks signature over the exact bytes (or the family's own `verify`), then the timestamp
 *    inside the replay window; then the workspace's allowance per family, counted for verified events only
 *    (and, for an authentic sender only, a 403 while the workspace's owner is suspended);
 * 5. (`receiveEvent`) the event id (the `webhook-id` header, or the family's `eventId` from the verified body), claimed for this delivery: a duplicate answers 200 and changes nothing;
 * 6. only then the body, parsed with the family's schema (400 with `issues`), and its `workspace` checked to
 *    be the one named (an event signed for A never touches B: 403);
 * 7. the apply, through the same module function the console calls. A failure answers 500 so the sender retries.
 *
 * Every verified delivery of a known workspace is recorded; unverified refusals at most once a minute per
 * family, client address and reason (a flood is a few rows, not a row per request).
 */
import type { AppLoadContext } from "@remix-run/node";
import { defineGuard } from "~/lib/callers.server";
import type { AppServices } from "~/lib/context";
import { now } from "~/lib/clock.server";
import { conflict, forbidden, invalid, issuesOf, notFound, unauthenticated } from "~/lib/errors";
import { HttpError, asHttpError, readBodyBytes } from "~/lib/http.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { verifyWebhook } from "~/modules/webhooks/standard-webhooks.server";
import type { EventFamily, EventWorkspace } from "./family";
import { receiverEventsOf, type ReceivedEvent } from "./log.server";
import { receiverSecretsOf } from "./secrets.server";

/** The body cap of every family: events describe a change, they do not carry files. */
export const WEBHOOK_BODY_LIMIT = 256 * 1024;

/** The answer for an unknown family (families are public; unknown workspaces answer 401 as a wrong secret). */
export const NO_RECEIVER = "No event receiver at this address for this workspace";
export const INVALID_SIGNATURE = "Invalid signature";
export const STALE_TIMESTAMP = "Timestamp outside the replay window";

/** Why a delivery was refused, as the event log shows it. */
export type RefusalReason =
  | "unknown_family"
  | "rate_limited"
  | "too_large"
  | "missing_headers"
  | "no_secret"
  | "bad_signature"
  | "stale_timestamp"
  | "owner_suspended"
  | "invalid_body"
  | "workspace_mismatch";

const SIGNED_HEADERS = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const;
type SignedHeaders = Record<(typeof SIGNED_HEADERS)[number], string>;

export interface VerifiedEvent {
  workspace: EventWorkspace;
  family: EventFamily;
  eventId: string;
  body: string;
  headers: SignedHeaders;
  contentType: string | null;
}

async function findWorkspace(
  services: AppServices,
  id: string,
): Promise<(EventWorkspace & { ownerStatus: string }) | undefined> {
  // A workspace id is a ULID; anything else is not looked up (and answers as an unknown one).
  if (!/^[0-9A-Za-z]{1,64}$/.test(id)) return undefined;
  const row = await services.db
    .selectFrom("workspaces")
    .innerJoin("users", "users.id", "workspaces.owner_user_id")
    .select(["workspaces.id", "workspaces.slug", "users.status as ownerStatus"])
    .where("workspaces.id", "=", id)
    .executeTakeFirst();
  return row;
}

/**
 * How much of a refused body is kept: enough to tell what a sender meant, not 256 KB per forged request (an
 * unauthenticated sender who knows a workspace id could otherwise fill the log at the rate limit's pace).
 */
const REFUSED_BODY_KEPT = 4096;

/**
 * The provider guard of /api/webhooks/*: steps 1 to 4. Returns the verified delivery; refuses (and records) the
 * rest. `familyPath` is the splat after `/api/webhooks/`.
 */
export const requireSignedEvent = defineGuard(
  "provider",
  async function requireSignedEvent(
    request: Request,
    context: AppLoadContext,
    familyPath: string,
  ): Promise<VerifiedEvent> {
    const { services } = context;
    const { env, webhookThrottle, logger } = services;
    const ip = context.request.ip;

    const named = (
      request.headers.get("atrium-workspace") ??
      new URL(request.url).searchParams.get("workspace") ??
      ""
    ).trim();
    if (!named) {
      throw invalid("Name the workspace with the Atrium-Workspace header or ?workspace=", [
        { field: "workspace", message: "Required" },
      ]);
    }
    // Per address first, whatever is named: unknown workspaces and families are counted too, so a flood of them
    // costs a counter, not a database lookup each.
    await webhookThrottle.takeAddress(ip);

    const headers = Object.fromEntries(
      SIGNED_HEADERS.map((name) => [name, request.headers.get(name) ?? ""]),
    ) as SignedHeaders;
    const delivery = (family: string, body = ""): ReceivedEvent => ({
      family,
      eventId: headers["webhook-id"].slice(0, 200),
      body: body.slice(0, REFUSED_BODY_KEPT),
      headers,
      verified: false,
    });
    const found = await findWorkspace(services, named);
    const workspace: EventWorkspace | undefined = found && { id: found.id, slug: found.slug };
    /**
     * Records an unverified refusal for a known workspace, once a minute per family, address and reason: a
     * flood of forged requests is a handful of rows, not a write per request.
     */
    const note = async (family: string, reason: RefusalReason, body = "") => {
      if (!workspace) return;
      if (await webhookThrottle.shouldRecordRefusal(workspace.id, family, ip, reason)) {
        await receiverEventsOf(services.db, workspace.id).note(delivery(family, body), "refused", reason);
      }
    };

    const family = services.eventFamilies.get(familyPath);
    if (!family) {
      // Families are public (the README, /api/openapi.json): the same 404 whether the workspace exists or not.
      // Only a name that could be a family is kept.
      await note(/^[a-z0-9/-]{1,64}$/.test(familyPath) ? familyPath : "(invalid)", "unknown_family");
      throw notFound(NO_RECEIVER);
    }

    // The issue's limit before the secret, per address: forgeries from one address cannot starve a sender at
    // another. Keyed by the name as given (any well-formed id, known or not), so a known workspace and an
    // unknown one are limited alike.
    const nameKey = /^[0-9A-Za-z]{1,64}$/.test(named) ? named : "(invalid)";
    try {
      await webhookThrottle.takeUnverified(nameKey, family.family, ip);
    } catch (error) {
      await note(family.family, "rate_limited");
      throw error;
    }

    let bytes: Buffer;
    try {
      bytes = await readBodyBytes(request, WEBHOOK_BODY_LIMIT);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 413) await note(family.family, "too_large");
      throw error;
    }
    const body = bytes.toString("utf8");
    const refuse = async (reason: RefusalReason, message = INVALID_SIGNATURE): Promise<never> => {
      await note(family.family, reason, body);
      throw unauthenticated(message, 'Standard-Webhooks realm="atrium"');
    };

    // An unknown workspace answers exactly as a known one without a matching secret (401, after the body was
    // read under the cap): the receiver is no oracle of which workspaces exist. (Ids are not secret anyway —
    // pages' Cache-Tag carries them — but the answer need not confirm one.)
    if (!found || !workspace) return refuse("no_secret");
    if (!family.verify && SIGNED_HEADERS.some((name) => !headers[name])) return refuse("missing_headers");
    let secrets: string[];
    try {
      secrets = family.secret
        ? await family.secret(services, workspace.id)
        : await receiverSecretsOf(services, workspace.id).activeSecrets(family.family);
    } catch (error) {
      logger.error(
        { err: error, family: family.family },
        "an event receiver's secret does not open: is APP_KEY right?",
      );
      secrets = [];
    }
    if (secrets.length === 0) return refuse("no_secret");

    const nowSeconds = Math.floor(now().getTime() / 1000);
    const tolerance = env.WEBHOOKS_TOLERANCE_SECONDS;
    let verdict: boolean | "stale";
    if (family.verify) {
      try {
        verdict = await family.verify(request.headers, bytes, secrets, nowSeconds, tolerance, services);
      } catch {
        verdict = false;
      }
    } else {
      // The signature first (tolerance 0 around the event's own timestamp), over the exact bytes received, then
      // the window: a forged request learns nothing about the window, and the log tells a wrong secret from a
      // late delivery.
      const timestamp = Number(headers["webhook-timestamp"]);
      const signed = secrets.some((secret) => {
        try {
          return verifyWebhook(secret, headers, bytes, timestamp, 0);
        } catch {
          return false;
        }
      });
      verdict = !signed ? false : Math.abs(nowSeconds - timestamp) > tolerance ? "stale" : true;
    }
    if (verdict === false) return refuse("bad_signature");
    if (verdict === "stale") return refuse("stale_timestamp", STALE_TIMESTAMP);

    const log = receiverEventsOf(services.db, workspace.id);
    // The workspace's own allowance, spent only by senders that hold its secret.
    try {
      await webhookThrottle.takeVerified(workspace.id, family.family);
    } catch (error) {
      if (await webhookThrottle.shouldRecordRefusal(workspace.id, family.family, ip, "rate_limited:verified")) {
        await log.note({ ...delivery(family.family, body), verified: true }, "refused", "rate_limited");
      }
      throw error;
    }
    // The workspace's owner is suspended: the spec's 403 for a suspended account, as for SOP triggers. Only an
    // authentic sender learns it.
    if (found.ownerStatus !== "active") {
      await log.note(delivery(family.family, body), "refused", "owner_suspended");
      throw forbidden();
    }

    let eventId = headers["webhook-id"];
    if (family.eventId) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = undefined;
      }
      eventId = family.eventId(parsed, request.headers)?.trim() ?? "";
      if (!eventId) {
        await log.note(delivery(family.family, body), "refused", "invalid_body");
        throw invalid(`The body is not a ${family.family} event`, [{ field: "id", message: "Required" }]);
      }
    }

    return {
      workspace,
      family,
      eventId: eventId.slice(0, 200),
      body,
      headers,
      contentType: request.headers.get("content-type"),
    };
  },
);

export interface Receipt {
  eventId: string;
  status: "applied" | "duplicate";
  duplicate: boolean;
}

/** Steps 6 and 7 for an event this delivery owns (or a replay): parse, check the workspace, apply, record. */
async function parseAndApply(
  services: AppServices,
  workspace: EventWorkspace,
  family: EventFamily,
  rowId: string,
  body: string,
): Promise<void> {
  const log = receiverEventsOf(services.db, workspace.id);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    await log.settle(rowId, { status: "refused", reason: "invalid_body: not JSON" });
    throw new HttpError(400, "The request body is not valid JSON");
  }
  const parsed = family.schema.safeParse(value);
  const eventType =
    typeof (value as { type?: unknown })?.type === "string"
      ? String((value as { type: string }).type).slice(0, 100)
      : null;
  if (!parsed.success) {
    const issues = issuesOf(parsed.error);
    await log.settle(rowId, {
      status: "refused",
      eventType,
      reason: `invalid_body: ${issues.map((i) => `${i.field || "body"}: ${i.message}`).join("; ")}`.slice(0, 500),
    });
    throw invalid(`The body is not a ${family.family} event`, issues);
  }
  const unnamed = family.signedForOneWorkspace && parsed.data.workspace === "";
  if (parsed.data.workspace !== workspace.id && !unnamed) {
    await log.settle(rowId, { status: "refused", eventType, reason: "workspace_mismatch" });
    throw forbidden("This event was signed for another workspace than the one named");
  }
  try {
    await family.apply(services, workspace, parsed.data);
  } catch (error) {
    const known = asHttpError(error);
    if (known && known.statusCode < 500) {
      await log.settle(rowId, {
        status: "refused",
        eventType,
        reason: `${known.statusCode}: ${known.message}`.slice(0, 500),
      });
      throw error;
    }
    const message = error instanceof Error ? error.message : String(error);
    await log.settle(rowId, { status: "failed", eventType, reason: message.slice(0, 500) });
    services.logger.error({ err: error, family: family.family, workspace: workspace.id }, "an event failed to apply");
    if (known) throw error;
    throw new HttpError(500, "The event could not be applied; it is recorded, and a retry will apply it");
  }
  await log.settle(rowId, { status: "applied", eventType });
}

/** Steps 5 to 7 for a verified delivery. */
export async function receiveEvent(services: AppServices, event: VerifiedEvent): Promise<Receipt> {
  const log = receiverEventsOf(services.db, event.workspace.id);
  const delivery: ReceivedEvent = {
    family: event.family.family,
    eventId: event.eventId,
    body: event.body,
    headers: event.headers,
    verified: true,
  };
  const claim = await log.claim(delivery);
  if (claim.kind === "taken") {
    await log.note(delivery, "duplicate", claim.status === "received" ? "being applied" : `already ${claim.status}`);
    if (claim.status === "received") {
      // Still being applied by another delivery: its outcome is not known yet, so this one is not "done".
      throw new HttpError(409, "This event is being applied; retry later", { retryAfter: 5 });
    }
    return { eventId: event.eventId, status: "duplicate", duplicate: true };
  }
  await parseAndApply(services, event.workspace, event.family, claim.id, event.body);
  return { eventId: event.eventId, status: "applied", duplicate: false };
}

/**
 * The console's Replay: applies a recorded, verified event again (one that was applied or failed; never a
 * refused one), records the outcome on its row and audits who replayed it.
 */
export async function replayEvent(
  services: AppServices,
  workspace: EventWorkspace,
  rowId: string,
  actor: { userId: string; ip: string | null },
): Promise<void> {
  const log = receiverEventsOf(services.db, workspace.id);
  const entry = await log.get(rowId);
  if (!entry) throw notFound("No such event in this workspace");
  if (!entry.verified || (entry.status !== "applied" && entry.status !== "failed")) {
    throw conflict("Only a verified event that was applied or failed can be replayed");
  }
  const family = services.eventFamilies.get(entry.family);
  if (!family) throw conflict("This event's family is no longer received");
  await log.countReplay(rowId);
  await recordWorkspaceEvent(services.db, workspace.id, {
    action: "webhooks.event.replayed",
    actorUserId: actor.userId,
    ip: actor.ip,
    detail: { family: entry.family, eventId: entry.eventId, row: rowId },
  });
  await parseAndApply(services, workspace, family, rowId, entry.body);
}
