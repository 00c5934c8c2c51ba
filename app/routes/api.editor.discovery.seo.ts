// GET /api/editor/discovery/seo — the site's search posture: whether the whole site asks not to be indexed (viewer).
// PUT /api/editor/discovery/seo { noindex } — change it (editor): the same `discoveryOf(...).saveSite` as /discovery.
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { NO_STORE, editorDiscovery, siteSeoJson } from "~/modules/discovery/editor-api.server";
import { SiteSeoInput } from "~/modules/discovery/rules";

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  GET: {
    summary: "The site's search settings",
    handle: async ({ request, context }) => {
      const { discovery } = await editorDiscovery(request, context);
      return Response.json(siteSeoJson(await discovery.settings()), { headers: NO_STORE });
    },
  },
  PUT: {
    summary: "Change the site's search settings",
    errors: [400],
    handle: async ({ request, context }) => {
      const { discovery, actor } = await editorDiscovery(request, context, "editor");
      const input = await readJson(request, SiteSeoInput, context);
      return Response.json(siteSeoJson(await discovery.saveSite(actor, input)), { headers: NO_STORE });
    },
  },
});

export const action = loader;
