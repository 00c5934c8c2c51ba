// POST /api/editor/pages/{id}/publish — publishes the saved draft: the public sees it from the next request.
import { apiRoute } from "~/lib/routes.server";
import { NO_STORE, editorPages } from "~/modules/sites/editor-api.server";

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  POST: async ({ request, context, params }) => {
    const { pages, actor, json } = await editorPages(request, context, "editor");
    return Response.json(json(await pages.publish(actor, params.pageId!)), { headers: NO_STORE });
  },
});

export const action = loader;
