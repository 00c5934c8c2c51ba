// GET /api/editor/shop — the catalogue's setup and the shop's readiness for the selected workspace (ADR 030): the
// checklist the console's Shop page shows (currency, payments, delivery, policies, an active product), with
// how many products there are in each state.
import { apiRoute } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { productsOf } from "~/modules/commerce/catalogue.server";
import { ShopSetupOutput } from "~/modules/commerce/api";
import { shopReadiness } from "~/modules/commerce/readiness.server";

export const loader = apiRoute({
  caller: "operator",
  // The console's own family, like the other /api/editor routes: not in the public API reference.
  internal: true,
  GET: {
    summary: "Product catalogue setup and commerce readiness",
    output: ShopSetupOutput,
    errors: [401, 404],
    handle: async ({ request, context }) => {
      const { workspace } = await requireWorkspace(request, context, "viewer", "api");
      const products = productsOf(context.services.db, workspace.id);
      const [readiness, active, draft, archived] = await Promise.all([
        shopReadiness(context.services.db, workspace.id),
        products.count({ status: "active" }),
        products.count({ status: "draft" }),
        products.count({ status: "archived" }),
      ]);
      return Response.json(
        { ready: readiness.every((i) => i.done), readiness, products: { active, draft, archived } },
        { headers: { "Cache-Control": "private, no-store" } },
      );
    },
  },
});
export const action = loader;
