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

/** A shipment's tracking state: EasyPost's tracker statuses, which a manual shipment shares (ADR 034). */
export const SHIPMENT_STATUSES = [
  "unknown",
  "pre_transit",
  "in_transit",
  "out_for_delivery",
  "delivered",
  "available_for_pickup",
  "return_to_sender",
  "failure",
  "cancelled",
  "error",
] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];

export const SHIPMENT_STATUS_LABELS: Record<ShipmentStatus, string> = {
  unknown: "Waiting for the carrier",
  pre_transit: "Label created",
  in_transit: "On its way",
  out_for_delivery: "Out for delivery",
  delivered: "Delivered",
  available_for_pickup: "Ready to collect",
  return_to_sender: "Returning to sender",
  failure: "Delivery problem",
  cancelled: "Cancelled",
  error: "Tracking problem",
};

/** A provider's or a stored status as one of ours; anything unknown is "unknown". */
export const shipmentStatusOf = (s: unknown): ShipmentStatus =>
  typeof s === "string" && (SHIPMENT_STATUSES as readonly string[]).includes(s) ? (s as ShipmentStatus) : "unknown";

/** The console's package filters (/shipping?show=). */
export const SHIPMENT_FILTERS = ["all", "open", "delivered", "problem"] as const;
export type ShipmentFilter = (typeof SHIPMENT_FILTERS)[number];

/**
 * The carriers an operator can pick when they enter a tracking number by hand, with where a customer follows a
 * parcel (`{n}` is the tracking number). "Other" takes the operator's own tracking link.
 */
export const CARRIERS: ReadonlyArray<{ id: string; name: string; trackingUrl: string | null }> = [
  { id: "ups", name: "UPS", trackingUrl: "https://www.ups.com/track?tracknum={n}" },
  { id: "usps", name: "USPS", trackingUrl: "https://tools.usps.com/go/TrackConfirmAction?tLabels={n}" },
  { id: "fedex", name: "FedEx", trackingUrl: "https://www.fedex.com/fedextrack/?trknbr={n}" },
  {
    id: "dhl",
    name: "DHL Express",
    trackingUrl: "https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id={n}",
  },
  {
    id: "dhl-paket",
    name: "DHL Paket",
    trackingUrl: "https://www.dhl.de/en/privatkunden/pakete-empfangen/verfolgen.html?piececode={n}",
  },
  { id: "dpd", name: "DPD", trackingUrl: "https://tracking.dpd.de/status/en_US/parcel/{n}" },
  { id: "gls", name: "GLS", trackingUrl: "https://gls-group.com/track/{n}" },
  {
    id: "royal-mail",
    name: "Royal Mail",
    trackingUrl: "https://www.royalmail.com/track-your-item#/tracking-results/{n}",
  },
  { id: "evri", name: "Evri", trackingUrl: "https://www.evri.com/track/parcel/{n}" },
  { id: "postnl", name: "PostNL", trackingUrl: "https://jouw.postnl.nl/track-and-trace/{n}" },
  {
    id: "canada-post",
    name: "Canada Post",
    trackingUrl: "https://www.canadapost-postescanada.ca/track-reperez/en#/search?searchFor={n}",
  },
  { id: "australia-post", name: "Australia Post", trackingUrl: "https://auspost.com.au/mypost/track/details/{n}" },
  { id: "other", name: "Other", trackingUrl: null },
];

/** Where a customer follows a parcel of a listed carrier, or null (another carrier: the operator's link). */
export function carrierTrackingUrl(carrierId: string, trackingNumber: string): string | null {
  const template = CARRIERS.find((c) => c.id === carrierId)?.trackingUrl;
  return template && trackingNumber ? template.replace("{n}", encodeURIComponent(trackingNumber)) : null;
}

/** Payment providers by name, as customers and operators read them. */
export const PAYMENT_PROVIDER_NAMES: Record<string, string> = {
  manual: "Manual",
  stripe: "Stripe",
  paypal: "PayPal",
};
export const providerName = (provider: string) => PAYMENT_PROVIDER_NAMES[provider] ?? provider;

/** The providers paid on their own hosted page (ADR 032, 035): paid, released and refunded through them. */
export const HOSTED_PROVIDERS = ["stripe", "paypal"] as const;
export const isHosted = (provider: string) => (HOSTED_PROVIDERS as readonly string[]).includes(provider);
