// GET  /api/editor/pages?page=n — the workspace's pages (25 a page), home page first.
// POST /api/editor/pages { title, slug?, description?, inNavigation?, blocks? } — a new page (draft); 201.
import { slugBase } from "~/lib/link-base";
import { z } from "zod";
import { readJson } from "~/lib/http.server";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { apiRoute } from "~/lib/routes.server";
import { BlockInput, MAX_BLOCKS, NewPageInput } from "~/modules/sites/blocks";
import { NO_STORE, editorPages } from "~/modules/sites/editor-api.server";
import { pagePath } from "~/modules/sites/pages.server";

const PAGE_SIZE = 25;

const CreatePage = NewPageInput.extend({
  blocks: z.array(BlockInput).max(MAX_BLOCKS, `A page holds at most ${MAX_BLOCKS} blocks`).optional(),
});

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  GET: async ({ request, context }) => {
    const { pages, workspace } = await editorPages(request, context);
    const { page, ...window } = pageOf(request, PAGE_SIZE);
    const [list, total] = await Promise.all([pages.list(window), pages.count()]);
    return Response.json(
      {
        pages: list.map((p) => ({ ...p, path: pagePath(slugBase(workspace.slug), p) })),
        page,
        pageCount: pageCount(total, PAGE_SIZE),
        total,
      },
      { headers: NO_STORE },
    );
  },
  POST: async ({ request, context }) => {
    const { pages, actor, json } = await editorPages(request, context, "editor");
    const { blocks, ...input } = await readJson(request, CreatePage, context);
    const created = await pages.create(actor, input, blocks ?? []);
    return Response.json(json(created), { status: 201, headers: NO_STORE });
  },
});

export const action = loader;
