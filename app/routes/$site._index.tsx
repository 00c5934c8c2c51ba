// /{site} — the site's home page: the page marked home, once published; until then a designed welcome.
import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { page } from "~/lib/routes.server";
import { mergeCacheHeaders, NOT_CACHEABLE } from "~/modules/sites/page-cache";
import { loadPublicPage } from "~/modules/sites/public-page.server";
import { PageContentView } from "~/site/blocks";
import { pageHead } from "~/site/page-head";
import { withSiteChrome } from "~/site/chrome";
import type { RouteHandle } from "~/ui/handle";
import blocksCss from "~/styles/site-blocks.css?url";

export const handle: RouteHandle = { hydrate: false };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: blocksCss }];

export const loader = page("public", ({ request, context, params }: LoaderFunctionArgs) =>
  loadPublicPage(request, context, params.site, null),
);

const ownMeta: MetaFunction<typeof loader> = ({ data }) => pageHead(data, true);

// The layout's tags (the site's frame) and the page's own (ADR 026).
export const headers: HeadersFunction = ({ loaderHeaders, parentHeaders, errorHeaders }) =>
  errorHeaders ? NOT_CACHEABLE : mergeCacheHeaders(parentHeaders, loaderHeaders);

// With the site's favicon, theme colour and sharing image: a page's `meta` replaces the layout's.
export const meta = withSiteChrome(ownMeta);

export default function SiteHome() {
  const data = useLoaderData<typeof loader>();
  if (data.page) return <PageContentView content={data.page.content} images={data.images} siteSlug={data.siteSlug} />;
  return (
    <div className="page-blocks">
      <section className="block block-hero block-welcome">
        <div className="block-inner block-hero__inner">
          <div className="block-hero__text">
            <h1 className="block-hero__heading">{data.siteName}</h1>
            <p className="block-hero__lead">
              Our new website is on its way. Thank you for stopping by — come back soon.
            </p>
          </div>
        </div>
      </section>
    </div>
  );
}
