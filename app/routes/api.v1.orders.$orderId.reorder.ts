// POST /api/v1/orders/{id}/reorder — the order's items as a new cart's lines, priced today (ADR 030): the lines to
// put in the storefront's cart and their validation (what is no longer sold or in stock is named as a problem).
import { apiRoute } from "~/lib/routes.server";
import { customerWrite } from "~/modules/access/customer.server";
import { ReorderOutput } from "~/modules/commerce/api";
import { customerOrdersOf } from "~/modules/commerce/customer-orders.server";
import { quoteCart, quoteOutput } from "~/modules/commerce/quote.server";

export const loader = apiRoute({
  caller: "customer",
  POST: {
    summary: "Order the same again: the order's items as a new cart",
    output: ReorderOutput,
    errors: [401, 404, 422],
    idempotent: true,
    handle: async ({ request, params, context }) => {
      return customerWrite(request, context, async ({ site, customer }) => {
        const { db } = context.services;
        const lines = await customerOrdersOf(db, site.workspace.id, { customerId: customer.id }).reorderLines(
          params.orderId ?? "",
        );
        const quote = await quoteCart(db, site.workspace.id, { lines, buyer: `customer:${customer.id}` });
        return Response.json(
          {
            lines: lines.map((l) => ({ variantId: l.variantId, quantity: l.quantity })),
            validation: quoteOutput(quote),
          },
          { headers: { "Cache-Control": "private, no-store" } },
        );
      });
    },
  },
});
export const action = loader;
