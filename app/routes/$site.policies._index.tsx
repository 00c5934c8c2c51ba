// /{site}/policies — the site's published policies (privacy, terms, refund, shipping), each linking to its page.
import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { page } from "~/lib/routes.server";
import { mergeCacheHeaders, NOT_CACHEABLE } from "~/modules/sites/page-cache";
import { resolveSiteBySlug } from "~/modules/access/site.server";
import { publicAddressOf } from "~/modules/sites/public-address.server";
import { policiesOf, policyDescription } from "~/modules/sites/policies.server";
import { policyPath } from "~/modules/sites/policy-kinds";
import { siteMeta } from "~/site/meta";
import siteContactCss from "~/styles/site-contact.css?url";
import { withSiteChrome } from "~/site/chrome";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: siteContactCss }];

export const loader = page("public", async ({ request, params, context }: LoaderFunctionArgs) => {
  const site = await resolveSiteBySlug(context.services.db, params.site);
  if (!site) throw new Response(null, { status: 404, statusText: "Not Found" });
  const { id, name, slug } = site.workspace;
  const policies = await policiesOf(context.services.db, id).published();
  const address = await publicAddressOf(request, context, site.workspace);
  return {
    name,
    slug,
    base: address.base,
    origin: address.origin,
    finalBase: address.finalBase,
    policies: policies.map((p) => ({ kind: p.kind, title: p.title, summary: policyDescription(p) })),
  };
});

const ownMeta: MetaFunction<typeof loader> = ({ data }) =>
  data
    ? siteMeta({
        siteName: data.name,
        origin: data.origin,
        path: `${data.finalBase}/policies`,
        title: "Policies",
        description: `How ${data.name} handles your data, orders, refunds and deliveries.`,
      })
    : [];

// The layout's tags (the site's frame: this page shows its profile and policies, both `settings`), ADR 026.
export const headers: HeadersFunction = ({ loaderHeaders, parentHeaders, errorHeaders }) =>
  errorHeaders ? NOT_CACHEABLE : mergeCacheHeaders(parentHeaders, loaderHeaders);

// With the site's favicon, theme colour and sharing image: a page's `meta` replaces the layout's.
export const meta = withSiteChrome(ownMeta);

export default function Policies() {
  const { name, base, policies } = useLoaderData<typeof loader>();
  return (
    <div className="site-container site-section">
      <h1>Policies</h1>
      {policies.length === 0 ? (
        <p>{name} has not published any policies yet. If you have a question, please get in touch.</p>
      ) : (
        <>
          <p>How {name} looks after your information, your orders and your money.</p>
          <ul className="site-policies">
            {policies.map((p) => (
              <li key={p.kind}>
                <Link to={policyPath(base, p.kind)}>
                  <strong>{p.title}</strong>
                  <span>{p.summary}</span>
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
