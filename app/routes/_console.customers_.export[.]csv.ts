// /customers/export.csv — the customers the list's search finds (all of them without one), as CSV for a
// spreadsheet or another tool. Every member may export what they may read.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { customersCsv } from "~/modules/customers/customers.server";
import { isoNow } from "~/lib/clock.server";

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context, "viewer");
  const url = new URL(request.url);
  const csv = await customersCsv(context.services.db, workspace.id, {
    query: url.searchParams.get("q")?.trim().slice(0, 200) || undefined,
    tag: url.searchParams.get("tag")?.trim().toLowerCase().slice(0, 40) || undefined,
  });
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${workspace.slug}-customers-${isoNow().slice(0, 10)}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
});
