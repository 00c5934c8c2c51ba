/**
 * A quote: what a cart costs now, from the server's own prices, stock, coupon, tax and shipping (ADR 030). The
 * cart page, the checkout, `POST /api/v1/cart/validate` and order placement all ask this one function, so what
 * a customer is shown is what they are charged — whatever a client sends as a price is only compared, never used.
 *
 * Every problem is answered in a form a storefront can show beside the line or field it is about (`code`,
 * `message`, and the `variantId` or `field`). Blocking problems stop a checkout; `price_changed` does not (the
 * new price is the one quoted), but the storefront is told so it can say it.
 */
import type { Db } from "~db/client";
import type { Cart } from "./cart.server";
import { now } from "~/lib/clock.server";
import { profileOf } from "~/modules/sites/profile.server";
import { toVariant } from "./catalogue.server";
import { formatMoney } from "./money";
import { couponApplies, priceCart, type PricingLine, type Totals } from "./pricing";
import { couponsOf, shippingOf, taxRatesOf, type Coupon, type RateOffer } from "./prices.server";
import { commerceSettingsOf } from "./settings.server";

export const MAX_LINES = 100;
export const MAX_QUANTITY = 999;

export interface QuoteAddress {
  country: string;
  region?: string | null;
}

export interface QuoteRequest {
  lines: ReadonlyArray<{ variantId: string; quantity: number; seenPrice?: number | null }>;
  couponCode?: string | null;
  address?: QuoteAddress | null;
  shippingRateId?: string | null;
  /** `customer:{id}` or `email:{address}`: whose per-customer coupon uses count. */
  buyer?: string | null;
  /** Look up each line's picture (pages show it; the API does not). */
  images?: boolean;
}

export type ProblemCode =
  | "unavailable"
  | "out_of_stock"
  | "insufficient_stock"
  | "price_changed"
  | "quantity_invalid"
  | "coupon_unknown"
  | "coupon_inactive"
  | "coupon_not_started"
  | "coupon_expired"
  | "coupon_used_up"
  | "coupon_min_subtotal"
  | "coupon_not_applicable"
  | "no_shipping_rate"
  | "shipping_rate_unavailable"
  | "total_mismatch";

export interface Problem {
  code: ProblemCode;
  message: string;
  blocking: boolean;
  variantId?: string;
  field?: "couponCode" | "address" | "shippingRateId";
  /** price_changed: the price the client had and the price now; insufficient_stock: how many are left. */
  previousPrice?: number;
  price?: number;
  available?: number;
}

export interface QuoteLine {
  variantId: string;
  productId: string;
  productSlug: string;
  title: string;
  variantTitle: string;
  sku: string | null;
  unitPrice: number;
  compareAtPrice: number | null;
  quantity: number;
  subtotal: number;
  discount: number;
  total: number;
  tax: number;
  weightGrams: number;
  requiresShipping: boolean;
  /** Null: not limited. */
  available: number | null;
  imageFileId: string | null;
}

export interface Quote {
  currency: string;
  pricesIncludeTax: boolean;
  lines: QuoteLine[];
  totals: Totals;
  coupon: Coupon | null;
  taxRate: { name: string; rateBp: number } | null;
  requiresShipping: boolean;
  /** What the cart may choose for its address (pickup always, when the shop offers it). */
  rates: RateOffer[];
  shippingRate: RateOffer | null;
  problems: Problem[];
  /** No blocking problem, and a rate chosen when something ships: the checkout may place it. */
  ready: boolean;
}

