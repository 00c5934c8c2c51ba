// /shop/orders — the shop's orders, newest first (ADR 030): filter by state (open ones first of all: awaiting
// payment, paid and not yet sent), search by number, name or e-mail; each opens at /shop/orders/{id}.
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { page } from "~/lib/routes.server";
import { now } from "~/lib/clock.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { formatMoney } from "~/modules/commerce/money";
import { ordersOf } from "~/modules/commerce/orders.server";
import { ORDER_STATUSES, ORDER_STATUS_LABELS, type OrderStatus } from "~/modules/commerce/vocabulary";
import { profileOf } from "~/modules/sites/profile.server";
import { receivedShort } from "~/console/inbox-format";
import { SHOP_TABS } from "~/console/shop";
import { DescribedField } from "~/ui/form";
import { Pager } from "~/ui/pager";
import { SectionTabs } from "~/ui/section-tabs";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";

export const meta: MetaFunction = () => [{ title: "Orders · Atrium" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
];

const PAGE_SIZE = 25;
const FILTERS = [
  { value: "", label: "All orders" },
  { value: "open", label: "Open (to pay or send)" },
  ...ORDER_STATUSES.map((s) => ({ value: s, label: ORDER_STATUS_LABELS[s] })),
];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context, "viewer");
  const { db } = context.services;
  const url = new URL(request.url);
  const query = url.searchParams.get("q")?.trim().slice(0, 200) ?? "";
  const asked = url.searchParams.get("status") ?? "";
  const status =
    asked === "open" || (ORDER_STATUSES as readonly string[]).includes(asked)
      ? (asked as OrderStatus | "open")
      : undefined;
  const orders = ordersOf(db, workspace.id);
  const { page, ...window } = pageOf(request, PAGE_SIZE);
  const filter = { query: query || undefined, status };
  const [list, total, everyone, profile] = await Promise.all([
    orders.list({ ...filter, ...window }),
    orders.count(filter),
    orders.count(),
    profileOf(db, workspace.id).get(),
  ]);
  return {
    query,
    status: status ?? "",
    total,
    everyone,
    page,
    pages: pageCount(total, PAGE_SIZE),
    slug: workspace.slug,
    orders: list.map((o) => ({
      id: o.id,
      number: o.number,
      name: o.name,
      email: o.email,
      status: o.status,
      total: formatMoney(o.total, o.currency),
      payment:
        o.paymentMethod === "manual:pay_on_pickup"
          ? "Pay on pickup"
          : o.paymentMethod === "manual:bank_transfer"
            ? "Bank transfer"
            : o.paymentMethod,
      placed: receivedShort(o.createdAt, now(), profile.timeZone),
    })),
  };
});

export default function Orders() {
  const d = useLoaderData<typeof loader>();
  const filtered = d.query !== "" || d.status !== "";
  const query: Record<string, string> = {};
  if (d.query) query.q = d.query;
  if (d.status) query.status = d.status;
  return (
    <>
      <div className="page-header">
        <h1>Orders</h1>
      </div>
      <SectionTabs label="Shop" tabs={SHOP_TABS} />
      <Form method="get" className="customer-search" role="search">
        <DescribedField id="order-q" label="Search orders">
          {(describedBy) => (
            <input
              id="order-q"
              name="q"
              type="search"
              defaultValue={d.query}
              placeholder="Order number, name or e-mail"
              aria-describedby={describedBy}
            />
          )}
        </DescribedField>
        <DescribedField id="order-status" label="Show">
          {(describedBy) => (
            <select id="order-status" name="status" defaultValue={d.status} aria-describedby={describedBy}>
              {FILTERS.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          )}
        </DescribedField>
        <button type="submit" className="secondary">
          Search
        </button>
        {filtered ? <Link to="/shop/orders">Clear</Link> : null}
      </Form>
      {d.orders.length === 0 ? (
        <div className="empty">
          {filtered ? (
            <p>
              <strong>No order matches.</strong> <Link to="/shop/orders">Show all orders</Link>
            </p>
          ) : (
            <p>
              <strong>No orders yet.</strong> When a customer checks out at{" "}
              <a href={`/${d.slug}/shop`}>/{d.slug}/shop</a>, the order appears here and you get an e-mail.
            </p>
          )}
        </div>
      ) : (
        <>
          <p className="list-summary">
            {d.total.toLocaleString("en")} {d.total === 1 ? "order" : "orders"}
            {filtered ? ` of ${d.everyone.toLocaleString("en")}` : ""}
          </p>
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Orders">
            <table className="customer-table">
              <thead>
                <tr>
                  <th scope="col">Order</th>
                  <th scope="col">Customer</th>
                  <th scope="col">Status</th>
                  <th scope="col">Payment</th>
                  <th scope="col" className="amount">
                    Total
                  </th>
                </tr>
              </thead>
              <tbody>
                {d.orders.map((o) => (
                  <tr key={o.id}>
                    <td>
                      <Link to={`/shop/orders/${o.id}`} className="customer-name">
                        #{o.number}
                      </Link>
                      <span className="customer-email">{o.placed}</span>
                    </td>
                    <td>
                      {o.name}
                      <span className="customer-email">{o.email}</span>
                    </td>
                    <td>
                      <span className={`status-pill status-pill--${o.status}`}>{ORDER_STATUS_LABELS[o.status]}</span>
                    </td>
                    <td>{o.payment}</td>
                    <td className="amount">{o.total}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={d.page} pages={d.pages} label="Order pages" query={query} />
        </>
      )}
    </>
  );
}
