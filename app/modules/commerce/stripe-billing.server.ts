/**
 * Subscriptions through Stripe Billing (issue 18, ADR 033). A signed-in customer subscribes to a product sold as a
 * subscription on Stripe's hosted Checkout page (`mode: "subscription"`, the product's price as a recurring
 * price, its free trial); Stripe then charges each period, retries a failed card and ends the subscription, and
 * tells Atrium through `/api/webhooks/payments`. The customer cancels from `/{site}/billing` — at the end of the
 * period paid for, as Stripe's `cancel_at_period_end` — and may change their mind until then.
 *
 * Every state comes from Stripe (an event's object, or a read with the shop's key, never the browser's word) and
 * is written by `subscriptionsOf(…).apply`, which keeps the newest: the return and the events, in any order or
 * twice, end in one subscription row in Stripe's latest state.
 */
import Stripe from "stripe";
import type { AppServices } from "~/lib/context";
import { now } from "~/lib/clock.server";
import { conflict, notFound } from "~/lib/errors";
import type { Customer } from "~/modules/customers/customers.server";
import { productsOf } from "./catalogue.server";
import { connectionStatesOf, paymentConnectionsOf } from "./connections.server";
import { stockState } from "./storefront.server";
import { type StripeCredentials, stripeApi, stripeFailure } from "./stripe.server";
import { LIVE_STATUSES, type SubscriptionState, subscriptionsOf } from "./subscriptions.server";
import { SUBSCRIPTION_INTERVALS, type SubscriptionInterval, optionKey } from "./vocabulary";

type Services = Pick<AppServices, "db" | "secrets" | "env" | "logger">;

const seconds = () => Math.floor(now().getTime() / 1000);
const iso = (unix: number | null | undefined) => (unix ? new Date(unix * 1000).toISOString() : null);
const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === "string" ? value : value.id;

/** The shop's Stripe client; `starting` refuses unless it takes payments now (events apply whatever its state). */
async function apiOf(services: Services, workspaceId: string, starting = false): Promise<Stripe> {
  const state = await connectionStatesOf(services.db, workspaceId).get("stripe");
  if (!state || (starting && state.status !== "connected"))
    throw conflict("This shop does not take card payments at the moment, so it cannot start a subscription");
  const credentials = await paymentConnectionsOf(services, workspaceId).credentials<StripeCredentials>("stripe");
  return stripeApi(services.env, credentials.secretKey);
}

/** What a customer is offered on the billing page before going to Stripe: the product, variant and plan. */
export interface SubscriptionOffer {
  productId: string;
  productSlug: string;
  variantId: string;
  title: string;
  price: number;
  interval: SubscriptionInterval;
  every: number;
  trialDays: number;
  /** Set when the customer already subscribes to it (a second one is refused). */
  existing: string | null;
  /** Whether the shop takes card payments now (subscriptions are paid by card). */
  cardsReady: boolean;
}

/** The offer for a variant of an active subscription product, or a 404 (not sold so, or not on sale). */
export async function subscriptionOffer(
  services: Pick<Services, "db">,
  workspaceId: string,
  customerId: string,
  variantId: string,
): Promise<SubscriptionOffer> {
  const variant = await services.db
    .selectFrom("product_variants")
    .select(["product_id"])
    .where("workspace_id", "=", workspaceId)
    .where("id", "=", variantId)
    .executeTakeFirst();
  const product = variant ? await productsOf(services.db, workspaceId).byId(variant.product_id) : null;
  const chosen = product?.variants.find((v) => v.id === variantId);
  if (!product || !chosen || product.status !== "active" || !product.subscription)
    throw notFound("That subscription is not on sale");
  if (stockState(chosen) === "sold_out") throw conflict("That option is sold out for now");
  const [existing, stripe] = await Promise.all([
    subscriptionsOf(services.db, workspaceId).liveFor(customerId, product.id),
    connectionStatesOf(services.db, workspaceId).get("stripe"),
  ]);
  const name = optionKey(chosen.options);
  return {
    productId: product.id,
    productSlug: product.slug,
    variantId: chosen.id,
    title: name ? `${product.title} (${name})` : product.title,
    price: chosen.price,
    interval: product.subscription.interval,
    every: product.subscription.every,
    trialDays: product.subscription.trialDays,
    existing: existing?.id ?? null,
    cardsReady: stripe?.status === "connected",
  };
}

