// GET /api/editor/discovery/seo/pages — every page of the site with its search settings (viewer).
import { apiRoute } from "~/lib/routes.server";
import { NO_STORE, editorDiscovery } from "~/modules/discovery/editor-api.server";

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  GET: {
    summary: "The pages' search settings",
    handle: async ({ request, context }) => {
      const { discovery } = await editorDiscovery(request, context);
      return Response.json({ pages: await discovery.pages() }, { headers: NO_STORE });
    },
  },
});

export const action = loader;
