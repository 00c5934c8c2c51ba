// PATCH  /api/editor/pages/navigation/{linkId} { label?, move?: "up" | "down" } — renames or moves a link.
// DELETE /api/editor/pages/navigation/{linkId} — removes it (the page stays); 204.
import { z } from "zod";
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { NavLabel } from "~/modules/sites/navigation";
import { NO_STORE, editorPages } from "~/modules/sites/editor-api.server";

const ChangeLink = z
  .object({ label: NavLabel.optional(), move: z.enum(["up", "down"], { message: "Use up or down" }).optional() })
  .refine((v) => v.label !== undefined || v.move !== undefined, { message: "Give a label or a move" });

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  PATCH: async ({ request, context, params }) => {
    const { navigation, actor } = await editorPages(request, context, "editor");
    const change = await readJson(request, ChangeLink, context);
    if (change.label !== undefined) await navigation.rename(actor, params.linkId!, change.label);
    if (change.move) await navigation.move(actor, params.linkId!, change.move === "up" ? -1 : 1);
    return Response.json(await navigation.list(), { headers: NO_STORE });
  },
  DELETE: async ({ request, context, params }) => {
    const { navigation, actor } = await editorPages(request, context, "editor");
    await navigation.remove(actor, params.linkId!);
    return new Response(null, { status: 204, headers: NO_STORE });
  },
});

export const action = loader;
