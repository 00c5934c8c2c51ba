// /customers/{id}/export — everything the workspace holds about one customer, as JSON (a data-access request).
// Recorded in the audit log with the member who exported it. Another workspace's customer is a 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { exportCustomer } from "~/modules/customers/privacy.server";

export const loader = page("operator", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { session, workspace } = await requireWorkspace(request, context, "editor");
  const id = params.customerId ?? "";
  const data = await exportCustomer(context.services.db, workspace.id, id, { userId: session.user.id });
  return new Response(JSON.stringify(data, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="customer-${id}.json"`,
      "Cache-Control": "private, no-store",
    },
  });
});
