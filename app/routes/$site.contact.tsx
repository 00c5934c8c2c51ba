// /{site}/contact — the site's contact page: the contact form (posting to POST /api/v1/contact) and the ways
// to reach the business from its profile. The form's outcome is in the query (`?sent=1`, `?error=…`), so the
// page is the same for every visitor who asks for one address: cacheable, no token, nothing anyone typed.
import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { page } from "~/lib/routes.server";
import { mergeCacheHeaders, NOT_CACHEABLE } from "~/modules/sites/page-cache";
import { resolveSiteBySlug } from "~/modules/access/site.server";
import { publicAddressOf } from "~/modules/sites/public-address.server";
import { policiesOf } from "~/modules/sites/policies.server";
import { policyPath } from "~/modules/sites/policy-kinds";
import { ContactForm } from "~/site/contact-form";
import { CONTACT_QUERY, contactFormState, contactPagePath } from "~/site/contact-form-state";
import { publicCacheHeaders } from "~/modules/cache/headers";
import { siteMeta } from "~/site/meta";
import { withSiteChrome } from "~/site/chrome";

export const loader = page("public", async ({ request, params, context }: LoaderFunctionArgs) => {
  const site = await resolveSiteBySlug(context.services.db, params.site);
  // No site: the layout's loader answers (404, 503, or the 301 of a former address).
  if (!site) throw new Response(null, { status: 404, statusText: "Not Found" });
  const { id, name, slug } = site.workspace;
  const [privacy, address] = await Promise.all([
    policiesOf(context.services.db, id).get("privacy"),
    publicAddressOf(request, context, site.workspace),
  ]);
  return data(
    {
      name,
      slug,
      privacyHref: privacy?.published ? policyPath(address.base, "privacy") : undefined,
      origin: address.origin,
      finalBase: address.finalBase,
      state: contactFormState(new URL(request.url).searchParams),
    },
    // The form's outcome is in the query: each outcome is its own cached page (ADR 026).
    { headers: publicCacheHeaders({ tags: [], varyQuery: CONTACT_QUERY }) },
  );
});

const ownMeta: MetaFunction<typeof loader> = ({ data }) =>
  data
    ? siteMeta({
        siteName: data.name,
        origin: data.origin,
        path: contactPagePath(data.finalBase),
        title: "Contact",
        description: `Get in touch with ${data.name}: send a message and we will reply by e-mail.`,
        jsonLd: [
          {
            "@context": "https://schema.org",
            "@type": "ContactPage",
            name: `Contact ${data.name}`,
            url: `${data.origin}${contactPagePath(data.finalBase)}`,
          },
        ],
      })
    : [];

/** The profile's public fields as the layout's data carries them (`SiteChrome.profile`, issue 13's H3). */
interface ProfileContact {
  addressLines?: string[];
  phone?: string;
  email?: string;
  hours?: { days: string; hours: string }[];
}

const hasDetails = (profile?: ProfileContact): profile is ProfileContact =>
  Boolean(profile && (profile.addressLines?.some(Boolean) || profile.phone || profile.email || profile.hours?.length));

function ContactDetails({ profile }: { profile?: ProfileContact }) {
  if (!hasDetails(profile)) return null;
  const address = profile.addressLines?.filter(Boolean) ?? [];
  const hours = profile.hours ?? [];
  return (
    <aside className="site-contact-details" aria-labelledby="contact-details">
      <h2 id="contact-details">Other ways to reach us</h2>
      <dl>
        {address.length ? (
          <div>
            <dt>Visit</dt>
            <dd>
              <address>
                {address.map((line, i) => (
                  <span key={i}>
                    {line}
                    <br />
                  </span>
                ))}
              </address>
            </dd>
          </div>
        ) : null}
        {profile.phone ? (
          <div>
            <dt>Call</dt>
            <dd>
              <a href={`tel:${profile.phone.replace(/[^\d+]/g, "")}`}>{profile.phone}</a>
            </dd>
          </div>
        ) : null}
        {profile.email ? (
          <div>
            <dt>E-mail</dt>
            <dd>
              <a href={`mailto:${profile.email}`}>{profile.email}</a>
            </dd>
          </div>
        ) : null}
        {hours.length ? (
          <div>
            <dt>Opening hours</dt>
            <dd>
              <ul>
                {hours.map((h) => (
                  <li key={h.days}>
                    {h.days}: {h.hours}
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        ) : null}
      </dl>
    </aside>
  );
}

// The layout's tags (the site's frame: this page shows the profile and the privacy policy, both `settings`) and
// the query it varies on (ADR 026). No per-visitor token: the form posts to the contact API.
export const headers: HeadersFunction = ({ loaderHeaders, parentHeaders, errorHeaders }) =>
  errorHeaders ? NOT_CACHEABLE : mergeCacheHeaders(parentHeaders, loaderHeaders);

// With the site's favicon, theme colour and sharing image: a page's `meta` replaces the layout's.
export const meta = withSiteChrome(ownMeta);

export default function ContactPage() {
  const { name, slug, state, privacyHref } = useLoaderData<typeof loader>();
  // The business profile comes with the layout's data once the branding/profile work is merged (SiteChrome).
  const chrome = useRouteLoaderData("routes/$site") as { profile?: ProfileContact } | undefined;
  return (
    <div className="site-container site-section site-contact-page">
      <header className="site-contact-page-header">
        <h1>Contact {name}</h1>
        <p>Questions, orders, feedback — write to us and we will answer by e-mail as soon as we can.</p>
      </header>
      <div className={`site-contact-layout${hasDetails(chrome?.profile) ? " site-contact-layout--with-details" : ""}`}>
        <ContactForm siteSlug={slug} state={state} privacyHref={privacyHref} />
        <ContactDetails profile={chrome?.profile} />
      </div>
    </div>
  );
}
