// GET /{site}/indexnow — the site's IndexNow key file (ADR 022): the key alone, as UTF-8 text, which search
// engines fetch to check that a submission for this site's URLs comes from its owner. 404 while IndexNow is
// off. Submissions name this address as their `keyLocation`, so it works under the site's base path too.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { page } from "~/lib/routes.server";
import { resolveSitePage } from "~/modules/access/site.server";
import { indexNowOf } from "~/modules/discovery/indexnow.server";

const text = (body: string, status: number, cache = "no-store") =>
  new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": cache } });

export const loader = page("public", async ({ params, context }: LoaderFunctionArgs) => {
  context.request.log.callerType = "public";
  const site = await resolveSitePage(context.services.db, params.site);
  // A former address has no key file: the key names the site's current address.
  if (!site || "movedTo" in site) {
    context.request.log.failure = "missing-data";
    return text("Not found", 404);
  }
  if ("unavailable" in site) {
    context.request.log.failure = "authorization";
    return text("This site is unavailable", 503);
  }
  const settings = await indexNowOf(context.services.db, site.workspace.id).settings();
  if (!settings.enabled || !settings.key) {
    context.request.log.failure = "missing-data";
    return text("Not found", 404);
  }
  // Short: a replaced key must be the one engines find within minutes.
  return text(settings.key, 200, "public, max-age=300");
});
