// /{site}/profile/export — the signed-in customer downloads everything the business holds about them, as JSON
// (ADR 029). Recorded in the audit log. Never cached.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { page } from "~/lib/routes.server";
import { requirePortalCustomer } from "~/modules/access/customer.server";
import { PRIVATE } from "~/modules/customers/portal.server";
import { exportCustomer } from "~/modules/customers/privacy.server";

export const loader = page("customer", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { site, customer } = await requirePortalCustomer(request, context, params.site);
  const data = await exportCustomer(context.services.db, site.workspace.id, customer.id, { customer: true });
  return new Response(JSON.stringify(data, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${site.workspace.slug}-my-data.json"`,
      ...PRIVATE,
    },
  });
});
