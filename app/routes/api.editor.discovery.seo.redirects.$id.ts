// PUT    /api/editor/discovery/seo/redirects/{id} { from, to, status? } — change a redirect (editor).
// DELETE /api/editor/discovery/seo/redirects/{id} — remove it (editor); 204. Another workspace's is a 404.
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { NO_STORE, editorDiscovery } from "~/modules/discovery/editor-api.server";
import { RedirectInput } from "~/modules/discovery/rules";

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  PUT: {
    summary: "Change a redirect",
    errors: [400, 409],
    handle: async ({ request, context, params }) => {
      const { discovery, actor } = await editorDiscovery(request, context, "editor");
      // The redirect first: another workspace's is a 404 whatever the body says.
      await discovery.redirects.get(params.id!);
      const input = await readJson(request, RedirectInput, context);
      return Response.json(await discovery.redirects.update(actor, params.id!, input), { headers: NO_STORE });
    },
  },
  DELETE: {
    summary: "Remove a redirect",
    handle: async ({ request, context, params }) => {
      const { discovery, actor } = await editorDiscovery(request, context, "editor");
      await discovery.redirects.remove(actor, params.id!);
      return new Response(null, { status: 204, headers: NO_STORE });
    },
  },
});

export const action = loader;
