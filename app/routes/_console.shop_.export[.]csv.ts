// GET /shop/export.csv — the whole catalogue as Shopify's product CSV (ADR 030): one row per variant, images as
// their addresses on the site, amounts with the currency's decimals. Every member may download it.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { exportProductCsv } from "~/modules/commerce/import.server";
import { publicOrigin } from "~/modules/hosts/hosts.server";

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context, "viewer");
  const csv = await exportProductCsv(
    context.services.db,
    workspace.id,
    await publicOrigin(request, context),
    workspace.slug,
  );
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${workspace.slug}-products.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
});
