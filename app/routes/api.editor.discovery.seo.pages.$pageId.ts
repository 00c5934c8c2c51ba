// GET /api/editor/discovery/seo/pages/{pageId} — a page's search settings and its translations (viewer).
// PUT /api/editor/discovery/seo/pages/{pageId} { title?, description?, canonical?, noindex?, locale?,
//     translationOf? } — replace them (editor). Another workspace's page is a 404 whatever the body says.
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { NO_STORE, editorDiscovery } from "~/modules/discovery/editor-api.server";
import { PageSeoInput } from "~/modules/discovery/rules";

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  GET: {
    summary: "A page's search settings",
    handle: async ({ request, context, params }) => {
      const { discovery } = await editorDiscovery(request, context);
      return Response.json(await discovery.page(params.pageId!), { headers: NO_STORE });
    },
  },
  PUT: {
    summary: "Replace a page's search settings",
    errors: [400],
    handle: async ({ request, context, params }) => {
      const { discovery, actor } = await editorDiscovery(request, context, "editor");
      await discovery.page(params.pageId!);
      const input = await readJson(request, PageSeoInput, context);
      return Response.json(await discovery.savePage(actor, params.pageId!, input), { headers: NO_STORE });
    },
  },
});

export const action = loader;