/** Whether a coupon may be used now for this subtotal and buyer; the problem when not. */
async function couponProblem(
  db: Db,
  workspaceId: string,
  coupon: Coupon,
  eligibleSubtotal: number,
  buyer: string | null | undefined,
  currency: string,
): Promise<Problem | null> {
  const at = now().toISOString();
  const base = { blocking: true, field: "couponCode" as const };
  if (!coupon.active)
    return { ...base, code: "coupon_inactive", message: `The code ${coupon.code} is no longer valid` };
  if (coupon.startsAt && at < coupon.startsAt)
    return { ...base, code: "coupon_not_started", message: `The code ${coupon.code} is not valid yet` };
  if (coupon.endsAt && at >= coupon.endsAt)
    return { ...base, code: "coupon_expired", message: `The code ${coupon.code} has expired` };
  if (coupon.usageLimit !== null && coupon.usedCount >= coupon.usageLimit)
    return { ...base, code: "coupon_used_up", message: `The code ${coupon.code} has been used up` };
  if (coupon.perCustomerLimit !== null && buyer) {
    const used = await db
      .selectFrom("coupon_uses")
      .select("uses")
      .where("workspace_id", "=", workspaceId)
      .where("coupon_id", "=", coupon.id)
      .where("buyer", "=", buyer)
      .executeTakeFirst();
    if ((used?.uses ?? 0) >= coupon.perCustomerLimit)
      return { ...base, code: "coupon_used_up", message: `You have already used the code ${coupon.code}` };
  }
  if (eligibleSubtotal === 0)
    return { ...base, code: "coupon_not_applicable", message: `The code ${coupon.code} does not apply to these items` };
  if (eligibleSubtotal < coupon.minSubtotal)
    return {
      ...base,
      code: "coupon_min_subtotal",
      message: `The code ${coupon.code} needs ${formatMoney(coupon.minSubtotal, currency)} of eligible items`,
    };
  return null;
}

