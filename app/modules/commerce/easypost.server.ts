/**
 * EasyPost (issue 18, ADR 034), the shipping provider that buys labels, through its official `@easypost/api`
 * client: a workspace connects its own EasyPost account with its API key (checked by asking EasyPost who it
 * belongs to, sealed, and a webhook registered with a secret Atrium makes); an operator gets the carriers' rates
 * for a parcel of an order, buys one, and the label's package is written as the order's lines are marked sent
 * (shipments.server.ts). EasyPost's tracker events then move the package along (`/api/webhooks/shipping/provider`).
 *
 * The API's address is the deployment's `EASYPOST_API_URL`, never a workspace's (as Stripe's is). The client
 * keeps its `timeout` option but does not apply it, so the deadline is set on each request it makes.
 */
import { randomBytes } from "node:crypto";
import EasyPostClient from "@easypost/api";
import type { IRate, IShipment, ITracker } from "@easypost/api";
import type { AppServices } from "~/lib/context";
import { DomainError, conflict, invalid, unavailable } from "~/lib/errors";
import { profileOf } from "~/modules/sites/profile.server";
import { parseMoney } from "./money";
import { paymentConnectionsOf } from "./connections.server";
import { assertSendable, ordersOf } from "./orders.server";
import { type PackageRecord, type TrackingUpdate, shipmentsOf } from "./shipments.server";
import { shipmentStatusOf } from "./vocabulary";

export interface EasyPostCredentials {
  apiKey: string;
  webhookSecret: string;
}

type Services = Pick<AppServices, "db" | "secrets" | "env" | "logger">;

/** EasyPost's keys: `EZAK…` (production) and `EZTK…` (test). */
export const EASYPOST_KEY_PATTERN = /^EZ[AT]K[A-Za-z0-9]{16,}$/;

export function easypostApi(env: Services["env"], apiKey: string): InstanceType<typeof EasyPostClient> {
  const deadline = env.SHIPPING_TIMEOUT_MS;
  return new EasyPostClient(apiKey, {
    baseUrl: env.EASYPOST_API_URL,
    requestMiddleware: (request: { timeout(t: { response: number; deadline: number }): unknown }) =>
      request.timeout({ response: deadline, deadline }),
  });
}

/**
 * An EasyPost failure in the error contract: a key it refuses is the operator's to fix, what it refuses about a
 * parcel or an address comes back in its words (409), and EasyPost unreachable, slow or answering garbage is a
 * 503 to retry — nothing was written on our side.
 */
export function easypostFailure(error: unknown, doing: string): DomainError {
  if (error instanceof DomainError) return error;
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  const message = (error as { message?: unknown } | null)?.message;
  if (status === 401 || status === 403)
    return invalid("EasyPost did not accept this API key", [{ field: "apiKey", message: "Not accepted by EasyPost" }]);
  if (typeof status === "number" && status >= 400 && status < 500 && status !== 408 && status !== 429)
    return conflict(`EasyPost refused to ${doing}${typeof message === "string" && message ? `: ${message}` : ""}`);
  return unavailable(`EasyPost could not be reached to ${doing}; nothing was changed. Try again in a moment.`, 30);
}

async function clientOf(services: Services, workspaceId: string) {
  const credentials = await paymentConnectionsOf(services, workspaceId).credentials<EasyPostCredentials>("easypost");
  return easypostApi(services.env, credentials.apiKey);
}

/**
 * Connects (or reconnects) the workspace's EasyPost account: the key is checked by asking EasyPost whose it is,
 * then a webhook is registered for `webhookUrl` with a fresh secret (the one it had is removed). Nothing is saved
 * unless EasyPost accepted both.
 */
export async function connectEasyPost(
  services: Services,
  workspaceId: string,
  input: { apiKey: string },
  webhookUrl: string,
  actorUserId: string,
): Promise<void> {
  const apiKey = input.apiKey.trim();
  if (!EASYPOST_KEY_PATTERN.test(apiKey))
    throw invalid("Enter your EasyPost API key", [
      { field: "apiKey", message: "An EasyPost API key starts with EZAK (production) or EZTK (test)" },
    ]);
  const api = easypostApi(services.env, apiKey);
  const connections = paymentConnectionsOf(services, workspaceId);
  const existing = await connections.get("easypost");
  const webhookSecret = randomBytes(32).toString("base64url");
  let me: Awaited<ReturnType<typeof api.User.retrieveMe>>;
  let hook: { id: string };
  try {
    me = await api.User.retrieveMe();
    hook = await api.Webhook.create({ url: webhookUrl, webhook_secret: webhookSecret });
  } catch (error) {
    throw easypostFailure(error, "check this key");
  }
  const name = me.name || me.email || me.id;
  // The new webhook's secret is kept before the old webhook goes: tracking never stops on a failed save.
  await connections.save<EasyPostCredentials>(
    "easypost",
    {
      credentials: { apiKey, webhookSecret },
      accountId: me.id,
      accountName: name,
      webhookEndpointId: hook.id,
      detail: `Labels are bought with ${name}'s EasyPost account (${me.id}).`,
    },
    actorUserId,
  );
  if (existing?.webhookEndpointId && existing.webhookEndpointId !== hook.id)
    await forgetWebhook(api, existing.webhookEndpointId);
}

