// GET  /api/editor/discovery/seo/redirects?page=n&q=text — the site's redirects, newest first, 50 a page (viewer).
// POST /api/editor/discovery/seo/redirects { from, to, status? } — a new redirect (editor); 201. A loop, or an
//      address that already redirects, is refused with a 400/409 naming the field.
import { readJson } from "~/lib/http.server";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { apiRoute } from "~/lib/routes.server";
import { NO_STORE, editorDiscovery } from "~/modules/discovery/editor-api.server";
import { RedirectInput } from "~/modules/discovery/rules";

const PAGE_SIZE = 50;

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  GET: {
    summary: "The site's redirects",
    handle: async ({ request, context }) => {
      const { discovery } = await editorDiscovery(request, context);
      const { page, ...window } = pageOf(request, PAGE_SIZE);
      const search = (new URL(request.url).searchParams.get("q") ?? "").slice(0, 200);
      const { redirects, total } = await discovery.redirects.list({ ...window, search });
      return Response.json({ redirects, page, pageCount: pageCount(total, PAGE_SIZE), total }, { headers: NO_STORE });
    },
  },
  POST: {
    summary: "Add a redirect",
    errors: [400, 409],
    handle: async ({ request, context }) => {
      const { discovery, actor } = await editorDiscovery(request, context, "editor");
      const input = await readJson(request, RedirectInput, context);
      return Response.json(await discovery.redirects.create(actor, input), { status: 201, headers: NO_STORE });
    },
  },
});

export const action = loader;
