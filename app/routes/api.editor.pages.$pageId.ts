// GET    /api/editor/pages/{id} — the page: state, draft, published copy, address.
// PUT    /api/editor/pages/{id} { title, slug, description?, blocks } — saves the draft (a new revision).
// DELETE /api/editor/pages/{id} — deletes the page, its history and its navigation links; 204.
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { PageDraftInput } from "~/modules/sites/blocks";
import { NO_STORE, editorPages } from "~/modules/sites/editor-api.server";

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  GET: async ({ request, context, params }) => {
    const { pages, json } = await editorPages(request, context);
    return Response.json(json(await pages.get(params.pageId!)), { headers: NO_STORE });
  },
  PUT: async ({ request, context, params }) => {
    const { pages, actor, json } = await editorPages(request, context, "editor");
    // The page first: another workspace's page is a 404 whatever the body says.
    const page = await pages.get(params.pageId!);
    const draft = await readJson(request, PageDraftInput, context);
    return Response.json(json(await pages.saveDraft(actor, page.id, draft)), { headers: NO_STORE });
  },
  DELETE: async ({ request, context, params }) => {
    const { pages, actor } = await editorPages(request, context, "editor");
    await pages.remove(actor, params.pageId!);
    return new Response(null, { status: 204, headers: NO_STORE });
  },
});

export const action = loader;
