/**
 * The hosted card providers (Stripe, PayPal) behind one set of calls, so the storefront, the console, the
 * customer API and the expiry sweep name no provider (ADR 032, 035): open the order's payment page, release it
 * before an unpaid order goes, refund through whichever provider took the money.
 */
import type { AppServices } from "~/lib/context";
import { conflict } from "~/lib/errors";
import type { Order, ReleaseCheckout } from "./orders.server";
import { paypalCheckoutFor, refundThroughPayPal, releasePayPalCheckout, settlePayPalOrder } from "./paypal.server";
import { confirmStripeReturn, refundThroughStripe, releaseStripeCheckout, stripeCheckoutFor } from "./stripe.server";

type Services = Pick<AppServices, "db" | "secrets" | "env" | "logger">;

/**
 * The order's payment page at its provider: the customer comes back to `orderUrl` (Stripe adds its session,
 * PayPal its token), or to `cancelUrl` when they give up there.
 */
export async function hostedCheckoutFor(
  services: Services,
  workspaceId: string,
  order: Order,
  urls: { orderUrl: string; cancelUrl: string; origin: string; site: string; brand: string },
): Promise<string> {
  if (order.paymentProvider === "stripe")
    return stripeCheckoutFor(services, workspaceId, order, { success: urls.orderUrl, cancel: urls.cancelUrl });
  if (order.paymentProvider === "paypal")
    return paypalCheckoutFor(
      services,
      workspaceId,
      order,
      {
        success: urls.orderUrl,
        cancel: urls.cancelUrl,
        callback: paypalCallbackUrl(services, workspaceId, order, urls),
      },
      urls.brand,
    );
  throw conflict("This order is not paid on a provider's page");
}

/**
 * Where PayPal asks the new price when the buyer changes the address (`POST /api/v1/checkout/paypal/status`):
 * the address carries a token sealed to this workspace and order, as PayPal sends the callback unsigned.
 */
export function paypalCallbackUrl(
  services: Pick<AppServices, "secrets">,
  workspaceId: string,
  order: Pick<Order, "id">,
  urls: { origin: string; site: string },
): string {
  const token = services.secrets.seal(order.id, callbackBinding(workspaceId, order.id));
  const query = new URLSearchParams({ site: urls.site, order: order.id, callback: token });
  return `${urls.origin}/api/v1/checkout/paypal/status?${query}`;
}

export const callbackBinding = (workspaceId: string, orderId: string) => `paypal_callback:${workspaceId}:${orderId}`;

/** Before an unpaid order is released: its provider's page is closed first (false: it was paid meanwhile). */
export async function releaseHostedCheckout(services: Services, workspaceId: string, order: Order, origin: string) {
  if (order.paymentProvider === "paypal") return releasePayPalCheckout(services, workspaceId, order, origin);
  return releaseStripeCheckout(services, workspaceId, order, origin);
}

/** The release check the expiry sweep and a customer's cancellation ask before an unpaid order goes. */
export const cardRelease =
  (services: Services, origin: string): ReleaseCheckout =>
  (workspaceId, order) =>
    releaseHostedCheckout(services, workspaceId, order, origin);

/** A console refund through the provider that took the money; answers the provider's refund id. */
export async function refundThroughProvider(services: Services, workspaceId: string, order: Order, amount: number) {
  if (order.paymentProvider === "paypal") return refundThroughPayPal(services, workspaceId, order, amount);
  if (order.paymentProvider === "stripe") return refundThroughStripe(services, workspaceId, order, amount);
  throw conflict("This order was not paid through a provider");
}

/**
 * The customer's return from the provider's page (Stripe adds `session_id`, PayPal `token`): the payment is
 * confirmed with the provider and applied — once, whether its event came first or comes later. Answers whether
 * it was applied, is still being confirmed (`confirming`: show "confirming your payment"), or nothing happened
 * (no return, another provider's, an abandoned approval). A provider that cannot be reached is logged, not thrown:
 * the event applies it later.
 */
export async function settleHostedReturn(
  services: Services,
  workspaceId: string,
  order: Order,
  search: URLSearchParams,
  origin: string,
): Promise<"applied" | "confirming" | "none"> {
  const sessionId = search.get("session_id");
  const paypalToken = search.get("token");
  const settle =
    order.paymentProvider === "stripe" && sessionId
      ? () => confirmStripeReturn(services, workspaceId, order, sessionId, origin)
      : order.paymentProvider === "paypal" && paypalToken && paypalToken === order.checkoutReference
        ? () => settlePayPalOrder(services, workspaceId, paypalToken, origin)
        : null;
  if (order.status !== "pending" || !settle) return "none";
  const settled = await settle().catch((error: unknown) => {
    services.logger.warn({ err: error, order: order.id }, "a return from the payment page could not be confirmed");
    return "not_paid" as const;
  });
  if (["paid", "already", "refunded_late", "refunded_duplicate"].includes(settled)) return "applied";
  // Paid but not yet confirmed by the provider (Stripe's session, a PayPal capture still clearing); a PayPal
  // approval abandoned on its page comes back here too, and simply offers to pay again.
  return settled === "not_paid" || settled === "capture_pending" ? "confirming" : "none";
}