export async function quoteCart(db: Db, workspaceId: string, request: QuoteRequest): Promise<Quote> {
  const [profile, settings] = await Promise.all([
    profileOf(db, workspaceId).get(),
    commerceSettingsOf(db, workspaceId).get(),
  ]);
  const currency = profile.currency;
  const problems: Problem[] = [];
  const asked = request.lines.slice(0, MAX_LINES);
  const ids = [...new Set(asked.map((l) => l.variantId))];

  // Only this workspace's variants of active products: another workspace's id is as unknown as a made-up one.
  const found = ids.length
    ? await db
        .selectFrom("product_variants as v")
        .innerJoin("products as p", "p.id", "v.product_id")
        .selectAll("v")
        .select([
          "p.slug as product_slug",
          "p.title as product_title",
          "p.status as product_status",
          "p.subscription_interval as product_subscription",
        ])
        .where("v.workspace_id", "=", workspaceId)
        .where("p.workspace_id", "=", workspaceId)
        .where("v.id", "in", ids)
        .execute()
    : [];
  const byId = new Map(found.map((row) => [row.id, row]));
  const collections = ids.length
    ? await db
        .selectFrom("collection_products as cp")
        .innerJoin("product_variants as v", "v.product_id", "cp.product_id")
        .select(["v.id as variant_id", "cp.collection_id"])
        .where("cp.workspace_id", "=", workspaceId)
        .where("v.id", "in", ids)
        .execute()
    : [];
  const images =
    found.length && request.images
      ? await db
          .selectFrom("product_images")
          .select(["id", "product_id", "file_id", "position"])
          .where("workspace_id", "=", workspaceId)
          .where("product_id", "in", [...new Set(found.map((f) => f.product_id))])
          .orderBy("position")
          .execute()
      : [];

  const priced: Array<PricingLine & { row: (typeof found)[number] }> = [];
  const seen = new Set<string>();
  for (const line of asked) {
    const row = byId.get(line.variantId);
    if (seen.has(line.variantId)) continue;
    seen.add(line.variantId);
    if (!row || row.product_status !== "active" || row.product_subscription) {
      problems.push({
        code: "unavailable",
        // A product that is now sold by subscription is subscribed to from its page, not bought in a cart (ADR 033).
        message: row?.product_subscription
          ? "This item is now sold by subscription: subscribe from its page"
          : "This item is no longer available",
        blocking: true,
        variantId: line.variantId,
      });
      continue;
    }
    if (!Number.isInteger(line.quantity) || line.quantity < 1 || line.quantity > MAX_QUANTITY) {
      problems.push({
        code: "quantity_invalid",
        message: `Choose a quantity from 1 to ${MAX_QUANTITY}`,
        blocking: true,
        variantId: row.id,
      });
      continue;
    }
    const variant = toVariant(row);
    if (variant.available !== null && variant.available < line.quantity) {
      problems.push(
        variant.available === 0
          ? { code: "out_of_stock", message: "Sold out", blocking: true, variantId: row.id, available: 0 }
          : {
              code: "insufficient_stock",
              message: `Only ${variant.available} left`,
              blocking: true,
              variantId: row.id,
              available: variant.available,
            },
      );
    }
    if (line.seenPrice !== undefined && line.seenPrice !== null && line.seenPrice !== row.price) {
      problems.push({
        code: "price_changed",
        message: `The price changed from ${formatMoney(line.seenPrice, currency)} to ${formatMoney(row.price, currency)}`,
        blocking: false,
        variantId: row.id,
        previousPrice: line.seenPrice,
        price: row.price,
      });
    }
    priced.push({
      key: row.id,
      productId: row.product_id,
      collectionIds: collections.filter((c) => c.variant_id === row.id).map((c) => c.collection_id),
      unitPrice: row.price,
      quantity: line.quantity,
      weightGrams: row.weight_grams,
      row,
    });
  }

  let coupon: Coupon | null = null;
  const code = request.couponCode?.trim();
  if (code) {
    const candidate = await couponsOf(db, workspaceId).byCode(code);
    if (!candidate) {
      problems.push({
        code: "coupon_unknown",
        message: `There is no code ${code.toUpperCase()}`,
        blocking: true,
        field: "couponCode",
      });
    } else {
      const eligible = priced
        .filter((l) => couponApplies(candidate, l))
        .reduce((s, l) => s + l.unitPrice * l.quantity, 0);
      const problem = await couponProblem(db, workspaceId, candidate, eligible, request.buyer, currency);
      if (problem) problems.push(problem);
      else coupon = candidate;
    }
  }

  const taxRow = await taxRatesOf(db, workspaceId).forAddress(request.address?.country, request.address?.region);
  const requiresShipping = priced.some((l) => l.row.requires_shipping);
  const draft = priceCart({
    lines: priced,
    coupon,
    taxRateBp: taxRow?.rate_bp ?? 0,
    pricesIncludeTax: settings.pricesIncludeTax,
    shipping: null,
    taxShipping: settings.taxShipping,
  });
  const rates = await shippingOf(db, workspaceId).offers(
    request.address?.country?.toUpperCase() ?? null,
    draft.weightGrams,
    draft.subtotal - draft.discount,
  );
  let shippingRate: RateOffer | null = null;
  if (request.shippingRateId) {
    shippingRate = rates.find((r) => r.id === request.shippingRateId) ?? null;
    if (!shippingRate)
      problems.push({
        code: "shipping_rate_unavailable",
        message: "That delivery option is not available for this address and cart",
        blocking: true,
        field: "shippingRateId",
      });
  }
  if (requiresShipping && request.address && !rates.some((r) => r.kind !== "pickup")) {
    // With pickup on offer the customer can still collect it; without, nothing can be done for this address.
    const pickup = rates.length > 0;
    problems.push({
      code: "no_shipping_rate",
      message: pickup ? "We do not deliver to this address: choose pickup" : "We do not deliver to this address yet",
      blocking: !pickup,
      field: "address",
    });
  }
  const totals = shippingRate
    ? priceCart({
        lines: priced,
        coupon,
        taxRateBp: taxRow?.rate_bp ?? 0,
        pricesIncludeTax: settings.pricesIncludeTax,
        shipping: requiresShipping ? shippingRate.amount : 0,
        taxShipping: settings.taxShipping,
      })
    : draft;

  const lines = priced.map((l, i): QuoteLine => {
    const variant = toVariant(l.row);
    const image =
      images.find((im) => im.id === l.row.image_id) ?? images.find((im) => im.product_id === l.row.product_id);
    const p = totals.lines[i]!;
    return {
      variantId: l.row.id,
      productId: l.row.product_id,
      productSlug: l.row.product_slug,
      title: l.row.product_title,
      variantTitle: variant.title,
      sku: l.row.sku,
      unitPrice: l.unitPrice,
      compareAtPrice: l.row.compare_at_price,
      quantity: l.quantity,
      subtotal: p.subtotal,
      discount: p.discount,
      total: p.total,
      tax: p.tax,
      weightGrams: l.row.weight_grams,
      requiresShipping: !!l.row.requires_shipping,
      available: variant.available,
      imageFileId: image?.file_id ?? null,
    };
  });
  const blocking = problems.some((p) => p.blocking);
  return {
    currency,
    pricesIncludeTax: settings.pricesIncludeTax,
    lines,
    totals,
    coupon,
    taxRate: taxRow ? { name: taxRow.name, rateBp: taxRow.rate_bp } : null,
    requiresShipping,
    rates,
    shippingRate,
    problems,
    ready: !blocking && lines.length > 0 && (!requiresShipping || shippingRate !== null),
  };
}

