// GET /api/editor/discovery/seo/indexnow — IndexNow's settings, key file address and recent submissions
// (viewer; `?page=`). PUT — turn it on or off, or replace the key (`{ enabled, regenerateKey? }`, editor): the
// same `indexNowOf(...)` functions as the console's /discovery/indexnow.
import type { AppLoadContext } from "@remix-run/node";
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { indexNowOf, IndexNowInput, indexNowView } from "~/modules/discovery/indexnow.server";

const NO_STORE = { "Cache-Control": "no-store" };

/** The console's view; the key file's address only while IndexNow is on (the file answers 404 while off). */
async function view(request: Request, context: AppLoadContext, workspace: { id: string; slug: string }) {
  const shown = await indexNowView(request, context, workspace);
  return { ...shown, keyUrl: shown.enabled ? shown.keyUrl : null };
}

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  GET: {
    summary: "The workspace's IndexNow settings and recent submissions",
    handle: async ({ request, context }) => {
      const { workspace } = await requireWorkspace(request, context, "viewer", "api");
      return Response.json(await view(request, context, workspace), { headers: NO_STORE });
    },
  },
  PUT: {
    summary: "Turn IndexNow on or off, or replace its key",
    errors: [400],
    handle: async ({ request, context }) => {
      const { workspace, session } = await requireWorkspace(request, context, "editor", "api");
      const input = await readJson(request, IndexNowInput, context);
      await indexNowOf(context.services.db, workspace.id).update(session.user.id, input);
      return Response.json(await view(request, context, workspace), { headers: NO_STORE });
    },
  },
});

export const action = loader;
