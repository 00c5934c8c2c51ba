/**
 * Placing an order (issue 17, ADR 030). One transaction: quote the cart again from the server's prices, hold the
 * stock of each tracked line (a guarded update — `stock - reserved >= n` — so of fifty buyers of the last item
 * one gets it, on either dialect), count the coupon's use (guarded the same way, globally and per buyer), write
 * the order, its lines and timeline, and queue its e-mails. Anything refused leaves nothing behind.
 *
 * A cart is placed at most once (`orders_cart_unique`): a double click or a retry answers the order it made.
 */
import { z } from "zod";
import type { Db } from "~db/client";
import { isUniqueViolation } from "~db/client";
import { addDays, isoNow, now } from "~/lib/clock.server";
import { DomainError, conflict, invalid } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { enqueueJob } from "~/modules/jobs/jobs.server";
import { Address, cartsOf } from "./cart.server";
import {
  ORDER_MAIL_JOB,
  ordersOf,
  purgeStockOf,
  recordOrderEvent,
  type Order,
  type OrderMailPayload,
} from "./orders.server";
import { paymentMethods, paymentSetupOf, providerOf } from "./payments.server";
import { quoteCart, type Problem, type Quote } from "./quote.server";

export const Contact = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, "Enter your e-mail address")
    .max(254)
    .email("Enter an e-mail address like name@example.com"),
  name: z.string().trim().min(1, "Enter your name").max(100),
  phone: z.string().trim().max(40).default(""),
});

export interface PlaceOrder {
  cartId: string;
  contact: z.input<typeof Contact>;
  address: z.input<typeof Address> | null;
  shippingRateId: string | null;
  paymentMethod: string;
  customerId: string | null;
  origin: string;
}

/** Thrown when the cart cannot be placed as it is: the problems say why, each where it belongs. */
export class CheckoutRefused extends DomainError {
  constructor(
    message: string,
    readonly problems: Problem[],
  ) {
    // A 409 in the error contract, its issues naming the line (`lines.{variantId}`) or field each is about.
    super("conflict", message, {
      issues: problems.map((p) => ({
        field: p.field ?? (p.variantId ? `lines.${p.variantId}` : ""),
        message: p.message,
      })),
    });
  }
}

/**
 * How long an order paid on a provider's page holds its stock, and how long that page stays open: Stripe's
 * Checkout Session lives at least 30 minutes, so a retry of its creation within the first half still fits.
 */
export const HOSTED_CHECKOUT_MINUTES = 60;

