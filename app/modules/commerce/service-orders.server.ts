/**
 * Orders for what another module sells through the shop's payments (a booking's deposit or balance, ADR 036):
 * lines with no product, no delivery, paid on a connected provider's page and finalised by the same
 * `finalisePayment` as any order — so a payment reported twice is applied once, and one arriving after the order
 * was released is refunded, exactly as for goods.
 */
import type { Db } from "~db/client";
import { isUniqueViolation } from "~db/client";
import { isoNow } from "~/lib/clock.server";
import { conflict } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { recordOrderEvent } from "./orders.server";
import { paymentMethods, paymentSetupOf } from "./payments.server";
import { HOSTED_PROVIDERS } from "./vocabulary";

export interface ServiceOrder {
  title: string;
  /** Shown under the title (the date and time of the booking). */
  detail: string;
  amount: number;
  currency: string;
  customer: { customerId: string | null; email: string; name: string; phone: string };
  /** `{provider}:{method}`; the first connected card provider's when absent. */
  paymentMethod?: string | null;
  /** Until when the order waits for its payment; the expiry sweep releases it then. */
  reservedUntil: string;
}

/** The card methods a service can be paid with now (manual payments cannot hold a slot for minutes). */
export async function hostedMethodsOf(db: Db, workspaceId: string) {
  return paymentMethods(await paymentSetupOf(db, workspaceId)).filter((m) =>
    (HOSTED_PROVIDERS as readonly string[]).includes(m.provider),
  );
}

/**
 * Writes the order and, in the same transaction, the caller's own record of it (`alongside`: the booking's link to
 * its deposit); answers its id. A number taken meanwhile by another order is tried again with the next.
 */
export async function placeServiceOrder(
  db: Db,
  workspaceId: string,
  input: ServiceOrder,
  alongside: (trx: Db, orderId: string) => Promise<void>,
): Promise<string> {
  const methods = await hostedMethodsOf(db, workspaceId);
  const method = input.paymentMethod ? methods.find((m) => m.id === input.paymentMethod) : methods[0];
  if (!method) {
    throw conflict(
      methods.length
        ? "Choose one of the ways to pay this business takes"
        : "This business cannot take card payments yet: contact them to book",
    );
  }
  const at = isoNow();
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const orderId = newId();
    try {
      await db.transaction().execute(async (inner) => {
        const last = await inner
          .selectFrom("orders")
          .select((eb) => eb.fn.max<number>("number").as("n"))
          .where("workspace_id", "=", workspaceId)
          .executeTakeFirst();
        await inner
          .insertInto("orders")
          .values({
            id: orderId,
            workspace_id: workspaceId,
            number: Number(last?.n ?? 1000) + 1,
            cart_id: null,
            customer_id: input.customer.customerId,
            email: input.customer.email,
            name: input.customer.name,
            phone: input.customer.phone || null,
            address: null,
            currency: input.currency,
            subtotal: input.amount,
            discount: 0,
            shipping: 0,
            tax: 0,
            total: input.amount,
            refunded: 0,
            prices_include_tax: 1,
            coupon_id: null,
            coupon_code: null,
            shipping_method: "No delivery needed",
            payment_provider: method.provider,
            payment_method: method.id,
            status: "pending",
            reserved_until: input.reservedUntil,
            paid_at: null,
            fulfilled_at: null,
            cancelled_at: null,
            cancel_reason: null,
            erased_at: null,
            created_at: at,
            updated_at: at,
          })
          .execute();
        await inner
          .insertInto("order_lines")
          .values({
            id: newId(),
            workspace_id: workspaceId,
            order_id: orderId,
            product_id: null,
            variant_id: null,
            title: input.title,
            variant_title: input.detail,
            sku: null,
            unit_price: input.amount,
            quantity: 1,
            discount: 0,
            tax: 0,
            total: input.amount,
            weight_grams: 0,
            fulfilled_quantity: 0,
            position: 0,
          })
          .execute();
        await recordOrderEvent(
          inner,
          workspaceId,
          orderId,
          "placed",
          { total: input.amount, paymentMethod: method.id },
          null,
        );
        await alongside(inner, orderId);
      });
      return orderId;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw conflict("The shop is very busy; please try again");
}
