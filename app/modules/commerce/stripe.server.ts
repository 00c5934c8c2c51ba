/**
 * Stripe (issue 18, ADR 032), through the official `stripe` SDK: a workspace connects its own account with its
 * secret key; customers pay on Stripe's hosted Checkout page (no script from the network on our pages); the
 * payment is applied by the order's idempotent finalisation whether the customer's return or Stripe's event comes
 * first, twice or at once; an order released before its payment arrived has that payment refunded at once; the
 * console refunds all or part of an order through Stripe.
 *
 * The API's address is the deployment's `STRIPE_API_URL`, never a workspace's: an operator cannot send the
 * server's calls, with their key, elsewhere. Tests point it at a local fake (tests/fakes/stripe.ts).
 */
import Stripe from "stripe";
import type { AppServices } from "~/lib/context";
import { now } from "~/lib/clock.server";
import { DomainError, conflict, invalid, notFound, unavailable } from "~/lib/errors";
import { type Settled, applyCardPayment } from "./card-payments.server";
import { paymentConnectionsOf } from "./connections.server";
import { type Order, ordersOf } from "./orders.server";

export interface StripeCredentials {
  secretKey: string;
  webhookSecret: string;
}

type Services = Pick<AppServices, "db" | "secrets" | "env" | "logger">;

/** The events Atrium asks Stripe for when it registers its endpoint, and applies. */
export const STRIPE_EVENTS = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.expired",
  "refund.created",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.paid",
  "invoice.payment_failed",
  "payout.created",
  "payout.updated",
  "payout.paid",
  "payout.failed",
  "payout.canceled",
  "account.updated",
  "account.application.deauthorized",
] as const;

export const SECRET_KEY_PATTERN = /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/;
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/=_-]{8,}$/;

export function stripeApi(env: Services["env"], secretKey: string): Stripe {
  const base = new URL(env.STRIPE_API_URL);
  return new Stripe(secretKey, {
    host: base.hostname,
    port: base.port || (base.protocol === "https:" ? 443 : 80),
    protocol: base.protocol === "https:" ? "https" : "http",
    // The SDK retries what is safe to retry (with its own idempotency keys on POSTs); ours are set per call.
    maxNetworkRetries: 2,
    timeout: env.PAYMENTS_TIMEOUT_MS,
    telemetry: false,
    appInfo: { name: "Atrium" },
  });
}

/**
 * A Stripe failure in the error contract: what Stripe refused is the caller's to fix (4xx with Stripe's words);
 * Stripe unreachable, slow or answering garbage is a 503 to retry, and nothing was written on our side.
 */
export function stripeFailure(error: unknown, doing: string): DomainError {
  if (error instanceof DomainError) return error;
  if (error instanceof Stripe.errors.StripeAuthenticationError)
    return invalid("Stripe did not accept this secret key", [
      { field: "secretKey", message: "Not accepted by Stripe" },
    ]);
  if (error instanceof Stripe.errors.StripePermissionError)
    return invalid(`This key may not ${doing}; give it that permission in Stripe`, [
      { field: "secretKey", message: "Missing a permission" },
    ]);
  if (error instanceof Stripe.errors.StripeInvalidRequestError || error instanceof Stripe.errors.StripeCardError)
    return conflict(`Stripe refused to ${doing}: ${error.message}`);
  return unavailable(`Stripe could not be reached to ${doing}; nothing was changed. Try again in a moment.`, 30);
}

async function clientOf(services: Services, workspaceId: string) {
  const connections = paymentConnectionsOf(services, workspaceId);
  const credentials = await connections.credentials<StripeCredentials>("stripe");
  return { api: stripeApi(services.env, credentials.secretKey), credentials };
}

function describeAccount(account: Stripe.Account): { name: string; detail: string; ready: boolean } {
  const name =
    account.settings?.dashboard?.display_name || account.business_profile?.name || account.email || account.id;
  const ready = account.charges_enabled !== false;
  return {
    name,
    ready,
    detail: ready
      ? `Card payments go to ${name} (${account.id}).`
      : `Stripe says ${name} cannot take payments yet: finish its set-up in your Stripe dashboard.`,
  };
}

/**
 * Connects (or reconnects) the workspace's Stripe account: the key is checked by asking Stripe which account it
 * belongs to; without a signing secret, Atrium registers its own webhook endpoint and keeps the secret Stripe
 * answers. Nothing is saved unless Stripe accepted the key.
 */
