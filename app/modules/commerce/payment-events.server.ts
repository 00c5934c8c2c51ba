/**
 * `/api/webhooks/payments` (ADR 027, 032): the payment providers' events, through the receiver framework — its
 * rate limits, body cap, event log and duplicate check. Stripe's are signed with the `Stripe-Signature` scheme and
 * checked with the SDK's own `constructEvent` against the signing secret of the workspace named in the endpoint's
 * address (`?workspace=`), which only that workspace's connection holds: a verified event is that workspace's. An
 * event about another workspace's order finds nothing here (404, recorded as refused).
 *
 * Applied: a completed checkout pays its order (once, whatever the order with the customer's return) or starts
 * the subscription it was for (ADR 033); an expired one releases its order; subscription and invoice events keep
 * the customer's subscription and its charges as Stripe last said; a refund made in Stripe's dashboard is recorded (one the console made is already known by its
 * id, and one Atrium made of a late or second payment is recorded with it); account updates and a deauthorisation change the connection's state the shop's readiness shows.
 */
import Stripe from "stripe";
import { z } from "zod";
import type { AppServices } from "~/lib/context";
import { defineEventFamily } from "~/modules/events/family";
import { paymentConnectionsOf } from "./connections.server";
import { ordersOf } from "./orders.server";
import {
  type PayPalCredentials,
  type PayPalWebhookEvent,
  applyPayPalEvent,
  verifyPayPalSignature,
} from "./paypal.server";
import { refreshStripePayout } from "./payouts.server";
import { applyStripeInvoice, refreshStripeSubscription, settleSubscriptionCheckout } from "./stripe-billing.server";
import { type StripeCredentials, releaseStripeCheckout, settleStripeSession } from "./stripe.server";

/**
 * Stripe's signature over the exact bytes, by the SDK. `"stale"` when the signature is right but its timestamp is
 * outside the window (the receiver tells the two apart in its log).
 */
export function verifyStripeSignature(
  header: string,
  raw: Buffer,
  secrets: string[],
  nowSeconds: number,
  toleranceSeconds: number,
): boolean | "stale" {
  const signed = secrets.some((secret) => {
    try {
      // Tolerance 0: the signature alone. The SDK's window looks only backwards; ours is both ways, as for every
      // family (a timestamp from the future is as suspect as an old one).
      Stripe.webhooks.constructEvent(raw, header, secret, 0);
      return true;
    } catch {
      return false;
    }
  });
  if (!signed) return false;
  const timestamp = Number(/(?:^|,)t=(\d+)/.exec(header)?.[1]);
  return Math.abs(nowSeconds - timestamp) <= toleranceSeconds ? true : "stale";
}

const StripeEvent = z
  .object({
    id: z.string().min(1).max(255),
    object: z.literal("event"),
    type: z.string().min(1).max(100),
    data: z.object({ object: z.object({ id: z.string().max(255) }).passthrough() }),
  })
  .passthrough()
  .transform((e) => {
    const metadata = (e.data.object as { metadata?: Record<string, unknown> | null }).metadata;
    // The workspace an object names (our checkouts and payments carry it); "" for Stripe's own (an account).
    const named = typeof metadata?.atrium_workspace === "string" ? metadata.atrium_workspace : "";
    return { provider: "stripe" as const, type: e.type, workspace: named, event: e as unknown as Stripe.Event };
  });

/** PayPal's webhook event (ADR 035): its objects name no workspace; the webhook id that verified it is the shop's. */
const PayPalEvent = z
  .object({
    id: z.string().min(1).max(255),
    event_type: z.string().min(1).max(100),
    resource_type: z.string().max(100).optional(),
    resource: z.object({ id: z.string().max(255).optional() }).passthrough(),
  })
  .passthrough()
  .transform((e) => ({
    provider: "paypal" as const,
    type: e.event_type,
    workspace: "",
    event: e as PayPalWebhookEvent,
  }));

const originOf = (services: AppServices) => services.env.PUBLIC_URL ?? `http://localhost:${services.env.PORT}`;

