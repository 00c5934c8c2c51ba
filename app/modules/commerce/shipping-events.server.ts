/**
 * `/api/webhooks/shipping/provider` (ADR 027, 034): the shipping provider's label and tracking events, through
 * the receiver framework — its rate limits, body cap, event log and duplicate check. EasyPost signs each event
 * with `X-Hmac-Signature` (HMAC-SHA256 of the body with the webhook's secret), checked by the official client's
 * `validateWebhook` against the secret of the workspace named in the webhook's address (`?workspace=`), which
 * only that workspace's connection holds: a verified event is that workspace's, and a tracker of another
 * workspace's package finds nothing here (404, recorded as refused).
 *
 * EasyPost's signature carries no time, so a replay is caught by its event id (the event log) and, past the log's
 * memory, changes nothing: a package's tracking moves only on a report newer than the one it has.
 */
import EasyPostClient from "@easypost/api";
import type { ITracker } from "@easypost/api";
import { z } from "zod";
import { defineEventFamily } from "~/modules/events/family";
import { paymentConnectionsOf } from "./connections.server";
import type { EasyPostCredentials } from "./easypost.server";
import { trackingOf } from "./easypost.server";
import { shipmentsOf } from "./shipments.server";

// validateWebhook is the client's own and needs no key of a workspace; the client insists on one.
const verifier = new EasyPostClient("signature-check-only");

export function verifyEasyPostSignature(header: string, raw: Buffer, secrets: string[]): boolean {
  return secrets.some((secret) => {
    try {
      verifier.Utils.validateWebhook(raw, { "x-hmac-signature": header }, secret);
      return true;
    } catch {
      return false;
    }
  });
}

const EasyPostEvent = z
  .object({
    id: z.string().min(1).max(255),
    object: z.literal("Event"),
    description: z.string().min(1).max(100),
    result: z
      .object({
        id: z.string().max(255),
        object: z.string().max(40),
      })
      .passthrough(),
  })
  .passthrough()
  // EasyPost's events name no workspace: the signing secret is one workspace's (signedForOneWorkspace).
  .transform((e) => ({ ...e, type: e.description, workspace: "" }));

export const shippingProviderEvents = defineEventFamily({
  family: "shipping/provider",
  schema: EasyPostEvent,
  signedForOneWorkspace: true,
  describe: {
    summary: "Shipping providers' label and tracking events (EasyPost: tracker.created, tracker.updated)",
    description:
      "EasyPost sends these to the webhook Atrium registers when a shop connects its account " +
      "(`/api/webhooks/shipping/provider?workspace={id}`), signed with `X-Hmac-Signature: hmac-sha256-hex=…` and " +
      "the secret Atrium set on that webhook. `tracker.created` and `tracker.updated` move the package with that " +
      "tracker to the carrier's latest state and keep each tracking step once; an older report arriving late " +
      "changes nothing. Each event id is applied once; other types are acknowledged and ignored.",
    example: {
      id: "evt_3f4c0a1e2b",
      object: "Event",
      description: "tracker.updated",
      result: { id: "trk_1a2b3c", object: "Tracker", status: "in_transit" },
    },
  },
  async secret(services, workspaceId) {
    const connection = await paymentConnectionsOf(services, workspaceId).get("easypost");
    if (!connection) return [];
    const credentials = await paymentConnectionsOf(services, workspaceId).credentials<EasyPostCredentials>("easypost");
    return [credentials.webhookSecret];
  },
  verify(headers, raw, secrets) {
    const header = headers.get("x-hmac-signature");
    if (!header) return false;
    return verifyEasyPostSignature(header, raw, secrets);
  },
  eventId: (body) => {
    const id = (body as { id?: unknown } | null)?.id;
    return typeof id === "string" ? id : undefined;
  },
  async apply(services, workspace, event) {
    switch (event.type) {
      case "tracker.created":
      case "tracker.updated": {
        if (event.result.object !== "Tracker") return;
        const tracker = event.result as unknown as ITracker;
        await shipmentsOf(services.db, workspace.id).applyTracking("easypost", tracker.id, trackingOf(tracker));
        return;
      }
      default:
        return;
    }
  },
});
