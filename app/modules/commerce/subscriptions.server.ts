/**
 * Customers' subscriptions (issue 18, ADR 033), as their provider last reported them. Stripe Billing owns the
 * schedule — it charges each period, retries a failed card, ends the subscription — and Atrium keeps what it says:
 * the status, the period the subscription is in, whether it ends at that period's end, and each charge once.
 *
 * Events come in any order and more than once (the customer's return, `checkout.session.completed`,
 * `customer.subscription.*`): a state is written with the time the provider said it (`provider_updated_at`, the
 * event's `created` or the moment of a read), and a write older than what is kept changes nothing, so a late
 * `customer.subscription.created` never brings back a cancelled subscription.
 */
import { sql } from "kysely";
import type { Db } from "~db/client";
import type { Selectable } from "kysely";
import type { SubscriptionsTable } from "~db/schema";
import { isoNow } from "~/lib/clock.server";
import { notFound } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import type { SubscriptionInterval } from "./vocabulary";

/** Statuses in which the subscription still runs (and a second one to the same product is refused). */
export const LIVE_STATUSES = ["trialing", "active", "past_due", "unpaid", "incomplete", "paused"] as const;

export interface Subscription {
  id: string;
  customerId: string;
  productId: string | null;
  variantId: string | null;
  title: string;
  provider: string;
  reference: string;
  status: string;
  amount: number;
  currency: string;
  interval: SubscriptionInterval;
  every: number;
  trialEndsAt: string | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: string | null;
  createdAt: string;
}

export interface SubscriptionCharge {
  reference: string;
  number: string | null;
  status: "paid" | "failed";
  amount: number;
  currency: string;
  hostedUrl: string | null;
  pdfUrl: string | null;
  occurredAt: string;
}

/** What a provider reports of one subscription, with who it is for (from the metadata Atrium gave it). */
export interface SubscriptionState {
  provider: string;
  reference: string;
  customerId: string;
  productId: string | null;
  variantId: string | null;
  title: string;
  checkoutReference: string | null;
  providerCustomer: string | null;
  status: string;
  amount: number;
  currency: string;
  interval: SubscriptionInterval;
  every: number;
  trialEndsAt: string | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: string | null;
  /** Unix seconds of the event (or read) this state is from. */
  at: number;
}

function toSubscription(r: Selectable<SubscriptionsTable>): Subscription {
  return {
    id: r.id,
    customerId: r.customer_id,
    productId: r.product_id,
    variantId: r.variant_id,
    title: r.title,
    provider: r.provider,
    reference: r.reference,
    status: r.status,
    amount: r.amount,
    currency: r.currency,
    interval: r.interval as SubscriptionInterval,
    every: r.interval_count,
    trialEndsAt: r.trial_ends_at,
    currentPeriodEnd: r.current_period_end,
    cancelAtPeriodEnd: !!r.cancel_at_period_end,
    canceledAt: r.canceled_at,
    createdAt: r.created_at,
  };
}

