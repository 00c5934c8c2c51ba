// GET  /api/editor/branding/media?page= — the selected workspace's files, newest first (viewer).
// POST /api/editor/branding/media — upload one (editor): multipart/form-data with `file` (and `alt`), or the
//      file as the body with its image type and `?filename=`. Type from the bytes; limit FILES_MAX_BYTES.
import { z } from "zod";
import { invalid } from "~/lib/errors";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { apiRoute } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { MediaItemJson, mediaJson } from "~/modules/files/api.server";
import { filesOf } from "~/modules/files/files.server";
import { readUpload } from "~/modules/files/upload.server";

const PAGE_SIZE = 50;

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  GET: {
    summary: "The workspace's media library",
    query: z.object({ page: z.string().optional() }),
    output: z.object({
      items: z.array(MediaItemJson),
      total: z.number().int(),
      page: z.number().int(),
      pages: z.number().int(),
      usedBytes: z.number().int(),
      quotaBytes: z.number().int(),
      maxFileBytes: z.number().int(),
    }),
    handle: async ({ request, context }) => {
      const { workspace } = await requireWorkspace(request, context, "viewer", "api");
      const files = filesOf(context.services, workspace.id);
      const { page, ...window } = pageOf(request, PAGE_SIZE);
      const [{ items, total }, usage] = await Promise.all([files.list(window), files.usage()]);
      return Response.json(
        {
          items: items.map((item) => mediaJson(workspace.slug, item)),
          total,
          page,
          pages: pageCount(total, PAGE_SIZE),
          ...usage,
        },
        { headers: { "Cache-Control": "no-store" } },
      );
    },
  },
  POST: {
    summary: "Upload a file",
    status: 201,
    output: MediaItemJson,
    errors: [400, 413, 415],
    handle: async ({ request, context }) => {
      const { workspace, session } = await requireWorkspace(request, context, "editor", "api");
      const { values, file } = await readUpload(request, context);
      if (!file) throw invalid("Choose a file to upload", [{ field: "file", message: "Choose a file to upload" }]);
      const files = filesOf(context.services, workspace.id);
      const actor = { actorUserId: session.user.id, ip: context.request.ip };
      const item = await files.upload({ ...file, alt: values.alt ?? "", ...actor });
      return Response.json(mediaJson(workspace.slug, item), { status: 201, headers: { "Cache-Control": "no-store" } });
    },
  },
});

export const action = loader;
