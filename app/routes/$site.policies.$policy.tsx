// /{site}/policies/{privacy|terms|refund|shipping} — one published policy; a draft or an unknown kind is a 404.
import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { page } from "~/lib/routes.server";
import { mergeCacheHeaders, NOT_CACHEABLE } from "~/modules/sites/page-cache";
import { resolveSiteBySlug } from "~/modules/access/site.server";
import { publicAddressOf } from "~/modules/sites/public-address.server";
import { policiesOf, policyDescription } from "~/modules/sites/policies.server";
import { isPolicyKind, policyPath } from "~/modules/sites/policy-kinds";
import { siteMeta } from "~/site/meta";
import siteContactCss from "~/styles/site-contact.css?url";
import { SITE_LAYOUT_ID, withSiteChrome, type SiteChrome } from "~/site/chrome";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: siteContactCss }];

const notFound = () => new Response(null, { status: 404, statusText: "Not Found" });

export const loader = page("public", async ({ request, params, context }: LoaderFunctionArgs) => {
  const site = await resolveSiteBySlug(context.services.db, params.site);
  if (!site || !isPolicyKind(params.policy)) throw notFound();
  const { id, name, slug } = site.workspace;
  const policy = await policiesOf(context.services.db, id).get(params.policy);
  if (!policy?.published) {
    context.request.log.failure = "missing-data";
    throw notFound();
  }
  const address = await publicAddressOf(request, context, site.workspace);
  return {
    name,
    slug,
    base: address.base,
    origin: address.origin,
    finalBase: address.finalBase,
    policy: {
      kind: policy.kind,
      title: policy.title,
      // Rendered from Markdown and sanitised when it was saved (app/modules/sites/markdown.server.ts).
      html: policy.html,
      description: policyDescription(policy),
      updatedAt: policy.updatedAt,
    },
  };
});

const ownMeta: MetaFunction<typeof loader> = ({ data }) =>
  data
    ? siteMeta({
        siteName: data.name,
        origin: data.origin,
        path: policyPath(data.finalBase, data.policy.kind),
        title: data.policy.title,
        description: data.policy.description,
        type: "article",
      })
    : [];

const dateFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

// The layout's tags (the site's frame: this page shows its profile and policies, both `settings`), ADR 026.
export const headers: HeadersFunction = ({ loaderHeaders, parentHeaders, errorHeaders }) =>
  errorHeaders ? NOT_CACHEABLE : mergeCacheHeaders(parentHeaders, loaderHeaders);

// With the site's favicon, theme colour and sharing image: a page's `meta` replaces the layout's.
export const meta = withSiteChrome(ownMeta);

export default function PolicyPage() {
  const { base, policy } = useLoaderData<typeof loader>();
  return (
    <article className="site-container site-section site-policy">
      <h1>{policy.title}</h1>
      <p className="site-policy-updated">
        Last updated <time dateTime={policy.updatedAt}>{dateFormat.format(new Date(policy.updatedAt))}</time>
      </p>
      <div className="site-policy-body" dangerouslySetInnerHTML={{ __html: policy.html }} />
      <p className="site-policy-back">
        <Link to={`${base}/policies`}>All policies</Link>
      </p>
    </article>
  );
}

export function ErrorBoundary() {
  // The layout's data when the site exists (its link base: `/{slug}`, or "" on the site's own domain).
  const chrome = useRouteLoaderData<SiteChrome>(SITE_LAYOUT_ID);
  return (
    <div className="site-container site-section site-notfound">
      <title>Policy not found</title>
      <h1>Policy not found</h1>
      <p>This policy is not published. It may have been withdrawn, or the link may have a typo.</p>
      <p>
        <Link to={`${chrome?.base ?? ""}/policies`}>See the published policies</Link>
      </p>
    </div>
  );
}