export function subscriptionsOf(db: Db, workspaceId: string) {
  const rows = () => db.selectFrom("subscriptions").where("workspace_id", "=", workspaceId);
  return {
    /** A customer's subscriptions, running ones first, then newest first. */
    async ofCustomer(customerId: string): Promise<Subscription[]> {
      const list = await rows()
        .selectAll()
        .where("customer_id", "=", customerId)
        .orderBy("created_at", "desc")
        .limit(100)
        .execute();
      const live = (s: Subscription) => (LIVE_STATUSES as readonly string[]).includes(s.status);
      const all = list.map(toSubscription);
      return [...all.filter(live), ...all.filter((s) => !live(s))];
    },

    /** A customer's subscriptions with their latest charges: what the billing page and overview show. */
    async billingOf(customerId: string): Promise<Array<Subscription & { charges: SubscriptionCharge[] }>> {
      const list = await this.ofCustomer(customerId);
      const charges = await this.chargesOf(list.map((s) => s.id));
      return list.map((s) => ({ ...s, charges: charges.get(s.id) ?? [] }));
    },

    /** One of the customer's own; another customer's is not found, as if it did not exist. */
    async ofCustomerById(customerId: string, id: string): Promise<Subscription> {
      const row = await rows()
        .selectAll()
        .where("customer_id", "=", customerId)
        .where("id", "=", id)
        .executeTakeFirst();
      if (!row) throw notFound("That subscription was not found");
      return toSubscription(row);
    },

    async byReference(provider: string, reference: string): Promise<Subscription | null> {
      const row = await rows()
        .selectAll()
        .where("provider", "=", provider)
        .where("reference", "=", reference)
        .executeTakeFirst();
      return row ? toSubscription(row) : null;
    },

    /** The customer's running subscription to this product, if any. */
    async liveFor(customerId: string, productId: string): Promise<Subscription | null> {
      const row = await rows()
        .selectAll()
        .where("customer_id", "=", customerId)
        .where("product_id", "=", productId)
        .where("status", "in", [...LIVE_STATUSES])
        .executeTakeFirst();
      return row ? toSubscription(row) : null;
    },

    /** Every subscription of the shop, newest first, for the console; `status` narrows to running or ended. */
    async list(page: { size: number; offset: number }, which: "live" | "ended" | "all" = "all") {
      let query = db
        .selectFrom("subscriptions as s")
        .innerJoin("customers as c", "c.id", "s.customer_id")
        .where("s.workspace_id", "=", workspaceId);
      if (which === "live") query = query.where("s.status", "in", [...LIVE_STATUSES]);
      if (which === "ended") query = query.where("s.status", "not in", [...LIVE_STATUSES]);
      const [list, count] = await Promise.all([
        query
          .selectAll("s")
          .select(["c.email as customer_email", "c.name as customer_name"])
          .orderBy("s.created_at", "desc")
          .orderBy("s.id")
          .limit(page.size)
          .offset(page.offset)
          .execute(),
        query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
      ]);
      return {
        subscriptions: list.map((r) => ({
          ...toSubscription(r),
          customer: { email: r.customer_email, name: r.customer_name },
        })),
        total: Number(count.n),
      };
    },

    /**
     * Writes what the provider reported, unless what is kept is newer: inserted the first time (whichever of the
     * return and the events comes first), updated by later ones. One statement, so two at once cannot both insert.
     * Answers false when the customer is not this workspace's (nothing written).
     */
    async apply(state: SubscriptionState): Promise<boolean> {
      const customer = await db
        .selectFrom("customers")
        .select("id")
        .where("workspace_id", "=", workspaceId)
        .where("id", "=", state.customerId)
        .executeTakeFirst();
      if (!customer) return false;
      const product = state.productId
        ? await db
            .selectFrom("products")
            .select("id")
            .where("workspace_id", "=", workspaceId)
            .where("id", "=", state.productId)
            .executeTakeFirst()
        : undefined;
      const at = isoNow();
      const changing = {
        status: state.status,
        amount: state.amount,
        currency: state.currency,
        interval: state.interval,
        interval_count: state.every,
        trial_ends_at: state.trialEndsAt,
        current_period_end: state.currentPeriodEnd,
        cancel_at_period_end: state.cancelAtPeriodEnd ? 1 : 0,
        canceled_at: state.canceledAt,
        provider_updated_at: state.at,
        updated_at: at,
      };
      await db
        .insertInto("subscriptions")
        .values({
          id: newId(),
          workspace_id: workspaceId,
          customer_id: customer.id,
          product_id: product?.id ?? null,
          variant_id: product ? state.variantId : null,
          title: state.title,
          provider: state.provider,
          reference: state.reference,
          checkout_reference: state.checkoutReference,
          provider_customer: state.providerCustomer,
          created_at: at,
          ...changing,
        })
        .onConflict((oc) =>
          oc
            .columns(["workspace_id", "provider", "reference"])
            .doUpdateSet(changing)
            .where(sql<boolean>`subscriptions.provider_updated_at <= ${state.at}`),
        )
        .execute();
      return true;
    },

    /**
     * A charge the provider made (an invoice paid or failed), once by its id; a failed one that is paid later
     * (the customer paid the invoice, or a retry succeeded) becomes paid, never the other way.
     */
    async recordCharge(subscriptionId: string, charge: SubscriptionCharge): Promise<void> {
      await db
        .insertInto("subscription_charges")
        .values({
          id: newId(),
          workspace_id: workspaceId,
          subscription_id: subscriptionId,
          reference: charge.reference,
          number: charge.number,
          status: charge.status,
          amount: charge.amount,
          currency: charge.currency,
          hosted_url: charge.hostedUrl,
          pdf_url: charge.pdfUrl,
          occurred_at: charge.occurredAt,
        })
        .onConflict((oc) =>
          oc
            .columns(["workspace_id", "reference"])
            .doUpdateSet({
              status: charge.status,
              amount: charge.amount,
              number: charge.number,
              hosted_url: charge.hostedUrl,
              pdf_url: charge.pdfUrl,
              occurred_at: charge.occurredAt,
            })
            .where(sql<boolean>`subscription_charges.status <> 'paid'`),
        )
        .execute();
    },

    /** The latest charges of these subscriptions, newest first, at most `per` each. */
    async chargesOf(subscriptionIds: string[], per = 6): Promise<Map<string, SubscriptionCharge[]>> {
      const out = new Map<string, SubscriptionCharge[]>();
      if (subscriptionIds.length === 0) return out;
      const list = await db
        .selectFrom("subscription_charges")
        .selectAll()
        .where("workspace_id", "=", workspaceId)
        .where("subscription_id", "in", subscriptionIds)
        .orderBy("occurred_at", "desc")
        .orderBy("id", "desc")
        .execute();
      for (const r of list) {
        const mine = out.get(r.subscription_id) ?? [];
        if (mine.length < per)
          mine.push({
            reference: r.reference,
            number: r.number,
            status: r.status as SubscriptionCharge["status"],
            amount: r.amount,
            currency: r.currency,
            hostedUrl: r.hosted_url,
            pdfUrl: r.pdf_url,
            occurredAt: r.occurred_at,
          });
        out.set(r.subscription_id, mine);
      }
      return out;
    },
  };
}
