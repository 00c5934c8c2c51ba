// /{site}/{pageSlug} — a published page of the site; an unpublished or unknown page is the site's 404.
import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { page } from "~/lib/routes.server";
import { mergeCacheHeaders, NOT_CACHEABLE } from "~/modules/sites/page-cache";
import { PAGE_SLUG_PATTERN } from "~/modules/sites/blocks";
import { loadPublicPage, redirectOrNotFound } from "~/modules/sites/public-page.server";
import { PageContentView } from "~/site/blocks";
import { pageHead } from "~/site/page-head";
import { withSiteChrome } from "~/site/chrome";
import type { RouteHandle } from "~/ui/handle";
import blocksCss from "~/styles/site-blocks.css?url";

export const handle: RouteHandle = { hydrate: false };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: blocksCss }];

export const loader = page("public", ({ request, context, params }: LoaderFunctionArgs) => {
  const slug = params.page ?? "";
  // Not a page's address at all (upper case, dots, …): no page to ask for, but perhaps a redirect (an old
  // site's `/About-Us.html`).
  if (!PAGE_SLUG_PATTERN.test(slug)) return redirectOrNotFound(request, context, params.site);
  return loadPublicPage(request, context, params.site, slug);
});

const ownMeta: MetaFunction<typeof loader> = ({ data }) => pageHead(data, false);

// The layout's tags (the site's frame) and the page's own (ADR 026).
export const headers: HeadersFunction = ({ loaderHeaders, parentHeaders, errorHeaders }) =>
  errorHeaders ? NOT_CACHEABLE : mergeCacheHeaders(parentHeaders, loaderHeaders);

// With the site's favicon, theme colour and sharing image: a page's `meta` replaces the layout's.
export const meta = withSiteChrome(ownMeta);

export default function SitePage() {
  const data = useLoaderData<typeof loader>();
  if (!data.page) return null;
  return (
    <>
      <PageContentView content={data.page.content} images={data.images} siteSlug={data.siteSlug} />
      {/* The same for every visitor (the page stays cacheable): a visitor who is not signed in is asked to, then
          offered the save again (ADR 029). */}
      <form
        method="post"
        action={`${data.base}/saved?${new URLSearchParams({ save: data.page.id })}`}
        className="page-save site-container"
      >
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="ref" value={data.page.id} />
        <button type="submit" className="page-save__button">
          <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
            <path
              d="M6 3h12a1 1 0 0 1 1 1v17l-7-4-7 4V4a1 1 0 0 1 1-1Z"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            />
          </svg>
          Save this page
        </button>
      </form>
    </>
  );
}

/** Inside the site's own header and footer: the visitor keeps the site's navigation. */
export function ErrorBoundary() {
  const error = useRouteError();
  const missing = isRouteErrorResponse(error) && error.status === 404;
  return (
    <div className="page-blocks">
      <section className="block page-title page-missing">
        <div className="block-inner">
          <title>{missing ? "Page not found" : "Something went wrong"}</title>
          <h1>{missing ? "Page not found" : "Something went wrong"}</h1>
          <p className="page-title__lead">
            {missing
              ? "This page does not exist, or it is not published yet. Check the address, or start from the home page."
              : "This page could not be shown right now. Please try again in a moment."}
          </p>
        </div>
      </section>
    </div>
  );
}