/**
 * Opens Stripe's hosted page for a subscription to this variant. The metadata on the session and on the
 * subscription say whose it is, so every later event finds its customer. A double submit answers the same page
 * (the idempotency key is the customer's, the variant's and the quarter-hour's).
 */
export async function startSubscription(
  services: Services,
  workspaceId: string,
  customer: Pick<Customer, "id" | "email">,
  variantId: string,
  currency: string,
  urls: { success: string; cancel: string },
): Promise<string> {
  const offer = await subscriptionOffer(services, workspaceId, customer.id, variantId);
  if (offer.existing) throw conflict("You already subscribe to this; see it on your billing page");
  const api = await apiOf(services, workspaceId, true);
  const metadata = {
    atrium_workspace: workspaceId,
    atrium_customer: customer.id,
    atrium_product: offer.productId,
    atrium_variant: offer.variantId,
    atrium_title: offer.title.slice(0, 500),
  };
  let session: Stripe.Checkout.Session;
  try {
    session = await api.checkout.sessions.create(
      {
        mode: "subscription",
        client_reference_id: customer.id,
        customer_email: customer.email,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: currency.toLowerCase(),
              unit_amount: offer.price,
              recurring: { interval: offer.interval, interval_count: offer.every },
              product_data: { name: offer.title },
            },
          },
        ],
        subscription_data: {
          metadata,
          ...(offer.trialDays > 0 ? { trial_period_days: offer.trialDays } : {}),
        },
        metadata: { ...metadata, atrium_kind: "subscription" },
        success_url: `${urls.success}${urls.success.includes("?") ? "&" : "?"}subscribed={CHECKOUT_SESSION_ID}`,
        cancel_url: urls.cancel,
      },
      { idempotencyKey: `atrium-subscribe-${customer.id}-${offer.variantId}-${Math.floor(seconds() / 900)}` },
    );
  } catch (error) {
    throw stripeFailure(error, "open the subscription's payment page");
  }
  if (!session.url) throw conflict("Stripe gave no payment page for this subscription; try again in a moment");
  return session.url;
}

/** Stripe's subscription as Atrium keeps it; null when it is not one Atrium started (no customer in its metadata). */
export function stripeSubscriptionState(
  subscription: Stripe.Subscription,
  at: number,
  checkoutReference: string | null = null,
): SubscriptionState | null {
  const metadata = subscription.metadata ?? {};
  const customerId = metadata.atrium_customer;
  if (!customerId) return null;
  const item = subscription.items?.data?.[0];
  const recurring = item?.price?.recurring;
  const interval = (SUBSCRIPTION_INTERVALS as readonly string[]).includes(recurring?.interval ?? "")
    ? (recurring!.interval as SubscriptionInterval)
    : "month";
  return {
    provider: "stripe",
    reference: subscription.id,
    customerId,
    productId: metadata.atrium_product || null,
    variantId: metadata.atrium_variant || null,
    title: metadata.atrium_title || item?.price?.nickname || "Subscription",
    checkoutReference,
    providerCustomer: idOf(subscription.customer),
    status: subscription.status,
    amount: (item?.price?.unit_amount ?? 0) * (item?.quantity ?? 1),
    currency: (subscription.currency ?? item?.price?.currency ?? "").toUpperCase(),
    interval,
    every: recurring?.interval_count ?? 1,
    trialEndsAt: iso(subscription.trial_end),
    currentPeriodEnd: iso(item?.current_period_end),
    cancelAtPeriodEnd: !!subscription.cancel_at_period_end,
    canceledAt: iso(subscription.ended_at ?? subscription.canceled_at),
    at,
  };
}

