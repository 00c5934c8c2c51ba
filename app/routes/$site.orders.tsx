// /{site}/orders — the signed-in customer's orders on this site, newest first, each with its status and total
// (ADR 030). Requires the site's customer session; never cached.
import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { page } from "~/lib/routes.server";
import { requirePortalCustomer } from "~/modules/access/customer.server";
import { customerOrdersOf } from "~/modules/commerce/customer-orders.server";
import { formatMoney } from "~/modules/commerce/money";
import { ORDER_STATUS_LABELS } from "~/modules/commerce/vocabulary";
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
  const mine = customerOrdersOf(context.services.db, site.workspace.id, { customerId: customer.id });
  const paging = pageOf(request, PAGE_SIZE);
  const [orders, total] = await Promise.all([mine.list(paging), mine.count()]);
  return {
    orders: orders.map((o) => ({
      id: o.id,
      number: o.number,
      status: o.status,
      total: formatMoney(o.total, o.currency),
      createdAt: o.createdAt,
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
  return [{ title: chrome ? `Orders · ${chrome.name}` : "Orders" }, { name: "robots", content: "noindex, nofollow" }];
};
export const meta = withSiteChrome(ownMeta);

export default function Orders() {
  const { orders, who, base, page: current, pages } = useLoaderData<typeof loader>();
  const chrome = useRouteLoaderData<SiteChrome>(SITE_LAYOUT_ID);
  const timeZone = chrome?.profile.timeZone ?? "UTC";
  return (
    <PortalFrame base={base} current="/orders" who={who}>
      <h1 className="portal__title">Orders</h1>
      {orders.length === 0 ? (
        <p className="portal-empty">
          No orders yet. What you buy in the <a href={`${base}/shop`}>shop</a> appears here, with its status and
          receipt.
        </p>
      ) : (
        <>
          <ul className="portal-list" aria-label="Your orders">
            {orders.map((o) => (
              <li key={o.id} className="portal-list__item">
                <a href={`${base}/orders/${o.id}`} className="portal-list__link">
                  <span className="portal-list__title">
                    Order #{o.number} · {o.total}
                  </span>
                  <span className="portal-muted">Placed {formatWhen(o.createdAt, timeZone)}</span>
                </a>
                <span className={`portal-status portal-status--${o.status}`}>{ORDER_STATUS_LABELS[o.status]}</span>
              </li>
            ))}
          </ul>
          <PortalPages href={`${base}/orders`} current={current} pages={pages} label="Order pages" />
        </>
      )}
    </PortalFrame>
  );
}
