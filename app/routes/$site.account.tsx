// /{site}/account — the customer portal's overview (ADR 029): who is signed in, their open support requests and
// the way to everything else. Requires the site's customer session (else the sign-in page, and back here);
// never cached. Orders, billing and bookings join it with commerce and scheduling.
import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { page } from "~/lib/routes.server";
import { requirePortalCustomer } from "~/modules/access/customer.server";
import { PRIVATE } from "~/modules/customers/portal.server";
import { ticketsOf } from "~/modules/customers/tickets.server";
import { linkBase } from "~/modules/sites/address.server";
import { SITE_LAYOUT_ID, type SiteChrome, withSiteChrome } from "~/site/chrome";
import { PortalFrame, TicketList, formatWhen } from "~/site/portal";
import type { RouteHandle } from "~/ui/handle";
import portalCss from "~/styles/site-portal.css?url";

export const handle: RouteHandle = { hydrate: false };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalCss }];

export const loader = page("customer", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { site, customer } = await requirePortalCustomer(request, context, params.site);
  const mine = ticketsOf(context.services.db, site.workspace.id).ofOwner({ customerId: customer.id });
  const [recent, total] = await Promise.all([mine.list({ size: 3, offset: 0 }), mine.count()]);
  return {
    name: customer.name,
    email: customer.email,
    since: customer.createdAt,
    recent,
    total,
    base: linkBase(context, site.workspace.slug),
  };
});

export const headers: HeadersFunction = () => PRIVATE;

const ownMeta: MetaFunction<typeof loader> = ({ matches }) => {
  const chrome = matches.find((m) => m.id === SITE_LAYOUT_ID)?.data as SiteChrome | undefined;
  return [
    { title: chrome ? `Your account · ${chrome.name}` : "Your account" },
    { name: "robots", content: "noindex, nofollow" },
  ];
};
export const meta = withSiteChrome(ownMeta);

export default function Account() {
  const { name, email, since, recent, total, base } = useLoaderData<typeof loader>();
  const chrome = useRouteLoaderData<SiteChrome>(SITE_LAYOUT_ID);
  const timeZone = chrome?.profile.timeZone ?? "UTC";
  const waiting = recent.filter((t) => t.status === "pending").length;
  return (
    <PortalFrame base={base} current="/account" who={name || email}>
      <h1 className="portal__title">{name ? `Hello, ${name.split(" ")[0]}` : "Your account"}</h1>
      <p className="portal-panel__lead">
        Signed in as {email}. Customer since {formatWhen(since, timeZone).split(",")[0]}.
      </p>
      {!name ? (
        <p className="portal-notice">
          <a href={`${base}/profile`}>Add your name</a> so {chrome?.name ?? "the business"} knows who you are.
        </p>
      ) : null}
      <div className="portal-cards">
        <section className="portal-panel" aria-labelledby="support-heading">
          <div className="portal__heading">
            <h2 id="support-heading">Support</h2>
            <a href={`${base}/tickets?new=1#new-request`}>New request</a>
          </div>
          {recent.length === 0 ? (
            <p className="portal-empty">No support requests yet.</p>
          ) : (
            <>
              {waiting > 0 ? (
                <p className="portal-notice portal-notice--ok">
                  {waiting === 1 ? "One request has" : `${waiting} requests have`} an answer for you.
                </p>
              ) : null}
              <TicketList tickets={recent} base={base} timeZone={timeZone} />
              {total > recent.length ? <a href={`${base}/tickets`}>All {total} requests</a> : null}
            </>
          )}
        </section>
        <section className="portal-panel" aria-labelledby="more-heading">
          <h2 id="more-heading">Account settings</h2>
          <ul className="portal-links">
            <li>
              <a href={`${base}/profile`}>Profile and e-mail preferences</a>
            </li>
            <li>
              <a href={`${base}/saved`}>Saved pages</a>
            </li>
            <li>
              <a href={`${base}/profile#data-heading`}>Download or erase your data</a>
            </li>
          </ul>
        </section>
      </div>
    </PortalFrame>
  );
}