export const paymentsEvents = defineEventFamily({
  family: "payments",
  schema: z.union([StripeEvent, PayPalEvent]),
  signedForOneWorkspace: true,
  tags: ["product", "shop"],
  describe: {
    summary:
      "Payment providers' events (Stripe: checkout, refund, subscription, invoice and account events; PayPal: approvals, captures, refunds)",
    description:
      "Stripe sends these to the endpoint Atrium registers when a shop connects its account " +
      "(`/api/webhooks/payments?workspace={id}`), signed with `Stripe-Signature` (`t=…,v1=…`) and that endpoint's " +
      "signing secret. `checkout.session.completed` and `.async_payment_succeeded` pay the order the session was " +
      "made for, `checkout.session.expired` releases it, `refund.created` records a refund made in Stripe, " +
      "`customer.subscription.*` keep a customer's subscription in Stripe's latest state (read from Stripe, so the " +
      "order they come in does not matter), `invoice.paid` and `.payment_failed` record its charges, " +
      "`payout.*` keep the shop's payouts to its bank, " +
      "`account.updated` and `account.application.deauthorized` change the connection's state. PayPal sends its " +
      "events to the same address, for the webhook the shop added in PayPal's dashboard, signed as PayPal documents " +
      "(`PayPal-Transmission-Sig`: RSA-SHA256 by the certificate at `PayPal-Cert-Url`, PayPal's hosts only, over the " +
      "transmission id, time, webhook id and the body's CRC32): `CHECKOUT.ORDER.APPROVED` captures the order, " +
      "`PAYMENT.CAPTURE.COMPLETED` applies the payment, `PAYMENT.CAPTURE.REFUNDED` records a refund made in PayPal. " +
      "Each event id is applied once; other types are acknowledged and ignored.",
    example: {
      id: "evt_1QExample",
      object: "event",
      type: "checkout.session.completed",
      data: { object: { id: "cs_test_example", metadata: { atrium_workspace: "01JB6Z0000000000000000000" } } },
    },
  },
  // Each provider's verifying secret, named by provider: Stripe's endpoint signing secret, PayPal's webhook id.
  async secret(services, workspaceId) {
    const connections = paymentConnectionsOf(services, workspaceId);
    // Each opened alone: one provider's keys that do not open (a changed APP_KEY) leave the other's events working.
    const secretOf = async (provider: string, read: () => Promise<string>) => {
      if (!(await connections.get(provider))) return [];
      try {
        return [`${provider}:${await read()}`];
      } catch (error) {
        services.logger.error({ provider, reason: String(error) }, "a payment provider's keys do not open");
        return [];
      }
    };
    return [
      ...(await secretOf(
        "stripe",
        async () => (await connections.credentials<StripeCredentials>("stripe")).webhookSecret,
      )),
      ...(await secretOf("paypal", async () => (await connections.credentials<PayPalCredentials>("paypal")).webhookId)),
    ];
  },
  verify(headers, raw, secrets, nowSeconds, tolerance, services) {
    const of = (provider: string) =>
      secrets.filter((s) => s.startsWith(`${provider}:`)).map((s) => s.slice(provider.length + 1));
    if (headers.get("paypal-transmission-sig"))
      return verifyPayPalSignature(services, headers, raw, of("paypal"), nowSeconds, tolerance);
    const header = headers.get("stripe-signature");
    if (!header) return false;
    return verifyStripeSignature(header, raw, of("stripe"), nowSeconds, tolerance);
  },
  eventId: (body) => {
    const id = (body as { id?: unknown } | null)?.id;
    return typeof id === "string" ? id : undefined;
  },
  async apply(services, workspace, parsed) {
    if (parsed.provider === "paypal") return applyPayPalEvent(services, workspace.id, parsed.event);
    const { event } = parsed;
    const orders = ordersOf(services.db, workspace.id);
    const connections = paymentConnectionsOf(services, workspace.id);
    switch (event.type) {
      case "checkout.session.completed":
      case "checkout.session.async_payment_succeeded":
        // The shop's Stripe account may sell elsewhere too (payment links, another app): a checkout Atrium did not
        // make is acknowledged and left alone, so Stripe does not retry it for days and disable the endpoint.
        if (event.data.object.metadata?.atrium_kind === "subscription") {
          await settleSubscriptionCheckout(services, workspace.id, event.data.object.id, null);
          return;
        }
        if (!event.data.object.metadata?.atrium_order) return;
        await settleStripeSession(services, workspace.id, event.data.object, originOf(services));
        return;
      case "checkout.session.expired": {
        if (!event.data.object.metadata?.atrium_order) return;
        const order = await orders.byCheckout(event.data.object.id);
        if (!order || order.status !== "pending") return;
        if (await releaseStripeCheckout(services, workspace.id, order, originOf(services)))
          await orders.cancel(order.id, { system: "expired" }, { origin: originOf(services) });
        return;
      }
      case "refund.created": {
        const refund = event.data.object;
        // Made and recorded by Atrium itself, beside the payment it gave back (a late or a second payment).
        if (refund.metadata?.reason === "order_released" || refund.metadata?.reason === "duplicate_payment") return;
        const paymentIntent =
          typeof refund.payment_intent === "string" ? refund.payment_intent : refund.payment_intent?.id;
        if (!paymentIntent) return;
        const order = await orders.byPaymentReference("stripe", paymentIntent);
        if (!order) return;
        if (order.status === "pending" || order.status === "cancelled") return;
        await orders.refund(order.id, refund.amount, null, {
          reference: refund.id,
          note: "Refunded in Stripe",
          origin: originOf(services),
        });
        return;
      }
      case "customer.subscription.created":
      case "customer.subscription.updated":
      case "customer.subscription.deleted":
        // Stripe does not deliver these in order: the subscription is read as it is now, so a late `created`
        // cannot bring back a subscription an `updated` has already cancelled.
        await refreshStripeSubscription(services, workspace.id, event.data.object);
        return;
      case "invoice.paid":
        await applyStripeInvoice(services, workspace.id, event.data.object, "paid");
        return;
      case "invoice.payment_failed":
        await applyStripeInvoice(services, workspace.id, event.data.object, "failed");
        return;
      case "payout.created":
      case "payout.updated":
      case "payout.paid":
      case "payout.failed":
      case "payout.canceled":
        await refreshStripePayout(services, workspace.id, event.data.object);
        return;
      case "account.updated": {
        const account = event.data.object;
        const ready = account.charges_enabled !== false;
        const name = account.settings?.dashboard?.display_name || account.business_profile?.name || account.id;
        await connections.setState(
          "stripe",
          ready ? "connected" : "error",
          ready
            ? `Card payments go to ${name} (${account.id}).`
            : `Stripe says ${name} cannot take payments now: see your Stripe dashboard.`,
        );
        return;
      }
      case "account.application.deauthorized":
        await connections.setState(
          "stripe",
          "deauthorized",
          "Your Stripe account disconnected Atrium. Connect it again to take card payments.",
        );
        return;
      default:
        return;
    }
  },
});
