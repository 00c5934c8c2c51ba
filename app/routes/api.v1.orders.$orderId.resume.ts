// POST /api/v1/orders/{id}/resume — continue paying an unpaid order (ADR 030): the order with its payment
// instructions (or, with a card provider, the page to pay on). A paid or cancelled order has nothing to resume: 409.
import { conflict } from "~/lib/errors";
import { apiRoute } from "~/lib/routes.server";
import { customerWrite } from "~/modules/access/customer.server";
import { OrderDetailOutput } from "~/modules/commerce/api";
import { customerOrder, customerOrdersOf } from "~/modules/commerce/customer-orders.server";

export const loader = apiRoute({
  caller: "customer",
  POST: {
    summary: "Continue paying an unpaid order",
    output: OrderDetailOutput,
    errors: [401, 404, 409, 422],
    idempotent: true,
    handle: async ({ request, params, context }) => {
      return customerWrite(request, context, async ({ site, customer }) => {
        const mine = customerOrdersOf(context.services.db, site.workspace.id, { customerId: customer.id });
        const { order, lines, payment, canCancel, shipments } = await mine.detail(params.orderId ?? "");
        if (order.status !== "pending" || !payment) throw conflict(`Order #${order.number} is not waiting for payment`);
        return Response.json(
          { ...customerOrder(order, lines), payment, canCancel, shipments },
          { headers: { "Cache-Control": "private, no-store" } },
        );
      });
    },
  },
});
export const action = loader;
