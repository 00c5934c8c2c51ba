/**
 * What every card provider (Stripe, PayPal) does with a payment it reports, whoever reports it — the customer's
 * return or the provider's event, in any order, twice or at once (ADR 032, 035): the order is paid once by
 * `finalisePayment`; a payment for an order released meanwhile, or for an order another payment already paid,
 * is refunded whole at once through the provider and recorded beside its refund, so a customer never pays for
 * stock back on sale nor twice for one order.
 */
import type { AppServices } from "~/lib/context";
import { DomainError } from "~/lib/errors";
import { type Order, ordersOf } from "./orders.server";

type Services = Pick<AppServices, "db">;

export type Settled = "paid" | "already" | "refunded_late" | "refunded_duplicate" | "not_paid";

export interface CardPayment {
  provider: string;
  /** The provider's id for the money taken (a PaymentIntent, a PayPal capture): unique per provider. */
  reference: string;
  amount: number;
  currency: string;
  origin: string;
}

/**
 * Gives a whole payment back through its provider (idempotent per payment at the provider: the key is the
 * reason and the payment's reference), answering the provider's refund.
 */
export type RefundWhole = (reason: "order_released" | "duplicate_payment") => Promise<{
  reference: string;
  amount: number;
}>;

export async function applyCardPayment(
  services: Services,
  workspaceId: string,
  order: Order,
  payment: CardPayment,
  refundWhole: RefundWhole,
): Promise<Settled> {
  const orders = ordersOf(services.db, workspaceId);
  const notice = { ...payment, actorUserId: null };
  if (order.status !== "cancelled") {
    try {
      const { applied, duplicate } = await orders.finalisePayment(order.id, notice);
      if (duplicate || (!applied && (await isDuplicatePayment(services, workspaceId, order.id, payment.reference)))) {
        const refund = await refundWhole("duplicate_payment");
        await orders.recordDuplicateRefund(
          order.id,
          { ...refund, provider: payment.provider, currency: payment.currency, paymentReference: payment.reference },
          payment.origin,
        );
        return "refunded_duplicate";
      }
      return applied ? "paid" : "already";
    } catch (error) {
      if (!(error instanceof DomainError && error.kind === "conflict")) throw error;
      // Cancelled meanwhile (its hold ran out between the page and the payment): refunded below.
    }
  }
  const refund = await refundWhole("order_released");
  const recorded = await orders.recordRefundedLatePayment(order.id, notice, refund);
  return recorded ? "refunded_late" : "already";
}

/** True when this payment is recorded on the order but another one paid it (a retry of an earlier refund). */
async function isDuplicatePayment(services: Services, workspaceId: string, orderId: string, reference: string) {
  const payments = await ordersOf(services.db, workspaceId).paymentsOf(orderId);
  const first = payments.find((p) => p.kind === "payment");
  return !!first && first.reference !== reference && payments.some((p) => p.reference === reference);
}