export async function connectStripe(
  services: Services,
  workspaceId: string,
  input: { secretKey: string; webhookSecret: string },
  webhookUrl: string,
  actorUserId: string,
): Promise<void> {
  const secretKey = input.secretKey.trim();
  const webhookSecret = input.webhookSecret.trim();
  if (!SECRET_KEY_PATTERN.test(secretKey))
    throw invalid("Enter your Stripe secret key", [
      { field: "secretKey", message: "A secret key starts with sk_live_, sk_test_ or rk_ (a restricted key)" },
    ]);
  if (webhookSecret && !WEBHOOK_SECRET_PATTERN.test(webhookSecret))
    throw invalid("That is not a webhook signing secret", [
      { field: "webhookSecret", message: "A signing secret starts with whsec_" },
    ]);
  const api = stripeApi(services.env, secretKey);
  let account: Stripe.Account;
  try {
    account = await api.accounts.retrieve(null);
  } catch (error) {
    throw stripeFailure(error, "check this key");
  }
  const existing = await paymentConnectionsOf(services, workspaceId).get("stripe");
  let secret = webhookSecret;
  let endpointId: string | null = null;
  if (!secret) {
    try {
      if (existing?.webhookEndpointId) await api.webhookEndpoints.del(existing.webhookEndpointId).catch(() => null);
      const endpoint = await api.webhookEndpoints.create({
        url: webhookUrl,
        enabled_events: [...STRIPE_EVENTS],
        description: "Atrium: payments and account events for this shop",
        metadata: { atrium_workspace: workspaceId },
      });
      if (!endpoint.secret) throw conflict("Stripe made the webhook endpoint but gave no signing secret");
      secret = endpoint.secret;
      endpointId = endpoint.id;
    } catch (error) {
      throw stripeFailure(error, "register Atrium's webhook endpoint");
    }
  }
  const described = describeAccount(account);
  await paymentConnectionsOf(services, workspaceId).save<StripeCredentials>(
    "stripe",
    {
      credentials: { secretKey, webhookSecret: secret },
      accountId: account.id,
      accountName: described.name,
      webhookEndpointId: endpointId,
      detail: described.detail,
    },
    actorUserId,
  );
  if (!described.ready) await paymentConnectionsOf(services, workspaceId).setState("stripe", "error", described.detail);
}

/** "Check connection": asks Stripe again and records what it said. */
export async function checkStripe(services: Services, workspaceId: string): Promise<void> {
  const connections = paymentConnectionsOf(services, workspaceId);
  const { api } = await clientOf(services, workspaceId);
  try {
    const described = describeAccount(await api.accounts.retrieve(null));
    await connections.setState("stripe", described.ready ? "connected" : "error", described.detail);
    // An endpoint registered by an earlier Atrium may lack events added since (subscriptions): ask for them all.
    const endpointId = (await connections.get("stripe"))?.webhookEndpointId;
    if (endpointId)
      await api.webhookEndpoints.update(endpointId, { enabled_events: [...STRIPE_EVENTS] }).catch((error: unknown) => {
        services.logger.warn({ err: error }, "Stripe's webhook endpoint could not be updated");
      });
  } catch (error) {
    const failure = stripeFailure(error, "check the connection");
    await connections.setState(
      "stripe",
      failure.kind === "unavailable" ? "connected" : "error",
      failure.kind === "unavailable"
        ? "Stripe could not be reached at the last check; card payments carry on when it answers."
        : `The last check failed: ${failure.message}.`,
    );
    throw failure;
  }
}

/**
 * Disconnects: first expires the card pages still open, so no one pays an order whose payment event could no
 * longer be verified (one paid meanwhile is applied now); then removes the endpoint Atrium registered (when Stripe
 * can be reached) and forgets the keys.
 */
export async function disconnectStripe(
  services: Services,
  workspaceId: string,
  actorUserId: string,
  origin: string,
): Promise<void> {
  const connections = paymentConnectionsOf(services, workspaceId);
  const existing = await connections.get("stripe");
  if (!existing) throw notFound("Stripe is not connected");
  for (const order of await ordersOf(services.db, workspaceId).openCheckouts("stripe"))
    await releaseStripeCheckout(services, workspaceId, order, origin);
  await forgetStripeEndpoint(services, workspaceId);
  await connections.remove("stripe", actorUserId);
}

