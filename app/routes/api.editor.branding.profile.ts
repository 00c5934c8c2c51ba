// GET /api/editor/branding/profile — the business profile: time zone, currency, address, contact, opening hours
//     and exceptions (viewer).
// PUT /api/editor/branding/profile — save it whole (admin): the same `profileOf(...).save` as the console.
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { ProfileInput, profileOf } from "~/modules/sites/profile.server";

const NO_STORE = { "Cache-Control": "no-store" };

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  GET: {
    summary: "The business profile",
    handle: async ({ request, context }) => {
      const { workspace } = await requireWorkspace(request, context, "viewer", "api");
      return Response.json(await profileOf(context.services.db, workspace.id).get(), { headers: NO_STORE });
    },
  },
  PUT: {
    summary: "Save the business profile",
    errors: [400],
    handle: async ({ request, context }) => {
      const { workspace, session } = await requireWorkspace(request, context, "admin", "api");
      const input = await readJson(request, ProfileInput, context);
      const saved = await profileOf(context.services.db, workspace.id).save(session.user.id, input);
      return Response.json(saved, { headers: NO_STORE });
    },
  },
});

export const action = loader;
