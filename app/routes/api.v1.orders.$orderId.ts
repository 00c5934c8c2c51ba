// GET /api/v1/orders/{id} — one of the signed-in customer's orders with its lines, how to pay it while unpaid,
// and whether it may still be cancelled (ADR 030). Another customer's order is a 404.
import { apiRoute } from "~/lib/routes.server";
import { requireCustomer } from "~/modules/access/customer.server";
import { OrderDetailOutput } from "~/modules/commerce/api";
import { customerOrder, customerOrdersOf } from "~/modules/commerce/customer-orders.server";

export const loader = apiRoute({
  caller: "customer",
  GET: {
    summary: "One of the signed-in customer's orders",
    output: OrderDetailOutput,
    errors: [401, 404],
    handle: async ({ request, params, context }) => {
      const { site, customer } = await requireCustomer(request, context);
      const mine = customerOrdersOf(context.services.db, site.workspace.id, { customerId: customer.id });
      const { order, lines, payment, canCancel, shipments } = await mine.detail(params.orderId ?? "");
      return Response.json(
        { ...customerOrder(order, lines), payment, canCancel, shipments },
        { headers: { "Cache-Control": "private, no-store" } },
      );
    },
  },
});
export const action = loader;
