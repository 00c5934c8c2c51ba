// GET /api/editor/inbox/summary — what is unread in the selected workspace's inbox and the newest unread item's
// title: the console's once-a-minute question in the desktop shell, whose answer becomes a native notice.
import { apiRoute } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { inboxOf } from "~/modules/customers/inbox.server";

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  GET: async ({ request, context }) => {
    const { workspace } = await requireWorkspace(request, context, "viewer", "api");
    const inbox = inboxOf(context.services.db, workspace.id);
    const [{ unread }, [newest]] = await Promise.all([
      inbox.count({}),
      inbox.list({ unread: true }, { size: 1, offset: 0 }),
    ]);
    const latest = newest ? `${newest.name || newest.email}: ${newest.title.slice(0, 120)}` : null;
    return Response.json({ unread, latest }, { headers: { "Cache-Control": "private, no-store" } });
  },
});
export const action = loader;
