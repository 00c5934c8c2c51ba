import {
  data,
  type HeadersFunction,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Outlet, isRouteErrorResponse, useLoaderData, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { resolveSitePage } from "~/modules/access/site.server";
import { movedSite } from "~/modules/hosts/moved-site.server";
import { hideFromSearchEngines, siteFrameOf } from "~/modules/sites/chrome.server";
import { lockedChrome, siteGate } from "~/modules/site-access/gate.server";
import { publicAddressOf } from "~/modules/sites/public-address.server";
import { markOwnScript, type RouteHandle } from "~/ui/handle";
import { rememberedAssistant } from "~/modules/chat/settings.server";
import siteCss from "~/styles/site.css?url";
import { page } from "~/lib/routes.server";
import { publicCacheHeaders } from "~/modules/cache/headers";
import { mergeCacheHeaders, NOT_CACHEABLE, siteFrameTags } from "~/modules/sites/page-cache";
import { canonicalOf, chromeMeta, SITE_LAYOUT_ID, type SiteChrome } from "~/site/chrome";
import { SiteFrame } from "~/site/frame";
import { cartOfRequest } from "~/modules/commerce/cart.server";
import { shopIsOpen } from "~/modules/commerce/storefront.server";
import { siteMeta } from "~/site/meta";

/** Public pages ship no JavaScript: fast, and byte-identical for every visitor so they can be cached. */
export const handle: RouteHandle = { hydrate: false };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: siteCss }];

export const loader = page("public", async ({ request, params, context }: LoaderFunctionArgs) => {
  context.request.log.callerType = "public";
  const site = await resolveSitePage(context.services.db, params.site);
  if (site && "movedTo" in site) throw movedSite(request, context, site.movedTo);
  if (!site) {
    context.request.log.failure = "missing-data";
    throw new Response(null, { status: 404, statusText: "Not Found" });
  }
  if ("unavailable" in site) {
    // Its owner is suspended: every page of the site is the same neutral page, which says nothing about the
    // account and is never cached, so the site is back as soon as the suspension is undone.
    context.request.log.failure = "authorization";
    throw new Response(null, {
      status: 503,
      statusText: "Service Unavailable",
      headers: { "Cache-Control": "no-store" },
    });
  }
  // A protected site (ADR 023): redirects to its unlock page unless this visitor unlocked it.
  const gate = await siteGate(context, request, site.workspace);
  const address = await publicAddressOf(request, context, site.workspace);
  const [frame, onSale, cart, assistant] = await Promise.all([
    siteFrameOf(context.services, site.workspace, address, gate.state !== "public"),
    shopIsOpen(context.services, site.workspace.id),
    // Only a visitor with a cart cookie has a count, and their answers are never cached (its cookie bypasses).
    cartOfRequest(request, context, site.workspace),
    rememberedAssistant(context.services, site.workspace.id),
  ]);
  const chrome: SiteChrome = {
    ...frame.chrome,
    shop: onSale,
    cartCount: cart && !cart.orderId ? cart.lines.reduce((n, l) => n + l.quantity, 0) : null,
    // The assistant's widget (ADR 037): on the pages of a site that switched it on, with its one script file.
    assistant:
      assistant.enabled && gate.state !== "locked"
        ? { greeting: assistant.greeting, session: `/api/v1/${site.workspace.slug}/chat/session` }
        : null,
  };
  if (chrome.assistant) markOwnScript(context.request);
  if (chrome.noindex) hideFromSearchEngines(context);
  // The page cache (ADR 026): every page of a public site is the same for all its visitors and shows the
  // site's frame (its tags), and "today" (the footer's year, upcoming exceptions to the opening hours) until
  // the site's next local midnight. A protected site is never shared (entry.server.tsx makes it private).
  // Without PUBLIC_URL the answer names the request's own origin, which is part of the cache's key (its
  // scheme and host, as Remix builds the request's URL), so it is still the same for everyone under that key.
  const headers =
    gate.state !== "public"
      ? NOT_CACHEABLE
      : publicCacheHeaders({
          tags: siteFrameTags(site.workspace.id),
          until: frame.until,
        });
  return data<SiteChrome>(gate.state === "locked" ? lockedChrome(chrome) : chrome, { headers });
});

/**
 * The site's own head for pages that have no `meta` of their own (and for the error pages): a page route's
 * `meta` replaces this, so page routes add `chromeMeta(matches)` to their `siteMeta(...)`.
 */
export const meta: MetaFunction<typeof loader> = ({ data, matches, location, error }) => {
  if (!data) return [{ title: "Site not found" }];
  if (error) {
    const missing = isRouteErrorResponse(error) && error.status === 404;
    const own = [
      { title: `${missing ? "Page not found" : "Something went wrong"} · ${data.name}` },
      { name: "robots", content: "noindex" },
    ];
    return [...own, ...chromeMeta(matches, own)];
  }
  const own = siteMeta({
    siteName: data.name,
    origin: data.origin,
    // The path Remix routed (`/{slug}/…`, also on the site's domain) at the site's final address.
    path: new URL(canonicalOf(data, location.pathname)).pathname,
    title: data.name,
    description: data.profile.tagline || `${data.name}: opening hours, address and how to get in touch.`,
    image: data.socialImage
      ? {
          url: data.socialImage.src,
          width: data.socialImage.width,
          height: data.socialImage.height,
          alt: data.socialImage.alt,
        }
      : null,
  });
  return [...own, ...chromeMeta(matches, own)];
};

// The layout's cache headers (its tags), which each page route merges with its own (`mergeCacheHeaders`). An
// error answer is never cached: entry.server.tsx strips the tags of anything but a 200.
export const headers: HeadersFunction = ({ loaderHeaders, errorHeaders }) =>
  errorHeaders
    ? { "Cache-Control": errorHeaders.get("Cache-Control") ?? "no-store" }
    : mergeCacheHeaders(loaderHeaders);

export default function SiteLayout() {
  const chrome = useLoaderData<typeof loader>();
  return (
    <SiteFrame chrome={chrome}>
      <Outlet />
    </SiteFrame>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  // Set when the site exists and only a page inside it failed: the error is shown inside the site's frame.
  const chrome = useRouteLoaderData<typeof loader>(SITE_LAYOUT_ID);
  const missing = isRouteErrorResponse(error) && error.status === 404;
  if (isRouteErrorResponse(error) && error.status === 503) {
    return (
      <main className="site-main site-message">
        <title>This site is unavailable</title>
        <h1>This site is unavailable</h1>
        <p>This site cannot be shown at the moment. Please come back later.</p>
      </main>
    );
  }
  if (chrome) {
    return (
      <SiteFrame chrome={chrome}>
        <section className="site-section">
          <div className="site-container">
            <div className="site-prose">
              <h1>{missing ? "Page not found" : "Something went wrong"}</h1>
              <p>
                {missing
                  ? "There is no page at this address. It may have moved, or the link may have a typo."
                  : "This page could not be shown right now. Please try again in a moment."}
              </p>
              <p>
                <a className="site-button" href={chrome.base || "/"}>
                  Go to the home page
                </a>
              </p>
            </div>
          </div>
        </section>
      </SiteFrame>
    );
  }
  return (
    <main className="site-main site-message">
      <title>{missing ? "Site not found" : "Something went wrong"}</title>
      <h1>{missing ? "Site not found" : "Something went wrong"}</h1>
      <p>
        {missing
          ? "There is no site at this address. Check the link for typos."
          : "This page could not be shown right now. Please try again in a moment."}
      </p>
    </main>
  );
}
