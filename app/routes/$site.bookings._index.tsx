// /{site}/bookings — what can be booked (ADR 036): each active service with its length, price, deposit, where it
// happens and its next free time, and "Choose a time". No service on offer: an empty state, as /shop shows when
// nothing is on sale. The same for every visitor (cached briefly: the next free times move with every booking);
// the picker's script only adds the browser's zone to the links.
import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { page } from "~/lib/routes.server";
import { resolveSiteBySlug } from "~/modules/access/site.server";
import { NOT_CACHEABLE, mergeCacheHeaders } from "~/modules/sites/page-cache";
import { publicAddressOf } from "~/modules/sites/public-address.server";
import { askedZone, bookingPageCacheHeaders, servicesPage, shortLived } from "~/modules/scheduling/public.server";
import { withSiteChrome } from "~/site/chrome";
import { siteMeta } from "~/site/meta";
import type { RouteHandle } from "~/ui/handle";
import pickerJs from "~/site/booking-picker.js?url&no-inline";

export const handle: RouteHandle = { hydrate: false, ownScript: true };
export const links: LinksFunction = () => [];

export const loader = page("public", async ({ request, params, context }: LoaderFunctionArgs) => {
  const site = await resolveSiteBySlug(context.services.db, params.site);
  if (!site) throw new Response(null, { status: 404, statusText: "Not Found" });
  const address = await publicAddressOf(request, context, site.workspace);
  const tz = askedZone(new URL(request.url).searchParams.get("tz"));
  const listing = await servicesPage(context.services.db, site.workspace.id, tz);
  return data(
    {
      name: site.workspace.name,
      base: address.base,
      origin: address.origin,
      finalBase: address.finalBase,
      tz,
      ...listing,
    },
    { headers: bookingPageCacheHeaders(site.workspace.id, ["tz"]) },
  );
});

const ownMeta: MetaFunction<typeof loader> = ({ data }) =>
  data
    ? siteMeta({
        siteName: data.name,
        origin: data.origin,
        path: `${data.finalBase}/bookings`,
        title: "Book an appointment",
        description:
          data.services.length > 0
            ? `Book ${data.services.map((s) => s.name).join(", ")} with ${data.name} online.`
            : `Book an appointment with ${data.name} online.`,
      })
    : [];
export const meta = withSiteChrome(ownMeta);

export const headers: HeadersFunction = ({ loaderHeaders, parentHeaders, errorHeaders }) =>
  errorHeaders ? NOT_CACHEABLE : shortLived(mergeCacheHeaders(parentHeaders, loaderHeaders));

export default function Bookings() {
  const d = useLoaderData<typeof loader>();
  const query = d.tz ? `?${new URLSearchParams({ tz: d.tz })}` : "";
  return (
    <section className="site-section booking">
      <div className="site-container">
        <header className="booking__intro">
          <h1 className="booking__title">Book an appointment</h1>
          <p className="booking__lead">Choose a service, then a day and a time that suit you.</p>
        </header>
        {d.services.length === 0 ? (
          <p className="booking-empty">
            {d.name} has nothing to book online yet. Please come back soon, or get in touch to arrange a time.
          </p>
        ) : (
          <ul className="booking-services" aria-label="Services">
            {d.services.map((s) => (
              <li key={s.slug} className="booking-service">
                <h2 className="booking-service__name">{s.name}</h2>
                <ul className="booking-facts" aria-label={`About ${s.name}`}>
                  <li>{s.duration}</li>
                  <li>{s.price}</li>
                  <li>{s.location}</li>
                </ul>
                {s.description ? <p className="booking-service__text">{s.description}</p> : null}
                {s.deposit ? <p className="booking-service__deposit">Deposit {s.deposit} when booking</p> : null}
                <p className="booking-service__next">
                  {s.next ? (
                    <>
                      Next free: <strong>{s.next}</strong>
                      <span className="booking-muted"> ({d.timeZone})</span>
                    </>
                  ) : (
                    "No free times in the next two weeks"
                  )}
                </p>
                <a
                  className="site-button booking-service__cta"
                  href={`${d.base}/bookings/${s.slug}${query}`}
                  data-booking-link=""
                >
                  Choose a time<span className="visually-hidden"> for {s.name}</span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </div>
      <script type="module" src={pickerJs} />
    </section>
  );
}
