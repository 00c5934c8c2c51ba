// GET  /api/editor/branding/import — the brand import's state: status, progress, step, what it found (viewer).
// POST /api/editor/branding/import { "url": "https://…" } — import the logo, favicon, colour and social image
//      from the business's current website, as a job (admin). 202 with the queued state; 409 while one runs.
import { apiRoute } from "~/lib/routes.server";
import { readJson } from "~/lib/http.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { BrandImportInput, brandImportOf } from "~/modules/sites/brand-import.server";

const NO_STORE = { "Cache-Control": "no-store" };

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  GET: {
    summary: "The brand import's state",
    handle: async ({ request, context }) => {
      const { workspace } = await requireWorkspace(request, context, "viewer", "api");
      return Response.json(await brandImportOf(context.services, workspace.id).state(), { headers: NO_STORE });
    },
  },
  POST: {
    summary: "Import the brand from the business's current website",
    status: 202,
    errors: [400, 409],
    handle: async ({ request, context }) => {
      const { workspace, session } = await requireWorkspace(request, context, "admin", "api");
      const input = await readJson(request, BrandImportInput, context);
      const state = await brandImportOf(context.services, workspace.id).start(session.user.id, input);
      return Response.json(state, { status: 202, headers: NO_STORE });
    },
  },
});

export const action = loader;
