// /shop/subscriptions — the shop's subscriptions (ADR 033), newest first: who, what, the price per period, the
// state Stripe last reported and when it is next charged or ends. Running ones by default; ended ones a filter
// away. Customers start and cancel their own from the site; Stripe charges them. Every member reads it.
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { connectionStatesOf } from "~/modules/commerce/connections.server";
import { formatMoney } from "~/modules/commerce/money";
import { subscriptionsOf } from "~/modules/commerce/subscriptions.server";
import { SUBSCRIPTION_STATUS_LABELS, planPrice } from "~/modules/commerce/vocabulary";
import { profileOf } from "~/modules/sites/profile.server";
import { SHOP_TABS } from "~/console/shop";
import { DescribedField } from "~/ui/form";
import { Pager } from "~/ui/pager";
import { SectionTabs } from "~/ui/section-tabs";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";

export const meta: MetaFunction = () => [{ title: "Subscriptions · Atrium" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
];

const PAGE_SIZE = 50;
const FILTERS = [
  { value: "live", label: "Running" },
  { value: "ended", label: "Ended" },
  { value: "all", label: "All" },
] as const;
type Filter = (typeof FILTERS)[number]["value"];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context, "viewer");
  const { db } = context.services;
  const asked = new URL(request.url).searchParams.get("show");
  const show: Filter = FILTERS.some((f) => f.value === asked) ? (asked as Filter) : "live";
  const { page, ...window } = pageOf(request, PAGE_SIZE);
  const [{ subscriptions, total }, profile, stripe] = await Promise.all([
    subscriptionsOf(db, workspace.id).list(window, show),
    profileOf(db, workspace.id).get(),
    connectionStatesOf(db, workspace.id).get("stripe"),
  ]);
  const day = (iso: string | null) =>
    iso
      ? new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: profile.timeZone }).format(new Date(iso))
      : "";
  return {
    show,
    page,
    pages: pageCount(total, PAGE_SIZE),
    total,
    stripeConnected: stripe?.status === "connected",
    subscriptions: subscriptions.map((s) => {
      const ended = s.status === "canceled" || s.status === "incomplete_expired";
      return {
        id: s.id,
        customerId: s.customerId,
        who: s.customer.name || s.customer.email,
        email: s.customer.email,
        title: s.title,
        productId: s.productId,
        price: planPrice(formatMoney(s.amount, s.currency), s),
        status: ended ? "ended" : s.cancelAtPeriodEnd ? "ending" : s.status,
        label: s.cancelAtPeriodEnd && !ended ? "Cancelled" : (SUBSCRIPTION_STATUS_LABELS[s.status] ?? s.status),
        next: ended
          ? `Ended ${day(s.canceledAt)}`
          : s.cancelAtPeriodEnd
            ? `Ends ${day(s.currentPeriodEnd)}`
            : s.status === "trialing"
              ? `Trial until ${day(s.trialEndsAt)}`
              : s.currentPeriodEnd
                ? `Next charge ${day(s.currentPeriodEnd)}`
                : "",
        started: day(s.createdAt),
      };
    }),
  };
});

export default function ShopSubscriptions() {
  const d = useLoaderData<typeof loader>();
  return (
    <>
      <div className="page-header">
        <h1>Subscriptions</h1>
      </div>
      <SectionTabs label="Shop" tabs={SHOP_TABS} />
      <Form method="get" className="customer-search">
        <DescribedField id="subscription-show" label="Show">
          {(describedBy) => (
            <select id="subscription-show" name="show" defaultValue={d.show} aria-describedby={describedBy}>
              {FILTERS.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          )}
        </DescribedField>
        <button type="submit" className="secondary">
          Show
        </button>
      </Form>
      {d.subscriptions.length === 0 ? (
        <div className="empty">
          <p>
            <strong>{d.show === "ended" ? "No ended subscriptions." : "No subscriptions yet."}</strong>{" "}
            {d.stripeConnected ? (
              <>
                Sell a product as a subscription from its page (“How it is sold”), and customers subscribe from the
                shop.
              </>
            ) : (
              <>
                Subscriptions are paid by card: <Link to="/settings/integrations/payments">connect Stripe</Link>, then
                sell a product as a subscription from its page.
              </>
            )}
          </p>
        </div>
      ) : (
        <>
          <p className="list-summary">
            {d.total.toLocaleString("en")} {d.total === 1 ? "subscription" : "subscriptions"}
          </p>
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Subscriptions">
            <table className="customer-table">
              <thead>
                <tr>
                  <th scope="col">Customer</th>
                  <th scope="col">Subscription</th>
                  <th scope="col">Status</th>
                  <th scope="col">Next</th>
                  <th scope="col">Started</th>
                </tr>
              </thead>
              <tbody>
                {d.subscriptions.map((s) => (
                  <tr key={s.id}>
                    <td>
                      <Link to={`/customers/${s.customerId}`}>{s.who}</Link>
                      {s.who !== s.email ? <span className="customer-email">{s.email}</span> : null}
                    </td>
                    <td>
                      {s.productId ? <Link to={`/shop/products/${s.productId}`}>{s.title}</Link> : s.title}
                      <span className="customer-email">{s.price}</span>
                    </td>
                    <td>
                      <span className={`status-pill status-pill--subscription-${s.status}`}>{s.label}</span>
                    </td>
                    <td>{s.next}</td>
                    <td>{s.started}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={d.page} pages={d.pages} label="Subscription pages" query={{ show: d.show }} />
        </>
      )}
    </>
  );
}