/** Applies a subscription Stripe reported (an event's object at its `created`, or a read now). */
export async function applyStripeSubscription(
  services: Pick<Services, "db">,
  workspaceId: string,
  subscription: Stripe.Subscription,
  at: number,
  checkoutReference: string | null = null,
): Promise<boolean> {
  const state = stripeSubscriptionState(subscription, at, checkoutReference);
  if (!state) return false;
  if (subscription.metadata?.atrium_workspace && subscription.metadata.atrium_workspace !== workspaceId) return false;
  return subscriptionsOf(services.db, workspaceId).apply(state);
}

/**
 * A completed subscription checkout — the customer's return, or `checkout.session.completed` — read back from
 * Stripe with the shop's key: the subscription it made, applied. From the return, the session must be this
 * customer's (its metadata, set by Atrium when it made it).
 */
export async function settleSubscriptionCheckout(
  services: Services,
  workspaceId: string,
  sessionId: string,
  customerId: string | null,
): Promise<string | null> {
  const api = await apiOf(services, workspaceId);
  let session: Stripe.Checkout.Session;
  try {
    session = await api.checkout.sessions.retrieve(sessionId, { expand: ["subscription"] });
  } catch (error) {
    throw stripeFailure(error, "confirm the subscription");
  }
  if (
    session.mode !== "subscription" ||
    session.metadata?.atrium_workspace !== workspaceId ||
    (customerId !== null && session.metadata?.atrium_customer !== customerId)
  )
    throw notFound("That subscription checkout is not yours");
  if (session.status !== "complete" || !session.subscription) return null;
  let subscription = session.subscription;
  if (typeof subscription === "string") {
    try {
      subscription = await api.subscriptions.retrieve(subscription);
    } catch (error) {
      throw stripeFailure(error, "read the subscription");
    }
  }
  await applyStripeSubscription(services, workspaceId, subscription, seconds(), session.id);
  return subscription.id;
}

/**
 * The customer cancels (at the end of the period paid for, or of the trial) or takes the cancellation back before
 * then. Stripe first; what it answers is kept. A subscription that has ended cannot be resumed here.
 */
export async function setCancelAtPeriodEnd(
  services: Services,
  workspaceId: string,
  customerId: string,
  subscriptionId: string,
  cancel: boolean,
): Promise<void> {
  const subscriptions = subscriptionsOf(services.db, workspaceId);
  const mine = await subscriptions.ofCustomerById(customerId, subscriptionId);
  if (mine.status === "canceled" || mine.status === "incomplete_expired")
    throw conflict("This subscription has already ended");
  if (mine.cancelAtPeriodEnd === cancel) return;
  const api = await apiOf(services, workspaceId);
  let updated: Stripe.Subscription;
  try {
    updated = await api.subscriptions.update(mine.reference, { cancel_at_period_end: cancel });
  } catch (error) {
    throw stripeFailure(error, cancel ? "cancel the subscription" : "keep the subscription");
  }
  await applyStripeSubscription(services, workspaceId, updated, seconds());
}

/**
 * Ends every running subscription of a customer at Stripe now (not at the period's end): their data is about to
 * be erased, and Stripe must not go on charging a card for someone the shop no longer knows. Stripe unreachable
 * is a 503 before anything is erased (try again). One already ended at Stripe is taken as ended. A shop that no
 * longer has a working Stripe connection (disconnected, its key revoked) cannot be asked: that is logged for the
 * operator and the erasure goes on — a customer's right to erasure does not wait for the shop's keys.
 */
