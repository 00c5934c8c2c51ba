// GET /api/v1/billing/overview — the signed-in customer's invoices on the site, newest first, 25 a page, each with
// its order and PDF (ADR 032), and their subscriptions as Stripe last reported them, with their charges (ADR 033).
import { pageCount, pageOf } from "~/lib/pagination.server";
import { apiRoute } from "~/lib/routes.server";
import { requireCustomer } from "~/modules/access/customer.server";
import { BillingOverviewOutput } from "~/modules/commerce/api";
import { invoicesOf } from "~/modules/commerce/invoices.server";
import { subscriptionsOf } from "~/modules/commerce/subscriptions.server";
import { PageQuery } from "~/modules/customers/api";
import { linkBase } from "~/modules/sites/address.server";

const PAGE_SIZE = 25;

export const loader = apiRoute({
  caller: "customer",
  GET: {
    summary: "The signed-in customer's invoices and subscriptions",
    query: PageQuery,
    output: BillingOverviewOutput,
    errors: [401],
    handle: async ({ request, context }) => {
      const { site, customer } = await requireCustomer(request, context);
      const invoices = invoicesOf(context.services.db, site.workspace.id);
      const paging = pageOf(request, PAGE_SIZE);
      const [list, total, subscriptions] = await Promise.all([
        invoices.ofCustomer(customer.id, paging),
        invoices.countOfCustomer(customer.id),
        subscriptionsOf(context.services.db, site.workspace.id).billingOf(customer.id),
      ]);
      const base = linkBase(context, site.workspace.slug);
      return Response.json(
        {
          invoices: list.map((i) => ({ ...i, pdf: `${base}/orders/${i.orderId}/invoice.pdf` })),
          page: paging.page,
          pages: pageCount(total, PAGE_SIZE),
          total,
          subscriptions: subscriptions.map((s) => ({
            id: s.id,
            title: s.title,
            status: s.status,
            amount: s.amount,
            currency: s.currency,
            interval: s.interval,
            intervalCount: s.every,
            trialEndsAt: s.trialEndsAt,
            currentPeriodEnd: s.currentPeriodEnd,
            cancelAtPeriodEnd: s.cancelAtPeriodEnd,
            endedAt: s.status === "canceled" ? s.canceledAt : null,
            charges: s.charges.map((c) => ({
              status: c.status,
              amount: c.amount,
              currency: c.currency,
              number: c.number,
              at: c.occurredAt,
              invoiceUrl: c.pdfUrl ?? c.hostedUrl,
            })),
          })),
        },
        { headers: { "Cache-Control": "private, no-store" } },
      );
    },
  },
});
export const action = loader;
