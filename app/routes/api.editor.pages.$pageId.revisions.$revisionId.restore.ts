// POST /api/editor/pages/{id}/revisions/{revisionId}/restore — that revision becomes the draft again (publish
// to show it); answers the page.
import { apiRoute } from "~/lib/routes.server";
import { NO_STORE, editorPages } from "~/modules/sites/editor-api.server";

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  POST: async ({ request, context, params }) => {
    const { pages, actor, json } = await editorPages(request, context, "editor");
    return Response.json(json(await pages.restore(actor, params.pageId!, params.revisionId!)), {
      headers: NO_STORE,
    });
  },
});

export const action = loader;
