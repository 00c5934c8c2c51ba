// GET  /api/editor/session — the operator and the selected workspace (operator cookie only).
// POST /api/editor/session { "workspaceId": "…" } — switch the selected workspace.
import { z } from "zod";
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { requireOperator } from "~/modules/access/operator.server";
import { editorState, switchWorkspace } from "~/modules/tenancy/editor-session.server";

const SwitchWorkspace = z.object({ workspaceId: z.string().min(1, "Give the id of a workspace you belong to") });

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  GET: async ({ request, context }) => {
    const session = await requireOperator(request, context, "api");
    return Response.json(await editorState(context, session), { headers: { "Cache-Control": "no-store" } });
  },
  POST: async ({ request, context }) => {
    const session = await requireOperator(request, context, "api");
    const { workspaceId } = await readJson(request, SwitchWorkspace, context);
    return Response.json(await switchWorkspace(context, session, workspaceId), {
      headers: { "Cache-Control": "no-store" },
    });
  },
});

export const action = loader;
