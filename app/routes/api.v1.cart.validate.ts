// POST /api/v1/cart/validate — a storefront's cart priced by the server (ADR 030): its lines at today's prices
// and stock, the coupon, tax for the address, the delivery options and the chosen one's price, and every problem
// in a form the storefront can show beside the line or field it is about. Whatever prices or total the client
// sends are only compared (a `price_changed` or `total_mismatch` problem), never used. Open to everyone on the
// site; a signed-in customer's per-customer coupon limits are checked against them.
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { siteWithOptionalCustomer } from "~/modules/access/customer.server";
import { CartValidateInput, CartValidateOutput } from "~/modules/commerce/api";
import { callerOf, idempotent } from "~/modules/customers/idempotency.server";
import { quoteCart, quoteOutput } from "~/modules/commerce/quote.server";

export const loader = apiRoute({
  caller: "customer",
  POST: {
    summary: "Price a cart from the server's prices, stock, coupons, tax and delivery rates",
    description:
      "Name the site with the X-Atrium-Site header or the site query parameter. Amounts are integers in minor " +
      "units of `currency`. `price` on a line and `total` are what the storefront shows: they are compared with " +
      "the server's and reported as problems when they differ. `ready` says whether an order could be placed as it is.",
    input: CartValidateInput,
    output: CartValidateOutput,
    errors: [400, 404, 409, 415, 422, 429],
    idempotent: true,
    handle: async ({ request, context }) => {
      const { site, customer } = await siteWithOptionalCustomer(request, context);
      const caller = callerOf(customer, context);
      return idempotent(request, context, { workspaceId: site.workspace.id, caller }, async () => {
        const input = await readJson(request, CartValidateInput, context);
        const quote = await quoteCart(context.services.db, site.workspace.id, {
          lines: input.lines.map((l) => ({ variantId: l.variantId, quantity: l.quantity, seenPrice: l.price ?? null })),
          couponCode: input.couponCode ?? null,
          address: input.address ? { country: input.address.country, region: input.address.region ?? "" } : null,
          shippingRateId: input.shippingRateId ?? null,
          buyer: customer ? `customer:${customer.id}` : null,
        });
        return Response.json(quoteOutput(quote, input.total), { headers: { "Cache-Control": "private, no-store" } });
      });
    },
  },
});
export const action = loader;
