// /shipping — packages (ADR 034): the paid orders still waiting to be sent (oldest first, each a link to the
// order page where it is packed, labelled and sent), and every package sent, newest first, with its carrier,
// tracking and state — filtered to those on their way, delivered, or in trouble. Every member reads.
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { connectionStatesOf } from "~/modules/commerce/connections.server";
import { formatMoney } from "~/modules/commerce/money";
import { ordersOf } from "~/modules/commerce/orders.server";
import { shipmentsOf } from "~/modules/commerce/shipments.server";
import { SHIPMENT_FILTERS, type ShipmentFilter } from "~/modules/commerce/vocabulary";
import { profileOf } from "~/modules/sites/profile.server";
import { SHIPPING_TABS } from "~/console/shop";
import { Pager } from "~/ui/pager";
import { SectionTabs } from "~/ui/section-tabs";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";

export const meta: MetaFunction = () => [{ title: "Shipping · Atrium" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
];

const PAGE_SIZE = 50;
const WAITING_SHOWN = 20;

const FILTER_LABELS: Record<ShipmentFilter, string> = {
  all: "All",
  open: "On their way",
  delivered: "Delivered",
  problem: "Problems",
};

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context, "viewer");
  const { db } = context.services;
  const asked = new URL(request.url).searchParams.get("show") ?? "all";
  const filter: ShipmentFilter = (SHIPMENT_FILTERS as readonly string[]).includes(asked)
    ? (asked as ShipmentFilter)
    : "all";
  const { page, ...window } = pageOf(request, PAGE_SIZE);
  const orders = ordersOf(db, workspace.id);
  const [shipments, waiting, waitingCount, profile, easypost] = await Promise.all([
    shipmentsOf(db, workspace.id).list(filter, { limit: window.size, offset: window.offset }),
    orders.list({ status: "to_send", size: WAITING_SHOWN, offset: 0, oldestFirst: true }),
    orders.count({ status: "to_send" }),
    profileOf(db, workspace.id).get(),
    connectionStatesOf(db, workspace.id).get("easypost"),
  ]);
  const day = (iso: string) =>
    new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: profile.timeZone }).format(new Date(iso));
  return {
    filter,
    page,
    pages: pageCount(shipments.total, PAGE_SIZE),
    total: shipments.total,
    labels: easypost?.status === "connected",
    // Oldest first: the order waiting longest is the one to pack next.
    waiting: waiting.map((o) => ({
      id: o.id,
      number: o.number,
      name: o.name,
      status: o.status,
      method: o.shippingMethod,
      country: o.address?.country ?? "",
      paid: o.paidAt ? day(o.paidAt) : "",
    })),
    waitingCount,
    shipments: shipments.items.map((s) => ({
      id: s.id,
      orderId: s.orderId,
      number: s.orderNumber,
      who: s.customerName,
      carrier: s.service ? `${s.carrier} · ${s.service}` : s.carrier,
      trackingNumber: s.trackingNumber,
      trackingUrl: s.trackingUrl,
      status: s.status,
      statusLabel: s.statusLabel,
      detail: s.statusDetail,
      label: s.labelUrl !== null,
      cost: s.labelCost !== null && s.labelCurrency ? formatMoney(s.labelCost, s.labelCurrency) : null,
      sent: day(s.createdAt),
      delivered: s.deliveredAt ? day(s.deliveredAt) : null,
    })),
  };
});

