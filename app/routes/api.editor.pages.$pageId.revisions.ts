// GET /api/editor/pages/{id}/revisions?page=n — the page's revisions, newest first (20 a page).
import { pageCount, pageOf } from "~/lib/pagination.server";
import { apiRoute } from "~/lib/routes.server";
import { NO_STORE, editorPages } from "~/modules/sites/editor-api.server";

const PAGE_SIZE = 20;

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  GET: async ({ request, context, params }) => {
    const { pages } = await editorPages(request, context);
    const { page, ...window } = pageOf(request, PAGE_SIZE);
    const { revisions, total } = await pages.revisions(params.pageId!, window);
    return Response.json({ revisions, page, pageCount: pageCount(total, PAGE_SIZE), total }, { headers: NO_STORE });
  },
});

export const action = loader;