/** A webhook of ours EasyPost no longer needs: removed if it can be, left to fail quietly if not. */
async function forgetWebhook(api: InstanceType<typeof EasyPostClient>, id: string): Promise<void> {
  try {
    await api.Webhook.delete(id);
  } catch {
    // Gone already, or EasyPost unreachable: an unused webhook only sends events that are refused.
  }
}

export async function checkEasyPost(services: Services, workspaceId: string): Promise<void> {
  const api = await clientOf(services, workspaceId);
  try {
    const me = await api.User.retrieveMe();
    const name = me.name || me.email || me.id;
    await paymentConnectionsOf(services, workspaceId).setState(
      "easypost",
      "connected",
      `Labels are bought with ${name}'s EasyPost account (${me.id}).`,
    );
  } catch (error) {
    const failure = easypostFailure(error, "check the connection");
    if (failure.kind === "invalid")
      await paymentConnectionsOf(services, workspaceId).setState(
        "easypost",
        "error",
        "EasyPost no longer accepts this key: enter a new one.",
      );
    throw failure;
  }
}

/** Removes the webhook (when EasyPost can be reached) and the key. Packages already sent keep their tracking. */
export async function disconnectEasyPost(services: Services, workspaceId: string, actorUserId: string | null) {
  const connections = paymentConnectionsOf(services, workspaceId);
  const existing = await connections.get("easypost");
  if (!existing) return;
  if (existing.webhookEndpointId) {
    const api = await clientOf(services, workspaceId);
    await forgetWebhook(api, existing.webhookEndpointId);
  }
  await connections.remove("easypost", actorUserId);
}

export interface Parcel {
  weightGrams: number;
  lengthCm: number;
  widthCm: number;
  heightCm: number;
}

export interface LabelRate {
  id: string;
  carrier: string;
  service: string;
  /** In the rate's currency's minor units. */
  amount: number;
  currency: string;
  days: number | null;
}

// Addresses EasyPost hands back become links on our pages: only web addresses are kept.
const webAddress = (value: unknown): string | null =>
  typeof value === "string" && /^https?:\/\/[^\s]+$/.test(value) ? value : null;
// EasyPost measures parcels in ounces and inches.
const ounces = (grams: number) => Math.max(0.1, Math.round((grams / 28.349523125) * 10) / 10);
const inches = (cm: number) => Math.max(0.1, Math.round((cm / 2.54) * 10) / 10);

/**
 * The carriers' rates for a parcel of an order, from the business's address to the order's: an EasyPost shipment
 * (free until a rate is bought) that names the order as its reference, so only this order can buy its label.
 */
export async function labelRates(
  services: Services,
  workspaceId: string,
  orderId: string,
  parcel: Parcel,
  businessName: string,
): Promise<{ shipmentId: string; rates: LabelRate[] }> {
  const order = await ordersOf(services.db, workspaceId).byId(orderId);
  if (!order.address) throw conflict("This order has no delivery address: it is collected, not shipped");
  assertSendable(order);
  for (const [field, value] of Object.entries(parcel))
    if (!Number.isFinite(value) || value <= 0 || value > 1_000_000)
      throw invalid("Give the parcel's weight and size", [{ field, message: "A number above 0" }]);
  const profile = await profileOf(services.db, workspaceId).get();
  if (!profile.address.street || !profile.address.postalCode || !profile.address.country)
    throw conflict(
      "Add your address to the business profile (Website → Business profile) so carriers know where the parcel leaves from",
    );
  const api = await clientOf(services, workspaceId);
  let shipment: IShipment;
  try {
    shipment = await api.Shipment.create({
      reference: order.id,
      to_address: {
        name: order.name,
        street1: order.address.line1,
        street2: order.address.line2,
        city: order.address.city,
        state: order.address.region,
        zip: order.address.postalCode,
        country: order.address.country,
        email: order.email,
        phone: order.phone ?? "",
      },
      from_address: {
        company: businessName,
        street1: profile.address.street,
        city: profile.address.locality,
        state: profile.address.region,
        zip: profile.address.postalCode,
        country: profile.address.country,
        phone: profile.phone,
        email: profile.email,
      },
      parcel: {
        weight: ounces(parcel.weightGrams),
        length: inches(parcel.lengthCm),
        width: inches(parcel.widthCm),
        height: inches(parcel.heightCm),
      },
    } as never);
  } catch (error) {
    throw easypostFailure(error, "rate this parcel");
  }
  const rates = (shipment.rates ?? [])
    // A rate whose price is not an amount in its currency is left out, not guessed at.
    .flatMap((r: IRate): LabelRate[] => {
      const amount = parseMoney(r.rate, r.currency);
      if (amount === null) return [];
      const days = r.delivery_days ?? r.est_delivery_days ?? null;
      return [{ id: r.id, carrier: r.carrier, service: r.service, amount, currency: r.currency, days }];
    })
    .sort((a, b) => a.amount - b.amount);
  if (rates.length === 0)
    throw conflict("No carrier of your EasyPost account offers a rate for this parcel and address");
  return { shipmentId: shipment.id, rates };
}

