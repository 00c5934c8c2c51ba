// GET /{site}/og-image?title=…[&v=…] — the site's share image for a title: a 1200×630 PNG in its brand
// (app/modules/og-image). Page heads address it with `v=` (a hash of the brand): that address is cached for
// a year; without `v`, or with an outdated one, revalidated at each use (a shared cache keeps it until purged). A long title is cut, never refused. A client
// address may start OG_RENDERS_PER_ADDRESS_PER_MINUTE new renders a minute (429 with Retry-After past it);
// cached images are free. A full render queue answers 503 with Retry-After.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { DomainError } from "~/lib/errors";
import { failureCategory } from "~/lib/http.server";
import { page } from "~/lib/routes.server";
import { IMMUTABLE_CACHE_CONTROL, publicCacheHeaders } from "~/modules/cache/headers";
import { ogImageTags } from "~/modules/sites/page-cache";
import { publicSiteOf } from "~/modules/discovery/technical.server";
import { OgImageBusy, ogImageOf } from "~/modules/og-image/og-image.server";

export const loader = page("public", async ({ request, params, context }: LoaderFunctionArgs) => {
  const workspace = await publicSiteOf(request, context, params.site);
  const query = new URL(request.url).searchParams;
  const image = await ogImageOf(context.services, workspace, query.get("title"));
  const headers = {
    "Content-Type": "image/png",
    // Tagged for the page cache (ADR 026): the site's name, brand and logo; one entry per `v`. `title` is free
    // text anyone can vary: not declared, so a request with one is not stored by the page cache (each would be
    // a new entry evicting real pages) and is left to og-image's own bounded cache and its per-address throttle.
    ...publicCacheHeaders({
      tags: ogImageTags(workspace.id),
      varyQuery: ["v"],
    }),
    ...(query.get("v") === image.version ? { "Cache-Control": IMMUTABLE_CACHE_CONTROL } : {}),
    ETag: image.etag,
    // Social networks' crawlers fetch it from their own origins.
    "Cross-Origin-Resource-Policy": "cross-origin",
  };
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch?.split(/\s*,\s*/).includes(image.etag) || ifNoneMatch === "*") {
    return new Response(null, { status: 304, headers });
  }
  let png: Buffer;
  try {
    // Only a render is counted against the client's address: a cached image costs nothing.
    png = await image.png(() => context.services.ogImageThrottle.take(context.request.ip));
  } catch (error) {
    const limited = error instanceof DomainError && error.kind === "rate-limited";
    if (!limited && !(error instanceof OgImageBusy)) throw error;
    context.request.log.failure = failureCategory(limited ? 429 : 503);
    const retryAfter = limited ? (error.detail.retryAfter ?? 60) : 5;
    return new Response(error.message, {
      status: limited ? 429 : 503,
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Cache-Control": "no-store",
        "Retry-After": String(retryAfter),
      },
    });
  }
  return new Response(new Uint8Array(png), {
    headers: { ...headers, "Content-Length": String(png.byteLength) },
  });
});
