// GET /api/v1/billing/overview — the signed-in customer's invoices on the site, newest first, 25 a page, each with
// its order and PDF (ADR 032). Subscriptions join it with Stripe Billing (ADR 032, "Not done").
import { pageCount, pageOf } from "~/lib/pagination.server";
import { apiRoute } from "~/lib/routes.server";
import { requireCustomer } from "~/modules/access/customer.server";
import { BillingOverviewOutput } from "~/modules/commerce/api";
import { invoicesOf } from "~/modules/commerce/invoices.server";
import { PageQuery } from "~/modules/customers/api";
import { linkBase } from "~/modules/sites/address.server";

const PAGE_SIZE = 25;

export const loader = apiRoute({
  caller: "customer",
  GET: {
    summary: "The signed-in customer's invoices",
    query: PageQuery,
    output: BillingOverviewOutput,
    errors: [401],
    handle: async ({ request, context }) => {
      const { site, customer } = await requireCustomer(request, context);
      const invoices = invoicesOf(context.services.db, site.workspace.id);
      const paging = pageOf(request, PAGE_SIZE);
      const [list, total] = await Promise.all([
        invoices.ofCustomer(customer.id, paging),
        invoices.countOfCustomer(customer.id),
      ]);
      const base = linkBase(context, site.workspace.slug);
      return Response.json(
        {
          invoices: list.map((i) => ({ ...i, pdf: `${base}/orders/${i.orderId}/invoice.pdf` })),
          page: paging.page,
          pages: pageCount(total, PAGE_SIZE),
          total,
        },
        { headers: { "Cache-Control": "private, no-store" } },
      );
    },
  },
});
export const action = loader;