/**
 * A stored cart's quote. Before the customer gives an address, tax is estimated for the business's own country
 * (where most of a small shop's customers are), and the page says it is an estimate.
 */
export async function quoteOfCart(
  db: Db,
  workspaceId: string,
  cart: Cart,
  options: { fallbackCountry: string | null; buyer?: string | null; withShipping?: boolean },
): Promise<Quote & { estimated: boolean }> {
  const address = cart.address ?? (options.fallbackCountry ? { country: options.fallbackCountry, region: "" } : null);
  const quote = await quoteCart(db, workspaceId, {
    lines: cart.lines.map((l) => ({ variantId: l.variantId, quantity: l.quantity, seenPrice: l.seenPrice })),
    couponCode: cart.couponCode,
    address,
    shippingRateId: options.withShipping ? cart.shippingRateId : null,
    images: true,
    buyer:
      options.buyer ?? (cart.customerId ? `customer:${cart.customerId}` : cart.email ? `email:${cart.email}` : null),
  });
  if (cart.address) return { ...quote, estimated: false };
  // Delivery is not asked about until the customer says where to: an estimate's address raises no problem.
  const problems = quote.problems.filter((p) => p.field !== "address");
  return { ...quote, problems, estimated: true };
}

/**
 * A quote as `POST /api/v1/cart/validate` answers it. `clientTotal`, when the storefront sent the total it
 * shows, is compared: a stale or tampered total is a blocking problem naming the right one.
 */
export function quoteOutput(quote: Quote, clientTotal?: number) {
  const problems = [...quote.problems];
  if (clientTotal !== undefined && clientTotal !== quote.totals.total) {
    problems.push({
      code: "total_mismatch" as const,
      message: `The total is ${formatMoney(quote.totals.total, quote.currency)}, not ${formatMoney(clientTotal, quote.currency)}`,
      blocking: true,
      price: quote.totals.total,
    });
  }
  return {
    currency: quote.currency,
    pricesIncludeTax: quote.pricesIncludeTax,
    lines: quote.lines.map((l) => ({
      variantId: l.variantId,
      productId: l.productId,
      title: l.title,
      variantTitle: l.variantTitle,
      unitPrice: l.unitPrice,
      quantity: l.quantity,
      subtotal: l.subtotal,
      discount: l.discount,
      total: l.total,
      tax: l.tax,
      available: l.available,
    })),
    totals: {
      subtotal: quote.totals.subtotal,
      discount: quote.totals.discount,
      shipping: quote.totals.shipping,
      tax: quote.totals.tax,
      total: quote.totals.total,
    },
    coupon: quote.coupon ? { code: quote.coupon.code } : null,
    tax: quote.taxRate,
    shippingRates: quote.rates.map((r) => ({ id: r.id, name: r.name, kind: r.kind, amount: r.amount })),
    shippingRateId: quote.shippingRate?.id ?? null,
    problems,
    ready: quote.ready && !problems.some((p) => p.blocking),
  };
}
