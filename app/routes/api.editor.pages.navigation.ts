// GET  /api/editor/pages/navigation — the header menu and footer links, in order.
// POST /api/editor/pages/navigation { area, label, pageId? | url? } — adds a link at the end of its area; 201.
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { NavLinkInput } from "~/modules/sites/navigation";
import { NO_STORE, editorPages } from "~/modules/sites/editor-api.server";

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  GET: async ({ request, context }) => {
    const { navigation } = await editorPages(request, context);
    return Response.json(await navigation.list(), { headers: NO_STORE });
  },
  POST: async ({ request, context }) => {
    const { navigation, actor } = await editorPages(request, context, "editor");
    await navigation.add(actor, await readJson(request, NavLinkInput, context));
    return Response.json(await navigation.list(), { status: 201, headers: NO_STORE });
  },
});

export const action = loader;
