// GET /api/editor/discovery/seo/llms — whether the site publishes /{site}/llms.txt, and its summary (viewer).
// PUT /api/editor/discovery/seo/llms { enabled, summary? } — change them (editor); the summary ≤ 2,000 characters.
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { NO_STORE, editorDiscovery, llmsJson } from "~/modules/discovery/editor-api.server";
import { LlmsInput } from "~/modules/discovery/rules";

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  GET: {
    summary: "The site's llms.txt settings",
    handle: async ({ request, context }) => {
      const { discovery, workspace } = await editorDiscovery(request, context);
      return Response.json(llmsJson(await discovery.settings(), workspace.slug), { headers: NO_STORE });
    },
  },
  PUT: {
    summary: "Change the site's llms.txt settings",
    errors: [400],
    handle: async ({ request, context }) => {
      const { discovery, workspace, actor } = await editorDiscovery(request, context, "editor");
      const input = await readJson(request, LlmsInput, context);
      return Response.json(llmsJson(await discovery.saveLlms(actor, input), workspace.slug), { headers: NO_STORE });
    },
  },
});

export const action = loader;