export async function placeOrder(
  db: Db,
  workspaceId: string,
  input: PlaceOrder,
): Promise<{ order: Order; created: boolean }> {
  const contact = Contact.safeParse(input.contact);
  if (!contact.success)
    throw invalid(
      "Check your contact details",
      contact.error.issues.map((i) => ({ field: String(i.path[0] ?? "contact"), message: i.message })),
    );
  const orders = ordersOf(db, workspaceId);
  const cart = await cartsOf(db, workspaceId).byId(input.cartId);
  if (cart.orderId) return { order: await orders.byId(cart.orderId), created: false };

  const setup = await paymentSetupOf(db, workspaceId);
  const { settings } = setup;
  const method = paymentMethods(setup).find((m) => m.id === input.paymentMethod);
  if (!method)
    throw invalid("Choose how you want to pay", [{ field: "paymentMethod", message: "Choose how you want to pay" }]);

  const buyer = input.customerId ? `customer:${input.customerId}` : `email:${contact.data.email}`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const order = await db.transaction().execute(async (trx) => {
        const quote = await quoteCart(trx, workspaceId, {
          lines: cart.lines.map((l) => ({ variantId: l.variantId, quantity: l.quantity })),
          couponCode: cart.couponCode,
          address: input.address ? { country: input.address.country, region: input.address.region ?? "" } : null,
          shippingRateId: input.shippingRateId,
          buyer,
        });
        let address: Address | null = null;
        if (quote.requiresShipping && quote.shippingRate?.kind !== "pickup") {
          const parsed = Address.safeParse(input.address ?? {});
          if (!parsed.success)
            throw invalid(
              "Check the delivery address",
              parsed.error.issues.map((i) => ({ field: `address.${String(i.path[0])}`, message: i.message })),
            );
          address = parsed.data;
        }
        refuseUnlessReady(quote);
        const at = isoNow();
        const orderId = newId();
        // A card provider's customer pays now, on its page: the hold lasts that page's life (ADR 032), not days.
        const reservedUntil = (
          method.provider === "manual"
            ? addDays(now(), settings.holdDays)
            : new Date(now().getTime() + HOSTED_CHECKOUT_MINUTES * 60_000)
        ).toISOString();

        const last = await trx
          .selectFrom("orders")
          .select((eb) => eb.fn.max<number>("number").as("n"))
          .where("workspace_id", "=", workspaceId)
          .executeTakeFirst();
        await trx
          .insertInto("orders")
          .values({
            id: orderId,
            workspace_id: workspaceId,
            number: Number(last?.n ?? 1000) + 1,
            cart_id: cart.id,
            customer_id: input.customerId,
            email: contact.data.email,
            name: contact.data.name,
            phone: contact.data.phone || null,
            address: address ? JSON.stringify(address) : null,
            currency: quote.currency,
            subtotal: quote.totals.subtotal,
            discount: quote.totals.discount,
            shipping: quote.totals.shipping,
            tax: quote.totals.tax,
            total: quote.totals.total,
            refunded: 0,
            prices_include_tax: quote.pricesIncludeTax ? 1 : 0,
            coupon_id: quote.coupon?.id ?? null,
            coupon_code: quote.coupon?.code ?? null,
            shipping_method: quote.shippingRate?.name ?? "No delivery needed",
            payment_provider: method.provider,
            payment_method: method.id,
            status: "pending",
            reserved_until: reservedUntil,
            paid_at: null,
            fulfilled_at: null,
            cancelled_at: null,
            cancel_reason: null,
            erased_at: null,
            created_at: at,
            updated_at: at,
          })
          .execute();

        for (const [position, line] of quote.lines.entries()) {
          await trx
            .insertInto("order_lines")
            .values({
              id: newId(),
              workspace_id: workspaceId,
              order_id: orderId,
              product_id: line.productId,
              variant_id: line.variantId,
              title: line.title,
              variant_title: line.variantTitle,
              sku: line.sku,
              unit_price: line.unitPrice,
              quantity: line.quantity,
              discount: line.discount,
              tax: line.tax,
              total: line.total,
              weight_grams: line.weightGrams,
              fulfilled_quantity: 0,
              position,
            })
            .execute();
          if (line.available === null) continue;
          const held = await trx
            .updateTable("product_variants")
            .set((eb) => ({ reserved: eb("reserved", "+", line.quantity) }))
            .where("workspace_id", "=", workspaceId)
            .where("id", "=", line.variantId)
            .where((eb) => eb(eb("stock", "-", eb.ref("reserved")), ">=", line.quantity))
            .executeTakeFirst();
          if (!Number(held.numUpdatedRows))
            throw new CheckoutRefused("Someone else just bought the last of an item", [
              {
                code: "out_of_stock",
                message: `“${line.title}” just sold out`,
                blocking: true,
                variantId: line.variantId,
              },
            ]);
          await trx
            .insertInto("stock_reservations")
            .values({
              id: newId(),
              workspace_id: workspaceId,
              order_id: orderId,
              variant_id: line.variantId,
              quantity: line.quantity,
              expires_at: reservedUntil,
            })
            .execute();
        }

        if (quote.coupon) {
          const coupon = quote.coupon;
          const counted = await trx
            .updateTable("coupons")
            .set((eb) => ({ used_count: eb("used_count", "+", 1) }))
            .where("workspace_id", "=", workspaceId)
            .where("id", "=", coupon.id)
            .where("active", "=", 1)
            .where((eb) => eb.or([eb("usage_limit", "is", null), eb("used_count", "<", eb.ref("usage_limit"))]))
            .executeTakeFirst();
          const usedUp = (message: string) =>
            new CheckoutRefused(message, [{ code: "coupon_used_up", message, blocking: true, field: "couponCode" }]);
          if (!Number(counted.numUpdatedRows)) throw usedUp(`The code ${coupon.code} has just been used up`);
          const limit = coupon.perCustomerLimit;
          const mine = await trx
            .insertInto("coupon_uses")
            .values({ workspace_id: workspaceId, coupon_id: coupon.id, buyer, uses: 1 })
            .onConflict((oc) =>
              oc
                .columns(["coupon_id", "buyer"])
                .doUpdateSet((eb) => ({ uses: eb("coupon_uses.uses", "+", 1) }))
                .where((eb) => (limit === null ? eb.lit(true) : eb("coupon_uses.uses", "<", limit))),
            )
            .returning("uses")
            .executeTakeFirst();
          if (!mine) throw usedUp(`You have already used the code ${coupon.code}`);
        }

        await trx
          .updateTable("carts")
          .set({ order_id: orderId, updated_at: at })
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", cart.id)
          .execute();
        const eventId = await recordOrderEvent(
          trx,
          workspaceId,
          orderId,
          "placed",
          { total: quote.totals.total, paymentMethod: method.id },
          null,
        );
        const payload: OrderMailPayload = { orderId, kind: "placed", eventId, origin: input.origin };
        await enqueueJob(trx, { kind: ORDER_MAIL_JOB, workspaceId, payload, maxAttempts: 6 });
        return orderId;
      });
      await purgeStockOf(db, workspaceId, order);
      return { order: await orders.byId(order), created: true };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // The cart was placed by a concurrent request: that order is the answer.
      const placed = await cartsOf(db, workspaceId).byId(input.cartId);
      if (placed.orderId) return { order: await orders.byId(placed.orderId), created: false };
      // Two carts took the same order number: try again with the next.
      if (attempt >= 20) throw conflict("The shop is very busy; please try again");
    }
  }
}

function refuseUnlessReady(quote: Quote): void {
  if (quote.lines.length === 0 && quote.problems.length === 0) throw new CheckoutRefused("Your cart is empty", []);
  const blocking = quote.problems.filter((p) => p.blocking);
  if (blocking.length) throw new CheckoutRefused(blocking[0]!.message, blocking);
  if (quote.requiresShipping && !quote.shippingRate)
    throw new CheckoutRefused("Choose a delivery option", [
      { code: "no_shipping_rate", message: "Choose a delivery option", blocking: true, field: "shippingRateId" },
    ]);
}

/** What the customer does next for an unpaid order: the provider's instructions (or page). */
export async function paymentStartOf(db: Db, workspaceId: string, order: Order) {
  return providerOf(order.paymentMethod)?.start(order, await paymentSetupOf(db, workspaceId)) ?? null;
}
