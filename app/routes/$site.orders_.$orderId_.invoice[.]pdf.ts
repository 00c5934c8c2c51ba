// /{site}/orders/{id}/invoice.pdf — the invoice of a paid order (ADR 032), for its customer (signed in on this site)
// or a guest holding this order's manage link; another customer's is a 404, as the order is. Never cached.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { page } from "~/lib/routes.server";
import { portalVisitor } from "~/modules/access/customer.server";
import { customerOrdersOf } from "~/modules/commerce/customer-orders.server";
import { invoiceFileName, invoicesOf, pdfResponse } from "~/modules/commerce/invoices.server";

export const loader = page("customer", async ({ request, params, context }: LoaderFunctionArgs) => {
  const id = params.orderId ?? "";
  const visitor = await portalVisitor(request, context, params.site, { type: "order", id });
  const owner =
    visitor.kind === "customer" ? { customerId: visitor.customer.id } : { orderId: visitor.grant.subjectId };
  const { order } = await customerOrdersOf(context.services.db, visitor.site.workspace.id, owner).detail(id);
  const { invoice, bytes } = await invoicesOf(context.services.db, visitor.site.workspace.id).pdf(
    order.id,
    visitor.site.workspace.name,
  );
  return pdfResponse(bytes, invoiceFileName(invoice));
});
