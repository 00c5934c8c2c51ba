// POST /api/v1/orders/{id}/cancel — the customer cancels an unpaid order within the shop's cancellation window
// (ADR 030): its stock goes back on sale and the customer is e-mailed. Outside the window, or once paid: 409.
import { apiRoute } from "~/lib/routes.server";
import { customerWrite } from "~/modules/access/customer.server";
import { OrderDetailOutput } from "~/modules/commerce/api";
import { customerOrder, customerOrdersOf } from "~/modules/commerce/customer-orders.server";
import { cardRelease } from "~/modules/commerce/hosted-checkout.server";
import { mailOrigin } from "~/modules/customers/portal.server";

export const loader = apiRoute({
  caller: "customer",
  POST: {
    summary: "Cancel an unpaid order",
    output: OrderDetailOutput,
    errors: [401, 404, 409, 422],
    idempotent: true,
    handle: async ({ request, params, context }) => {
      return customerWrite(request, context, async ({ site, customer }) => {
        const mine = customerOrdersOf(context.services.db, site.workspace.id, { customerId: customer.id });
        const origin = await mailOrigin(request, context);
        await mine.cancel(params.orderId ?? "", origin, cardRelease(context.services, origin));
        context.services.jobRunner.wake();
        const { order, lines, payment, canCancel, shipments } = await mine.detail(params.orderId ?? "");
        return Response.json(
          { ...customerOrder(order, lines), payment, canCancel, shipments },
          { headers: { "Cache-Control": "private, no-store" } },
        );
      });
    },
  },
});
export const action = loader;
