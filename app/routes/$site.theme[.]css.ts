// GET /{site}/theme.css — the site's theme: its branding as CSS variables and @font-face rules
// (app/modules/sites/theme.server.ts). Addressed by the layout as `?v=<hash of this CSS>`: that address is
// immutable; any other (no `v`, or an outdated one) is revalidated every time, so it is never stale.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { page } from "~/lib/routes.server";
import { IMMUTABLE_CACHE_CONTROL, publicCacheHeaders } from "~/modules/cache/headers";
import { themeTags } from "~/modules/sites/page-cache";
import { resolveSitePage } from "~/modules/access/site.server";
import { brandingOf } from "~/modules/sites/branding.server";
import { themeCss, themeHash } from "~/modules/sites/theme.server";

export const loader = page("public", async ({ request, params, context }: LoaderFunctionArgs) => {
  context.request.log.callerType = "public";
  const site = await resolveSitePage(context.services.db, params.site);
  if (!site || !("workspace" in site)) {
    // A former address serves no theme of its own: its pages redirect, and link the current address's theme.
    context.request.log.failure = site && "unavailable" in site ? "authorization" : "missing-data";
    return new Response("/* not found */\n", {
      status: 404,
      headers: { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  const css = themeCss(await brandingOf(context.services.db, site.workspace.id).get());
  const hash = themeHash(css);
  const etag = `"${hash}"`;
  const current = new URL(request.url).searchParams.get("v") === hash;
  // Tagged for the page cache (ADR 026): the brand it is made of; each `v` is its own entry.
  const headers = {
    "Content-Type": "text/css; charset=utf-8",
    ...publicCacheHeaders({
      tags: themeTags(site.workspace.id),
      varyQuery: ["v"],
    }),
    ...(current ? { "Cache-Control": IMMUTABLE_CACHE_CONTROL } : {}),
    ETag: etag,
  };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(css, { headers });
});