export async function endSubscriptionsOf(services: Services, workspaceId: string, customerId: string): Promise<number> {
  const live = (await subscriptionsOf(services.db, workspaceId).ofCustomer(customerId)).filter((s) =>
    (LIVE_STATUSES as readonly string[]).includes(s.status),
  );
  if (live.length === 0) return 0;
  const unreachable = (why: string) => {
    services.logger.warn(
      { workspace: workspaceId, subscriptions: live.map((s) => s.reference), why },
      "an erased customer's Stripe subscriptions could not be ended: end them in the Stripe dashboard",
    );
    return 0;
  };
  if (!(await connectionStatesOf(services.db, workspaceId).get("stripe"))) return unreachable("Stripe is disconnected");
  const api = await apiOf(services, workspaceId);
  let ended = 0;
  for (const subscription of live) {
    let current: Stripe.Subscription;
    try {
      current = await api.subscriptions.cancel(subscription.reference, { prorate: false });
    } catch (error) {
      if (
        error instanceof Stripe.errors.StripeAuthenticationError ||
        error instanceof Stripe.errors.StripePermissionError
      )
        return unreachable("Stripe no longer accepts the shop's key");
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError))
        throw stripeFailure(error, "end the customer's subscription");
      if (error.code === "resource_missing") continue;
      // Already canceled at Stripe (Stripe refuses to cancel it twice): read it, and keep that.
      try {
        current = await api.subscriptions.retrieve(subscription.reference);
      } catch (readError) {
        throw stripeFailure(readError, "read the customer's subscription");
      }
      if (current.status !== "canceled") throw stripeFailure(error, "end the customer's subscription");
    }
    await applyStripeSubscription(services, workspaceId, current, seconds());
    ended += 1;
  }
  return ended;
}

/**
 * A `customer.subscription.*` event: Stripe does not promise to deliver them in order, so the event only says
 * which subscription changed; its state is read from Stripe now (a failure is a 503, and Stripe sends the event
 * again). A subscription Atrium did not start is left alone.
 */
export async function refreshStripeSubscription(
  services: Services,
  workspaceId: string,
  reported: Stripe.Subscription,
): Promise<void> {
  if (!reported.metadata?.atrium_customer) return;
  const api = await apiOf(services, workspaceId);
  let current: Stripe.Subscription;
  try {
    current = await api.subscriptions.retrieve(reported.id);
  } catch (error) {
    throw stripeFailure(error, "read the subscription");
  }
  await applyStripeSubscription(services, workspaceId, current, seconds());
}

/** An invoice Stripe paid or failed to charge for one of the shop's subscriptions: recorded once as its charge. */
export async function applyStripeInvoice(
  services: Services,
  workspaceId: string,
  invoice: Stripe.Invoice,
  outcome: "paid" | "failed",
): Promise<void> {
  const details = invoice.parent?.subscription_details;
  const reference = idOf(details?.subscription);
  // Not a subscription's, or not one Atrium started (the shop's account may bill elsewhere too).
  if (!reference || !details?.metadata?.atrium_customer) return;
  const amount = outcome === "paid" ? invoice.amount_paid : invoice.amount_due;
  // The free trial's opening invoice is for nothing: not a charge to show.
  if (amount === 0) return;
  const subscriptions = subscriptionsOf(services.db, workspaceId);
  let subscription = await subscriptions.byReference("stripe", reference);
  if (!subscription) {
    // The invoice's event came before any about its subscription: read the subscription from Stripe first, so
    // the charge is not lost (a failure here is a 503, and Stripe sends the event again).
    const api = await apiOf(services, workspaceId);
    try {
      await applyStripeSubscription(services, workspaceId, await api.subscriptions.retrieve(reference), seconds());
    } catch (error) {
      throw stripeFailure(error, "read the subscription");
    }
    subscription = await subscriptions.byReference("stripe", reference);
    if (!subscription) return;
  }
  await subscriptions.recordCharge(subscription.id, {
    reference: invoice.id ?? `${reference}:${invoice.created}`,
    number: invoice.number ?? null,
    status: outcome,
    amount,
    currency: (invoice.currency ?? subscription.currency).toUpperCase(),
    hostedUrl: invoice.hosted_invoice_url ?? null,
    pdfUrl: invoice.invoice_pdf ?? null,
    occurredAt:
      iso(outcome === "paid" ? invoice.status_transitions?.paid_at : null) ??
      iso(invoice.created) ??
      new Date().toISOString(),
  });
}
