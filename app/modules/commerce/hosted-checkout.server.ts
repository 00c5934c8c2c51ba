/**
 * The hosted card providers (Stripe, PayPal) behind one set of calls, so the storefront, the console, the
 * customer API and the expiry sweep name no provider (ADR 032, 035): open the order's payment page, release it
 * before an unpaid order goes, refund through whichever provider took the money.
 */
import type { AppServices } from "~/lib/context";
import { conflict } from "~/lib/errors";
import type { Order, ReleaseCheckout } from "./orders.server";
import { paypalCheckoutFor, refundThroughPayPal, releasePayPalCheckout } from "./paypal.server";
import { refundThroughStripe, releaseStripeCheckout, stripeCheckoutFor } from "./stripe.server";

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