/**
 * Buys the chosen rate of an order's EasyPost shipment and sends the lines in that package. A retry after the
 * purchase went through (the answer was lost) finds the label already bought and uses it; a label whose package
 * cannot be written (the order was cancelled meanwhile) is refunded at EasyPost, so the shop does not pay for it.
 */
export async function buyLabel(
  services: Services,
  workspaceId: string,
  input: { orderId: string; shipmentId: string; rateId: string; quantities: Record<string, number> | null },
  actorUserId: string,
  origin: string,
): Promise<{ shipmentId: string }> {
  if (!/^shp_[A-Za-z0-9]{1,60}$/.test(input.shipmentId) || !/^rate_[A-Za-z0-9]{1,60}$/.test(input.rateId))
    throw invalid("Choose a rate", [{ field: "rateId", message: "Choose a rate" }]);
  // Nothing is bought for an order that cannot be sent (a refund of a label is neither instant nor certain).
  assertSendable(await ordersOf(services.db, workspaceId).byId(input.orderId));
  const api = await clientOf(services, workspaceId);
  let shipment: IShipment;
  try {
    shipment = await api.Shipment.retrieve(input.shipmentId);
  } catch (error) {
    throw easypostFailure(error, "buy this label");
  }
  if (shipment.reference !== input.orderId) throw invalid("These rates are for another order: get rates again");
  if (shipment.refund_status) throw conflict("This label was given back to EasyPost: get rates again");
  const boughtNow = !shipment.postage_label;
  let bought = shipment;
  if (boughtNow) {
    try {
      bought = await api.Shipment.buy(input.shipmentId, input.rateId);
    } catch (error) {
      const failure = easypostFailure(error, "buy this label");
      // Unanswered, the purchase may have gone through: the same rate again finds it rather than buying twice.
      if (failure.kind === "unavailable")
        throw unavailable(
          "EasyPost did not answer the purchase in time; the label may be bought. Try the same rate again: it is not bought twice.",
          30,
        );
      throw failure;
    }
  }
  const tracker = bought.tracker as ITracker | null | undefined;
  const record: PackageRecord = {
    provider: "easypost",
    carrier: bought.selected_rate?.carrier ?? "",
    service: bought.selected_rate?.service ?? "",
    trackingNumber: bought.tracking_code ?? "",
    trackingUrl: webAddress(tracker?.public_url),
    labelUrl: webAddress(bought.postage_label?.label_pdf_url) ?? webAddress(bought.postage_label?.label_url),
    labelCost: bought.selected_rate ? parseMoney(bought.selected_rate.rate, bought.selected_rate.currency) : null,
    labelCurrency: bought.selected_rate?.currency ?? null,
    weightGrams: Math.round((bought.parcel?.weight ?? 0) * 28.349523125),
    status: tracker ? shipmentStatusOf(tracker.status) : "pre_transit",
    estimatedDelivery: tracker?.est_delivery_date ?? null,
    providerShipmentId: bought.id,
    providerTrackerId: tracker?.id ?? null,
  };
  try {
    const { shipmentId } = await shipmentsOf(services.db, workspaceId).ship(
      input.orderId,
      input.quantities,
      record,
      actorUserId,
      origin,
    );
    return { shipmentId };
  } catch (error) {
    // The label this call bought has no package: give it back, unless a package holds it after all. A label an
    // earlier call bought is that call's to keep or give back.
    if (!boughtNow) throw error;
    const recorded = await services.db
      .selectFrom("shipments")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .where("provider", "=", "easypost")
      .where("provider_shipment_id", "=", bought.id)
      .executeTakeFirst();
    if (!recorded)
      await api.Shipment.refund(bought.id).catch((refundError: unknown) =>
        services.logger.warn({ err: refundError, shipment: bought.id }, "easypost label refund failed"),
      );
    throw error;
  }
}

/** EasyPost's tracker, as the tracking update a package applies. */
export function trackingOf(tracker: ITracker): TrackingUpdate {
  return {
    status: shipmentStatusOf(tracker.status),
    detail: typeof tracker.status_detail === "string" ? tracker.status_detail.replaceAll("_", " ") : "",
    estimatedDelivery: tracker.est_delivery_date || null,
    publicUrl: webAddress(tracker.public_url),
    updatedAt: tracker.updated_at,
    steps: (tracker.tracking_details ?? []).map((d) => ({
      status: shipmentStatusOf(d.status),
      message: d.message ?? d.description ?? "",
      location: [d.tracking_location?.city, d.tracking_location?.state, d.tracking_location?.country]
        .filter(Boolean)
        .join(", "),
      occurredAt: d.datetime,
    })),
  };
}
