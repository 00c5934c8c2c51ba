// /shop/orders/{id}/invoice.pdf — a paid order's invoice (ADR 032), as the customer gets it. Every member reads it.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { invoiceFileName, invoicesOf, pdfResponse } from "~/modules/commerce/invoices.server";
import { ordersOf } from "~/modules/commerce/orders.server";

export const loader = page("operator", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context, "viewer");
  const order = await ordersOf(context.services.db, workspace.id).byId(params.orderId ?? "");
  const { invoice, bytes } = await invoicesOf(context.services.db, workspace.id).pdf(order.id, workspace.name);
  return pdfResponse(bytes, invoiceFileName(invoice));
});
