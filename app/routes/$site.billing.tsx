// /{site}/billing — the signed-in customer's invoices on this site, newest first, each with its order, amount and
// PDF (ADR 032). Requires the site's customer session; never cached. Subscriptions join it with Stripe Billing.
import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { page } from "~/lib/routes.server";
import { requirePortalCustomer } from "~/modules/access/customer.server";
import { invoicesOf } from "~/modules/commerce/invoices.server";
import { formatMoney } from "~/modules/commerce/money";
import { PRIVATE } from "~/modules/customers/portal.server";
import { linkBase } from "~/modules/sites/address.server";
import { SITE_LAYOUT_ID, type SiteChrome, withSiteChrome } from "~/site/chrome";
import { PortalFrame, PortalPages, formatWhen } from "~/site/portal";
import type { RouteHandle } from "~/ui/handle";
import portalCss from "~/styles/site-portal.css?url";
import shopCss from "~/styles/site-shop.css?url";

export const handle: RouteHandle = { hydrate: false };
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: portalCss },
  { rel: "stylesheet", href: shopCss },
];

const PAGE_SIZE = 20;

export const loader = page("customer", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { site, customer } = await requirePortalCustomer(request, context, params.site);
  const invoices = invoicesOf(context.services.db, site.workspace.id);
  const paging = pageOf(request, PAGE_SIZE);
  const [list, total] = await Promise.all([
    invoices.ofCustomer(customer.id, paging),
    invoices.countOfCustomer(customer.id),
  ]);
  return {
    invoices: list.map((i) => ({
      number: i.number,
      orderId: i.orderId,
      orderNumber: i.orderNumber,
      issuedAt: i.issuedAt,
      total: formatMoney(i.total, i.currency),
      refunded: i.refunded > 0 ? formatMoney(i.refunded, i.currency) : null,
    })),
    page: paging.page,
    pages: pageCount(total, PAGE_SIZE),
    who: customer.name || customer.email,
    base: linkBase(context, site.workspace.slug),
  };
});

export const headers: HeadersFunction = () => PRIVATE;

const ownMeta: MetaFunction<typeof loader> = ({ matches }) => {
  const chrome = matches.find((m) => m.id === SITE_LAYOUT_ID)?.data as SiteChrome | undefined;
  return [{ title: chrome ? `Billing · ${chrome.name}` : "Billing" }, { name: "robots", content: "noindex, nofollow" }];
};
export const meta = withSiteChrome(ownMeta);

export default function Billing() {
  const { invoices, who, base, page: current, pages } = useLoaderData<typeof loader>();
  const chrome = useRouteLoaderData<SiteChrome>(SITE_LAYOUT_ID);
  const timeZone = chrome?.profile.timeZone ?? "UTC";
  return (
    <PortalFrame base={base} current="/billing" who={who}>
      <h1 className="portal__title">Billing</h1>
      <p className="portal-muted">The invoices of the orders you paid for, newest first.</p>
      {invoices.length === 0 ? (
        <p className="portal-empty">No invoices yet. Each order you pay for gets one here, to download as a PDF.</p>
      ) : (
        <>
          <ul className="portal-list" aria-label="Your invoices">
            {invoices.map((i) => (
              <li key={i.number} className="portal-list__item">
                <a href={`${base}/orders/${i.orderId}/invoice.pdf`} className="portal-list__link">
                  <span className="portal-list__title">
                    Invoice {i.number} · {i.total}
                  </span>
                  <span className="portal-muted">
                    Order #{i.orderNumber} · issued {formatWhen(i.issuedAt, timeZone)}
                    {i.refunded ? ` · ${i.refunded} refunded` : ""}
                  </span>
                </a>
                <span className="portal-muted">PDF</span>
              </li>
            ))}
          </ul>
          <PortalPages href={`${base}/billing`} current={current} pages={pages} label="Invoice pages" />
        </>
      )}
    </PortalFrame>
  );
}
