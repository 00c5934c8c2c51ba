/**
 * An unpaid order's delivery changed on the provider's page (PayPal's shipping callback, ADR 035): its shipping
 * and tax are priced again for the new address by ADR 030's one pricing function, from what the order keeps —
 * its lines at the prices it was placed at, its coupon as it was applied — so only what the address changes
 * moves. Stock and the coupon's use stay as the order took them.
 */
import type { Db } from "~db/client";
import { isoNow } from "~/lib/clock.server";
import { conflict } from "~/lib/errors";
import type { Address } from "./cart.server";
import { type Order, ordersOf, recordOrderEvent } from "./orders.server";
import { type PricingCoupon, priceCart } from "./pricing";
import { type RateOffer, couponsOf, shippingOf, taxRatesOf } from "./prices.server";
import { commerceSettingsOf } from "./settings.server";

export interface Repriced {
  order: Order;
  /** What this address may choose (delivery only: the order is sent, not collected). */
  offers: RateOffer[];
  rate: RateOffer;
}

/**
 * Prices the pending order for `address` with the rate `rateId` (or the one of the same name as before, or the
 * cheapest), and keeps it. Null when nothing is delivered to that address: the order is left as it was.
 */
export async function repriceForAddress(
  db: Db,
  workspaceId: string,
  orderId: string,
  address: Pick<Address, "country"> & Partial<Address>,
  rateId: string | null,
): Promise<Repriced | null> {
  return db.transaction().execute(async (trx) => {
    const order = await ordersOf(trx, workspaceId).byId(orderId);
    if (order.status !== "pending") throw conflict("This order is not waiting for a payment");
    const lines = await trx
      .selectFrom("order_lines")
      .select(["id", "product_id", "variant_id", "unit_price", "quantity", "weight_grams", "discount"])
      .where("workspace_id", "=", workspaceId)
      .where("order_id", "=", orderId)
      .orderBy("position")
      .execute();
    const collections = await trx
      .selectFrom("collection_products")
      .select(["product_id", "collection_id"])
      .where("workspace_id", "=", workspaceId)
      .where(
        "product_id",
        "in",
        lines.map((l) => l.product_id ?? ""),
      )
      .execute();
    const settings = await commerceSettingsOf(trx, workspaceId).get();
    const country = address.country.toUpperCase();
    const tax = await taxRatesOf(trx, workspaceId).forAddress(country, address.region);
    const pricing = {
      lines: lines.map((l) => ({
        key: l.id,
        productId: l.product_id ?? "",
        collectionIds: collections.filter((c) => c.product_id === l.product_id).map((c) => c.collection_id),
        unitPrice: l.unit_price,
        quantity: l.quantity,
        weightGrams: l.weight_grams,
      })),
      coupon:
        (order.couponCode ? await couponsOf(trx, workspaceId).byCode(order.couponCode) : null) ??
        (null as PricingCoupon | null),
      taxRateBp: tax?.rate_bp ?? 0,
      pricesIncludeTax: order.pricesIncludeTax,
      taxShipping: settings.taxShipping,
    };
    let draft = priceCart({ ...pricing, shipping: null });
    const given = lines.reduce((sum, l) => sum + l.discount, 0);
    if (draft.discount !== given) {
      // The coupon changed since (or is gone): the order keeps the discount it was given.
      pricing.coupon = given ? { kind: "fixed", value: given, productIds: [], collectionIds: [] } : null;
      draft = priceCart({ ...pricing, shipping: null });
    }
    const offers = (
      await shippingOf(trx, workspaceId).offers(country, draft.weightGrams, draft.subtotal - draft.discount)
    )
      .filter((r) => r.kind !== "pickup")
      .sort((a, b) => a.amount - b.amount);
    const rate =
      offers.find((r) => r.id === rateId) ?? offers.find((r) => r.name === order.shippingMethod) ?? offers[0];
    if (!rate) return null;
    const totals = priceCart({ ...pricing, shipping: rate.amount });
    const at = isoNow();
    const next: Address = {
      line1: address.line1 ?? order.address?.line1 ?? "",
      line2: address.line2 ?? order.address?.line2 ?? "",
      city: address.city ?? order.address?.city ?? "",
      postalCode: address.postalCode ?? order.address?.postalCode ?? "",
      region: (address.region ?? "").toUpperCase(),
      country,
    };
    const moved = await trx
      .updateTable("orders")
      .set({
        address: JSON.stringify(next),
        subtotal: totals.subtotal,
        discount: totals.discount,
        shipping: totals.shipping,
        tax: totals.tax,
        total: totals.total,
        shipping_method: rate.name,
        updated_at: at,
      })
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", orderId)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (!Number(moved.numUpdatedRows)) throw conflict("This order is not waiting for a payment");
    for (const line of totals.lines)
      await trx
        .updateTable("order_lines")
        .set({ discount: line.discount, tax: line.tax, total: line.total })
        .where("workspace_id", "=", workspaceId)
        .where("id", "=", line.key)
        .execute();
    if (totals.total !== order.total || country !== order.address?.country)
      await recordOrderEvent(
        trx,
        workspaceId,
        orderId,
        "repriced",
        { country, shippingMethod: rate.name, from: order.total, to: totals.total },
        null,
      );
    return { order: await ordersOf(trx, workspaceId).byId(orderId), offers, rate };
  });
}