export default function Shipping() {
  const d = useLoaderData<typeof loader>();
  return (
    <>
      <div className="page-header">
        <h1>Shipping</h1>
        <Link className="button secondary" to="/settings/integrations/shipping">
          {d.labels ? "Label settings" : "Buy labels with EasyPost"}
        </Link>
      </div>
      <SectionTabs label="Shipping" tabs={SHIPPING_TABS} />

      <section className="panel" aria-labelledby="waiting-heading">
        <h2 id="waiting-heading">
          Waiting to be sent{d.waitingCount > 0 ? ` (${d.waitingCount.toLocaleString("en")})` : ""}
        </h2>
        {d.waiting.length === 0 ? (
          <p className="hint">Nothing to send: every paid order for delivery has left.</p>
        ) : (
          <>
            <p className="hint">
              Open an order to pack it:{" "}
              {d.labels
                ? "buy a label through EasyPost, or enter the carrier and tracking number of a label you bought elsewhere."
                : "enter the carrier and tracking number, and the customer gets an e-mail to follow their parcel."}
            </p>
            <div className="table-scroll" tabIndex={0} role="region" aria-label="Orders waiting to be sent">
              <table className="customer-table">
                <thead>
                  <tr>
                    <th scope="col">Order</th>
                    <th scope="col">Delivery</th>
                    <th scope="col">Paid</th>
                    <th scope="col">State</th>
                  </tr>
                </thead>
                <tbody>
                  {d.waiting.map((o) => (
                    <tr key={o.id}>
                      <td>
                        <Link to={`/shop/orders/${o.id}`}>#{o.number}</Link>
                        <span className="customer-email">{o.name}</span>
                      </td>
                      <td>
                        {o.method}
                        {o.country ? <span className="customer-email">{o.country}</span> : null}
                      </td>
                      <td>{o.paid}</td>
                      <td>
                        <span className={`status-pill status-pill--${o.status}`}>
                          {o.status === "partially_fulfilled" ? "Part sent" : "To send"}
                        </span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {d.waitingCount > d.waiting.length ? (
              <p className="hint">
                The {d.waiting.length} waiting longest are shown; <Link to="/shop/orders?status=paid">see all</Link>.
              </p>
            ) : null}
          </>
        )}
      </section>

      <h2 className="payments-heading">Packages</h2>
      <nav aria-label="Show packages" className="filter-chips">
        <ul>
          {SHIPMENT_FILTERS.map((f) => (
            <li key={f}>
              <Link
                to={f === "all" ? "/shipping" : `/shipping?show=${f}`}
                aria-current={f === d.filter ? "page" : undefined}
              >
                {FILTER_LABELS[f]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {d.shipments.length === 0 ? (
        <div className="empty">
          <p>
            {d.filter === "all" ? (
              <>
                <strong>No packages yet.</strong> When you send an order with its tracking number, or buy its label
                here, the package is listed with where it is.
              </>
            ) : (
              <>
                <strong>No packages here.</strong> <Link to="/shipping">Show all</Link>
              </>
            )}
          </p>
        </div>
      ) : (
        <>
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Packages">
            <table className="customer-table">
              <thead>
                <tr>
                  <th scope="col">Sent</th>
                  <th scope="col">Order</th>
                  <th scope="col">Carrier</th>
                  <th scope="col">Tracking</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {d.shipments.map((s) => (
                  <tr key={s.id}>
                    <td>{s.sent}</td>
                    <td>
                      <Link to={`/shop/orders/${s.orderId}`}>#{s.number}</Link>
                      <span className="customer-email">{s.who}</span>
                    </td>
                    <td>
                      {s.carrier}
                      {s.cost ? <span className="customer-email">Label {s.cost}</span> : null}
                    </td>
                    <td>
                      {s.trackingNumber ? (
                        s.trackingUrl ? (
                          <a href={s.trackingUrl} target="_blank" rel="noreferrer noopener">
                            {s.trackingNumber}
                          </a>
                        ) : (
                          s.trackingNumber
                        )
                      ) : (
                        <span className="hint">No tracking</span>
                      )}
                    </td>
                    <td>
                      <span className={`status-pill status-pill--shipment-${s.status}`}>{s.statusLabel}</span>
                      {s.delivered ? (
                        <span className="customer-email">{s.delivered}</span>
                      ) : s.detail ? (
                        <span className="customer-email">{s.detail}</span>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={d.page} pages={d.pages} label="Packages" query={d.filter === "all" ? {} : { show: d.filter }} />
        </>
      )}
    </>
  );
}
