// GET /api/editor/discovery/seo/indexnow — IndexNow's settings, key file address and recent submissions
// (viewer; `?page=`). PUT — turn it on or off, or replace the key (`{ enabled, regenerateKey? }`, editor): the
// same `indexNowOf(...)` functions as the console's /discovery/indexnow.
import { readJson } from "~/lib/http.server";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { apiRoute } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { indexNowAddresses, indexNowOf, IndexNowInput } from "~/modules/discovery/indexnow.server";

const NO_STORE = { "Cache-Control": "no-store" };
const PAGE_SIZE = 20;

async function view(
  request: Request,
  context: Parameters<typeof requireWorkspace>[1],
  workspace: { id: string; slug: string },
) {
  const repo = indexNowOf(context.services.db, workspace.id);
  const { page, ...window } = pageOf(request, PAGE_SIZE);
  const [settings, submissions, addresses] = await Promise.all([
    repo.settings(),
    repo.submissions(window),
    indexNowAddresses(request, context, workspace),
  ]);
  return {
    enabled: settings.enabled,
    key: settings.key,
    keyUrl: settings.enabled ? addresses.keyUrl : null,
    /** The site has no public address outside a request yet (PUBLIC_URL unset): submissions are skipped. */
    submissionsSkipped: addresses.submissionsSkipped,
    submissions: {
      items: submissions.items,
      page,
      pages: pageCount(submissions.total, PAGE_SIZE),
      total: submissions.total,
    },
  };
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
