// POST /api/v1/checkout/paypal/status — PayPal's payment and shipping updates (ADR 035). A storefront posts the
// order and the PayPal order id the customer came back with: the approval is continued (captured once, however
// many times it is asked, beside the return page and PayPal's event) and the state reported. PayPal posts its
// shipping callback here when the buyer changes the address on its page: shipping and tax are priced again for
// the new address and PayPal is answered in its own format, which updates its order.
import { readJson } from "~/lib/http.server";
import { notFound } from "~/lib/errors";
import { apiRoute } from "~/lib/routes.server";
import { requireSite } from "~/modules/access/customer.server";
import { PayPalShippingCallbackInput, PayPalStatusInput, PayPalStatusOutput } from "~/modules/commerce/api";
import { callbackBinding } from "~/modules/commerce/hosted-checkout.server";
import { ordersOf } from "~/modules/commerce/orders.server";
import { answerShippingCallback, settlePayPalOrder } from "~/modules/commerce/paypal.server";
import { mailOrigin } from "~/modules/customers/portal.server";

const NO_STORE = { "Cache-Control": "no-store" };

export const loader = apiRoute({
  caller: "customer",
  POST: {
    summary: "Continue and report a PayPal payment; PayPal's shipping callback",
    description:
      "Name the site with the X-Atrium-Site header or the site query parameter. A storefront sends `orderId` and " +
      "`paypalOrderId` (the `token` PayPal added to the return address). PayPal itself posts its server-side " +
      "shipping callback (`id`, `shipping_address`, `shipping_option`) to the callback address Atrium gave it, " +
      "and is answered as PayPal expects: 200 with the order's new amount and delivery options, or 422 with " +
      "`COUNTRY_ERROR` when the shop does not deliver there.",
    input: PayPalStatusInput,
    output: PayPalStatusOutput,
    errors: [400, 404, 409, 415, 422, 429, 503],
    idempotent: true,
    handle: async ({ request, context }) => {
      const site = await requireSite(request, context);
      const workspaceId = site.workspace.id;
      const query = new URL(request.url).searchParams;
      const sealed = query.get("callback");
      if (sealed) {
        const orderId = query.get("order") ?? "";
        let opened = "";
        try {
          opened = context.services.secrets.open(sealed, callbackBinding(workspaceId, orderId));
        } catch {
          opened = "";
        }
        // The same 404 for a made-up token as for an unknown order: the address is PayPal's to know, no one else's.
        if (!opened || opened !== orderId) throw notFound("No PayPal checkout at this address");
        const body = await readJson(request, PayPalShippingCallbackInput, context);
        const answer = await answerShippingCallback(context.services, workspaceId, orderId, {
          id: body.id,
          shippingAddress: {
            countryCode: body.shipping_address.country_code,
            adminArea1: body.shipping_address.admin_area_1,
            adminArea2: body.shipping_address.admin_area_2,
            postalCode: body.shipping_address.postal_code,
          },
          shippingOptionId: body.shipping_option?.id ?? null,
        });
        return Response.json(answer.body, { status: answer.status, headers: NO_STORE });
      }
      const input = await readJson(request, PayPalStatusInput, context);
      const orders = ordersOf(context.services.db, workspaceId);
      const before = await orders.byId(input.orderId).catch(() => null);
      // The PayPal order id is what proves the caller came back from paying this order (as Stripe's session id).
      if (!before || before.paymentProvider !== "paypal" || before.checkoutReference !== input.paypalOrderId)
        throw notFound("No PayPal payment of that order");
      const settled =
        before.status === "pending"
          ? await settlePayPalOrder(
              context.services,
              workspaceId,
              input.paypalOrderId,
              await mailOrigin(request, context),
            )
          : null;
      if (settled && settled !== "not_captured" && settled !== "awaiting_approval") context.services.jobRunner.wake();
      const order = await orders.byId(input.orderId);
      const payment =
        settled === "refunded_late" || settled === "refunded_duplicate"
          ? "refunded"
          : settled === "awaiting_approval" || settled === "capture_pending" || settled === "not_captured"
            ? settled
            : order.status === "pending"
              ? "awaiting_approval"
              : order.status === "cancelled"
                ? "not_captured"
                : "paid";
      return Response.json(
        {
          orderId: order.id,
          status: order.status,
          payment,
          approveUrl: payment === "awaiting_approval" ? order.checkoutUrl : null,
        },
        { headers: NO_STORE },
      );
    },
  },
});

export const action = loader;
