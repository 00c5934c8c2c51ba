// GET    /api/editor/branding/media/{fileId} — one file and where it is used (viewer).
// PATCH  /api/editor/branding/media/{fileId} { alt } — describe it (editor).
// PUT    /api/editor/branding/media/{fileId} — replace its bytes, keeping its id (editor; a body as for POST).
// DELETE /api/editor/branding/media/{fileId} — delete it (editor). Another workspace's file is a 404.
import { z } from "zod";
import { invalid, notFound } from "~/lib/errors";
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { MediaItemJson, mediaJson } from "~/modules/files/api.server";
import { AltText, filesOf } from "~/modules/files/files.server";
import { readUpload } from "~/modules/files/upload.server";

const Describe = z.object({ alt: AltText });
const noStore = { "Cache-Control": "no-store" };

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  GET: {
    summary: "A file and where it is used",
    output: MediaItemJson.extend({ usedIn: z.array(z.object({ label: z.string(), href: z.string() })) }),
    errors: [404],
    handle: async ({ request, params, context }) => {
      const { workspace } = await requireWorkspace(request, context, "viewer", "api");
      const files = filesOf(context.services, workspace.id);
      const item = await files.byId(params.fileId ?? "");
      if (!item) throw notFound("No such file in this workspace");
      const usedIn = await files.whereUsed(item.id);
      return Response.json({ ...mediaJson(workspace.slug, item), usedIn }, { headers: noStore });
    },
  },
  PATCH: {
    summary: "Describe a file (alt text)",
    input: Describe,
    output: MediaItemJson,
    errors: [404],
    handle: async ({ request, params, context }) => {
      const { workspace, session } = await requireWorkspace(request, context, "editor", "api");
      const { alt } = await readJson(request, Describe, context);
      const item = await filesOf(context.services, workspace.id).setAlt(params.fileId ?? "", alt, {
        actorUserId: session.user.id,
        ip: context.request.ip,
      });
      return Response.json(mediaJson(workspace.slug, item), { headers: noStore });
    },
  },
  PUT: {
    summary: "Replace a file's bytes (same id, new address)",
    output: MediaItemJson,
    errors: [404, 413, 415],
    handle: async ({ request, params, context }) => {
      const { workspace, session } = await requireWorkspace(request, context, "editor", "api");
      const files = filesOf(context.services, workspace.id);
      if (!(await files.byId(params.fileId ?? ""))) throw notFound("No such file in this workspace");
      const { file } = await readUpload(request, context);
      if (!file) throw invalid("Choose a file to upload", [{ field: "file", message: "Choose a file to upload" }]);
      const item = await files.replace(params.fileId ?? "", file.bytes, file.filename, {
        actorUserId: session.user.id,
        ip: context.request.ip,
      });
      return Response.json(mediaJson(workspace.slug, item), { headers: noStore });
    },
  },
  DELETE: {
    summary: "Delete a file",
    status: 204,
    errors: [404],
    handle: async ({ request, params, context }) => {
      const { workspace, session } = await requireWorkspace(request, context, "editor", "api");
      await filesOf(context.services, workspace.id).remove(params.fileId ?? "", {
        actorUserId: session.user.id,
        ip: context.request.ip,
      });
      return new Response(null, { status: 204, headers: noStore });
    },
  },
});

export const action = loader;
