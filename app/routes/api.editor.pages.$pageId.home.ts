// POST /api/editor/pages/{id}/home — makes the page the site's home page (at /{site}).
import { apiRoute } from "~/lib/routes.server";
import { NO_STORE, editorPages } from "~/modules/sites/editor-api.server";

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  POST: async ({ request, context, params }) => {
    const { pages, actor, json } = await editorPages(request, context, "editor");
    return Response.json(json(await pages.makeHome(actor, params.pageId!)), { headers: NO_STORE });
  },
});

export const action = loader;
