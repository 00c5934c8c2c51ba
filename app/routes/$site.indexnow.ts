// GET /{site}/indexnow — the site's IndexNow key file (ADR 022): the key alone, as UTF-8 text, which search
// engines fetch to check that a submission for this site's URLs comes from its owner. 404 while IndexNow is
// off. Submissions name this address as their `keyLocation`, so it works under the site's base path too.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { page } from "~/lib/routes.server";
import { publicCacheHeaders } from "~/modules/cache/headers";
import { indexNowKeyTags } from "~/modules/sites/page-cache";
import { publicSiteOf } from "~/modules/discovery/technical.server";
import { indexNowOf } from "~/modules/discovery/indexnow.server";

const text = (body: string, status: number) =>
  new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

export const loader = page("public", async ({ request, params, context }: LoaderFunctionArgs) => {
  // A former address has no key file: the key names the site's current address.
  const workspace = await publicSiteOf(request, context, params.site, { formerAddress: "not-found" });
  const settings = await indexNowOf(context.services.db, workspace.id).settings();
  if (!settings.enabled || !settings.key) {
    context.request.log.failure = "missing-data";
    return text("Not found", 404);
  }
  // Tagged (ADR 026): a replaced key purges it (`settings`), so engines find the new one at once.
  return new Response(settings.key, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      ...publicCacheHeaders({ tags: indexNowKeyTags(workspace.id) }),
    },
  });
});
