/**
 * A customer's own orders (ADR 030), for the portal's `/{site}/orders` and the customer API's `/api/v1/orders`:
 * built for one owner — a signed-in customer (their orders) or a guest's manage link (that one order) — so
 * another customer's order is a 404, never a 403 that would say it exists.
 *
 * What a customer may do: see an order; resume an unpaid one (its payment instructions again); cancel one that
 * is unpaid and inside the shop's cancellation window; reorder (its items into a new cart, at today's prices).
 */
import type { Db } from "~db/client";
import { shipmentsOf } from "./shipments.server";
import { conflict, notFound } from "~/lib/errors";
import { now } from "~/lib/clock.server";
import { ordersOf, type Order, type OrderLine, type ReleaseCheckout } from "./orders.server";
import { paymentStartOf } from "./checkout.server";
import { commerceSettingsOf } from "./settings.server";

export type OrderOwner = { customerId: string } | { orderId: string };

export function customerOrdersOf(db: Db, workspaceId: string, owner: OrderOwner) {
  const orders = ordersOf(db, workspaceId);
  const own = async (id: string): Promise<Order> => {
    if ("customerId" in owner) return orders.ofCustomer(owner.customerId, id);
    if (owner.orderId !== id) throw notFound("That order was not found");
    return orders.byId(id);
  };

  async function cancellable(order: Order): Promise<boolean> {
    if (order.status !== "pending") return false;
    const { cancelWindowHours } = await commerceSettingsOf(db, workspaceId).get();
    return now().getTime() - Date.parse(order.createdAt) <= cancelWindowHours * 3_600_000;
  }

  return {
    async list(page: { size: number; offset: number }): Promise<Order[]> {
      if ("orderId" in owner) return [await own(owner.orderId)];
      return orders.list({ customerId: owner.customerId, ...page });
    },
    async count(): Promise<number> {
      if ("orderId" in owner) return 1;
      return orders.count({ customerId: owner.customerId });
    },
    async detail(id: string) {
      const order = await own(id);
      const [lines, payment, canCancel, packages] = await Promise.all([
        orders.linesOf(id),
        order.status === "pending" ? paymentStartOf(db, workspaceId, order) : null,
        cancellable(order),
        shipmentsOf(db, workspaceId).ofOrder(id),
      ]);
      // What a customer sees of a package: not the label, its cost or the provider's ids.
      const shipments = packages.map((s) => ({
        id: s.id,
        carrier: s.carrier,
        service: s.service,
        trackingNumber: s.trackingNumber,
        trackingUrl: s.trackingUrl,
        status: s.status,
        statusLabel: s.statusLabel,
        estimatedDelivery: s.estimatedDelivery,
        deliveredAt: s.deliveredAt,
        createdAt: s.createdAt,
        lines: s.lines,
        steps: s.steps,
      }));
      return { order, lines, payment, canCancel, shipments };
    },
    /**
     * `release` asks a card order's provider first (its open checkout expired); when the provider says the order
     * was paid meanwhile, the payment stands and the answer is the paid order.
     */
    async cancel(id: string, origin: string, release?: ReleaseCheckout): Promise<Order> {
      const order = await own(id);
      if (!(await cancellable(order)))
        throw conflict(
          order.status === "pending"
            ? "This order can no longer be cancelled online. Please contact the shop."
            : "A paid or sent order cannot be cancelled online. Please contact the shop.",
        );
      if (release && !(await release(workspaceId, order))) return orders.byId(id);
      return orders.cancel(id, { customer: true }, { origin });
    },
    /** The order's items, for a new cart (what is no longer sold is left out by the cart's own checks). */
    async reorderLines(
      id: string,
    ): Promise<Array<{ variantId: string; quantity: number; title: string; seenPrice: number }>> {
      await own(id);
      const lines = await orders.linesOf(id);
      return lines.flatMap((l: OrderLine) =>
        l.variantId
          ? [
              {
                variantId: l.variantId,
                quantity: l.quantity,
                title: l.variantTitle ? `${l.title} — ${l.variantTitle}` : l.title,
                seenPrice: l.unitPrice,
              },
            ]
          : [],
      );
    },
  };
}

/** An order as the customer API answers it. */
export function customerOrder(order: Order, lines?: readonly OrderLine[]) {
  return {
    id: order.id,
    number: order.number,
    status: order.status,
    currency: order.currency,
    subtotal: order.subtotal,
    discount: order.discount,
    shipping: order.shipping,
    tax: order.tax,
    total: order.total,
    refunded: order.refunded,
    pricesIncludeTax: order.pricesIncludeTax,
    couponCode: order.couponCode,
    shippingMethod: order.shippingMethod,
    paymentMethod: order.paymentMethod,
    email: order.email,
    name: order.name,
    address: order.address,
    createdAt: order.createdAt,
    paidAt: order.paidAt,
    cancelledAt: order.cancelledAt,
    ...(lines
      ? {
          lines: lines.map((l) => ({
            variantId: l.variantId,
            title: l.title,
            variantTitle: l.variantTitle,
            sku: l.sku,
            unitPrice: l.unitPrice,
            quantity: l.quantity,
            discount: l.discount,
            tax: l.tax,
            total: l.total,
            fulfilledQuantity: l.fulfilledQuantity,
          })),
        }
      : {}),
  };
}
