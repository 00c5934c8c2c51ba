import type { HeadersFunction, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, Outlet, isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { resolveSitePage } from "~/modules/access/site.server";
import type { RouteHandle } from "~/ui/handle";
import siteCss from "~/styles/site.css?url";
import { page } from "~/lib/routes.server";

/** Public pages ship no JavaScript: fast, and byte-identical for every visitor so they can be cached. */
export const handle: RouteHandle = { hydrate: false };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: siteCss }];

export const loader = page("public", async ({ request, params, context }: LoaderFunctionArgs) => {
  context.request.log.callerType = "public";
  const site = await resolveSitePage(context.services.db, params.site);
  if (site && "movedTo" in site) throw movedSite(request, site.movedTo);
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
  return { name: site.workspace.name, slug: site.workspace.slug };
});

/**
 * A site's former address (ADR 019): the same path and query under the current address, 301 for its 90 days.
 * Cached for an hour only, as the address may be changed back.
 */
function movedSite(request: Request, movedTo: string): Response {
  const url = new URL(request.url);
  const rest = url.pathname.split("/").slice(2).join("/");
  const to = `/${movedTo}${rest ? `/${rest}` : ""}${url.search}`;
  return redirect(to, { status: 301, headers: { "Cache-Control": "public, max-age=3600" } });
}

// Revalidated on every visit until the tagged page cache (DESIGN rule 7) lands with the sites issue. An error
// answer keeps the Cache-Control it was thrown with.
export const headers: HeadersFunction = ({ errorHeaders }) => ({
  "Cache-Control": errorHeaders?.get("Cache-Control") ?? "public, max-age=0, must-revalidate",
});

export default function SiteLayout() {
  const { name, slug } = useLoaderData<typeof loader>();
  return (
    <>
      <header className="site-header">
        <Link to={`/${slug}`}>{name}</Link>
      </header>
      <main className="site-main">
        <Outlet />
      </main>
      <footer className="site-footer">© {name}</footer>
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const missing = isRouteErrorResponse(error) && error.status === 404;
  if (isRouteErrorResponse(error) && error.status === 503) {
    return (
      <main className="site-main">
        <title>This site is unavailable</title>
        <h1>This site is unavailable</h1>
        <p>This site cannot be shown at the moment. Please come back later.</p>
      </main>
    );
  }
  return (
    <main className="site-main">
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
