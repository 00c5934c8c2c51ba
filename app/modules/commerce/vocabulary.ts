/**
 * The shop's words and shapes that pages render as well as modules use (ADR 030): product and order states, and
 * how a variant is named by its option values. Plain data and functions, no server imports: components import it.
 */

export const PRODUCT_STATUSES = ["draft", "active", "archived"] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

export const ORDER_STATUSES = [
  "pending",
  "paid",
  "partially_fulfilled",
  "fulfilled",
  "completed",
  "cancelled",
  "refunded",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: "Awaiting payment",
  paid: "Paid",
  partially_fulfilled: "Partly sent",
  fulfilled: "Sent",
  completed: "Completed",
  cancelled: "Cancelled",
  refunded: "Refunded",
};

/** Variants are told apart by their option values; the empty key is a product without options. */
export const optionKey = (values: readonly string[]) => values.join(" / ");

/** Every combination of the options' values, in the order a shop owner reads them. */
export function combinations(options: ReadonlyArray<{ values: readonly string[] }>): string[][] {
  return options.reduce<string[][]>((acc, o) => acc.flatMap((prefix) => o.values.map((v) => [...prefix, v])), [[]]);
}

let regions: Intl.DisplayNames | undefined;

/** A country's name in English for an address ("GB" → "United Kingdom"); the code itself if Intl has none. */
export function countryName(code: string): string {
  regions ??= new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });
  try {
    return regions.of(code) ?? code;
  } catch {
    return code;
  }
}

/** The one-time sorts a collection's manual order can start from (the console's "Sort once by"). */
export const ARRANGEMENTS = ["title", "newest", "price"] as const;
export type Arrangement = (typeof ARRANGEMENTS)[number];

/** How often a subscription product is charged (ADR 033): Stripe Billing's intervals, days left out. */
export const SUBSCRIPTION_INTERVALS = ["week", "month", "year"] as const;
export type SubscriptionInterval = (typeof SUBSCRIPTION_INTERVALS)[number];

export interface SubscriptionPlan {
  interval: SubscriptionInterval;
  /** Every this many intervals (every 2 weeks, every 3 months). */
  every: number;
  trialDays: number;
}

/** "month", "2 weeks", "year": what a price is per ("£9.00 / month", "every 2 weeks"). */
export function planPeriod(plan: Pick<SubscriptionPlan, "interval" | "every">): string {
  return plan.every === 1 ? plan.interval : `${plan.every} ${plan.interval}s`;
}

/** "£9.00 / month", "£20.00 every 2 weeks". */
export function planPrice(price: string, plan: Pick<SubscriptionPlan, "interval" | "every">): string {
  return plan.every === 1 ? `${price} / ${plan.interval}` : `${price} every ${planPeriod(plan)}`;
}

export const SUBSCRIPTION_STATUS_LABELS: Record<string, string> = {
  incomplete: "Waiting for the first payment",
  incomplete_expired: "Never started",
  trialing: "Free trial",
  active: "Active",
  past_due: "Payment failed",
  unpaid: "Unpaid",
  canceled: "Ended",
  paused: "Paused",
};