/** Removes the webhook endpoint Atrium registered with Stripe (when it did); a failure is logged, not thrown. */
export async function forgetStripeEndpoint(services: Services, workspaceId: string): Promise<void> {
  const existing = await paymentConnectionsOf(services, workspaceId).get("stripe");
  if (!existing?.webhookEndpointId) return;
  const { api } = await clientOf(services, workspaceId);
  await api.webhookEndpoints.del(existing.webhookEndpointId).catch((error: unknown) => {
    services.logger.warn({ err: error }, "Stripe's webhook endpoint could not be removed; remove it in Stripe");
  });
}

/**
 * The order's Stripe Checkout page: the one still open, or a new one. The session is made for the order's exact
 * total (one line, "Order #1001"), so Stripe charges what the checkout showed, never a sum of its own; it expires
 * with the order's hold. Its idempotency key is the order's, so a retried creation answers the same session.
 */
/** Stripe's shortest Checkout Session life (30 minutes), with a minute to spare for the request itself. */
const STRIPE_MIN_PAGE_MS = 31 * 60_000;

export async function stripeCheckoutFor(
  services: Services,
  workspaceId: string,
  order: Order,
  urls: { success: string; cancel: string },
): Promise<string> {
  if (order.status !== "pending") throw conflict("This order is not waiting for a payment");
  if (order.paymentProvider !== "stripe") throw conflict("This order is not paid by card");
  const expiresAt = order.reservedUntil ? new Date(order.reservedUntil) : null;
  const soon = now().getTime() + 60_000;
  if (order.checkoutUrl && order.checkoutExpiresAt && new Date(order.checkoutExpiresAt).getTime() > soon)
    return order.checkoutUrl;
  if (!expiresAt || expiresAt.getTime() <= soon) throw conflict("This order's hold has run out; place the order again");
  const { api } = await clientOf(services, workspaceId);
  let session: Stripe.Checkout.Session;
  try {
    session = await api.checkout.sessions.create(
      {
        mode: "payment",
        client_reference_id: order.id,
        customer_email: order.email,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: order.currency.toLowerCase(),
              unit_amount: order.total,
              product_data: { name: `Order #${order.number}` },
            },
          },
        ],
        metadata: { atrium_workspace: workspaceId, atrium_order: order.id },
        payment_intent_data: { metadata: { atrium_workspace: workspaceId, atrium_order: order.id } },
        success_url: `${urls.success}${urls.success.includes("?") ? "&" : "?"}session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: urls.cancel,
        // Stripe keeps a page open at least 30 minutes; a shorter hold (a booking's deposit) is ended sooner by
        // the release the expiry sweep makes, which expires the session.
        expires_at: Math.floor(Math.max(expiresAt.getTime(), now().getTime() + STRIPE_MIN_PAGE_MS) / 1000),
      },
      { idempotencyKey: `atrium-checkout-${order.id}` },
    );
  } catch (error) {
    throw stripeFailure(error, "open the payment page");
  }
  if (!session.url) throw unavailable("Stripe gave no payment page for this order; try again in a moment.", 30);
  await ordersOf(services.db, workspaceId).setCheckout(order.id, {
    reference: session.id,
    url: session.url,
    expiresAt: new Date((session.expires_at ?? Math.floor(expiresAt.getTime() / 1000)) * 1000).toISOString(),
  });
  return session.url;
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === "string" ? value : value.id;

/**
 * Applies a completed Checkout Session to its order — from the customer's return (the session read from Stripe)
 * or from `checkout.session.completed` (the verified event's). The session must be the one made for that order
 * of this workspace. Paid once, and a late or second payment refunded at once (card-payments.server.ts).
 */
export async function settleStripeSession(
  services: Services,
  workspaceId: string,
  session: Stripe.Checkout.Session,
  origin: string,
): Promise<Settled> {
  const order = await ordersOf(services.db, workspaceId).byCheckout(session.id);
  if (!order || (session.metadata?.atrium_order && session.metadata.atrium_order !== order.id))
    throw notFound("No order of this shop was paid with that checkout");
  if (session.payment_status !== "paid") return "not_paid";
  const paymentIntent = idOf(session.payment_intent);
  if (!paymentIntent) throw invalid("The checkout names no payment");
  const payment = {
    provider: "stripe",
    reference: paymentIntent,
    amount: session.amount_total ?? 0,
    currency: (session.currency ?? "").toUpperCase(),
    origin,
  };
  return applyCardPayment(services, workspaceId, order, payment, async (reason) => {
    const { api } = await clientOf(services, workspaceId);
    try {
      const refund = await api.refunds.create(
        { payment_intent: paymentIntent, metadata: { atrium_order: order.id, reason } },
        { idempotencyKey: `atrium-${reason === "order_released" ? "late" : "duplicate"}-refund-${paymentIntent}` },
      );
      return { reference: refund.id, amount: refund.amount };
    } catch (error) {
      throw stripeFailure(
        error,
        reason === "order_released" ? "refund a payment for a released order" : "refund a second payment of an order",
      );
    }
  });
}

/** The customer's return from Stripe's page: the session read from Stripe (never trusted from the address). */
export async function confirmStripeReturn(
  services: Services,
  workspaceId: string,
  order: Order,
  sessionId: string,
  origin: string,
): Promise<Settled> {
  if (order.checkoutReference !== sessionId) throw notFound("That payment is not this order's");
  const { api } = await clientOf(services, workspaceId);
  let session: Stripe.Checkout.Session;
  try {
    session = await api.checkout.sessions.retrieve(sessionId);
  } catch (error) {
    throw stripeFailure(error, "confirm the payment");
  }
  return settleStripeSession(services, workspaceId, session, origin);
}

/**
 * Before an unpaid card order is released (its hold ran out, or it is cancelled): its Checkout page is expired at
 * Stripe, so no one pays for stock that is back on sale. If Stripe says it was paid meanwhile, the payment is
 * applied instead and the answer is false (do not cancel). If Stripe cannot be reached, the release goes ahead:
 * the page expires by itself with the hold, and a payment that still arrives is refunded (settleStripeSession).
 */
export async function releaseStripeCheckout(
  services: Services,
  workspaceId: string,
  order: Order,
  origin: string,
): Promise<boolean> {
  if (order.paymentProvider !== "stripe" || !order.checkoutReference) return true;
  let api: Stripe;
  try {
    api = (await clientOf(services, workspaceId)).api;
  } catch {
    return true;
  }
  try {
    await api.checkout.sessions.expire(order.checkoutReference);
    return true;
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) {
      services.logger.warn({ err: error, order: order.id }, "Stripe could not expire a checkout; released anyway");
      return true;
    }
  }
  // Stripe refused to expire it: it is complete or already expired. Which?
  try {
    const session = await api.checkout.sessions.retrieve(order.checkoutReference);
    if (session.status === "complete" && session.payment_status === "paid") {
      await settleStripeSession(services, workspaceId, session, origin);
      return false;
    }
  } catch (error) {
    services.logger.warn({ err: error, order: order.id }, "Stripe's checkout could not be read; released anyway");
  }
  return true;
}

/**
 * A refund from the console through Stripe: the card is paid back, then the refund is recorded with Stripe's id
 * (so Stripe's own `refund.created` for it changes nothing). The idempotency key is the order's refund state,
 * so a double submit of the same refund is one refund at Stripe and one on the order.
 */
export async function refundThroughStripe(
  services: Services,
  workspaceId: string,
  order: Order,
  amount: number,
): Promise<string> {
  const left = order.total - order.refunded;
  if (!Number.isInteger(amount) || amount <= 0 || amount > left)
    throw invalid("A refund is at most what was paid and not yet refunded", [{ field: "amount", message: "Too much" }]);
  const payments = await ordersOf(services.db, workspaceId).paymentsOf(order.id);
  const paid = payments.find((p) => p.provider === "stripe" && p.kind === "payment");
  if (!paid) throw conflict("This order has no Stripe payment to refund");
  const { api } = await clientOf(services, workspaceId);
  try {
    const refund = await api.refunds.create(
      { payment_intent: paid.reference, amount, metadata: { atrium_order: order.id } },
      { idempotencyKey: `atrium-refund-${order.id}-${order.refunded}-${amount}` },
    );
    return refund.id;
  } catch (error) {
    throw stripeFailure(error, "refund this payment");
  }
}
