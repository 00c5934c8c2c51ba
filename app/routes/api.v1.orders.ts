// GET /api/v1/orders — the signed-in customer's orders on the site, newest first, 25 a page (ADR 030).
import { pageCount, pageOf } from "~/lib/pagination.server";
import { apiRoute } from "~/lib/routes.server";
import { requireCustomer } from "~/modules/access/customer.server";
import { OrderListOutput } from "~/modules/commerce/api";
import { customerOrder, customerOrdersOf } from "~/modules/commerce/customer-orders.server";
import { PageQuery } from "~/modules/customers/api";

const PAGE_SIZE = 25;

export const loader = apiRoute({
  caller: "customer",
  GET: {
    summary: "The signed-in customer's orders",
    query: PageQuery,
    output: OrderListOutput,
    errors: [401],
    handle: async ({ request, context }) => {
      const { site, customer } = await requireCustomer(request, context);
      const mine = customerOrdersOf(context.services.db, site.workspace.id, { customerId: customer.id });
      const paging = pageOf(request, PAGE_SIZE);
      const [orders, total] = await Promise.all([mine.list(paging), mine.count()]);
      return Response.json(
        { orders: orders.map((o) => customerOrder(o)), page: paging.page, pages: pageCount(total, PAGE_SIZE), total },
        { headers: { "Cache-Control": "private, no-store" } },
      );
    },
  },
});
export const action = loader;
