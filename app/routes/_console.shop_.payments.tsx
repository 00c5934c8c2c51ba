// /shop/payments — every payment and refund across providers, newest first (ADR 030, 032), and the latest payouts
// (Stripe's transfers to the shop's bank, as Stripe last reported them).
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { formatMoney } from "~/modules/commerce/money";
import { providerName } from "~/modules/commerce/vocabulary";
import { ordersOf } from "~/modules/commerce/orders.server";
import { PAYOUT_STATUS_LABELS, payoutsOf } from "~/modules/commerce/payouts.server";
import { profileOf } from "~/modules/sites/profile.server";
import { SHOP_TABS } from "~/console/shop";
import { Pager } from "~/ui/pager";
import { SectionTabs } from "~/ui/section-tabs";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";

export const meta: MetaFunction = () => [{ title: "Payments · Atrium" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
];

const PAGE_SIZE = 50;
const PAYOUTS_SHOWN = 10;

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context, "viewer");
  const orders = ordersOf(context.services.db, workspace.id);
  const { page, ...window } = pageOf(request, PAGE_SIZE);
  const [payments, total, profile, payouts] = await Promise.all([
    orders.payments(window),
    orders.countPayments(),
    profileOf(context.services.db, workspace.id).get(),
    payoutsOf(context.services.db, workspace.id).latest(PAYOUTS_SHOWN),
  ]);
  const day = (iso: string) =>
    new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: profile.timeZone }).format(new Date(iso));
  const when = (iso: string) =>
    new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: profile.timeZone }).format(
      new Date(iso),
    );
  return {
    page,
    pages: pageCount(total, PAGE_SIZE),
    payouts: payouts.map((p) => ({
      id: p.id,
      amount: formatMoney(p.amount, p.currency),
      status: p.status,
      label: PAYOUT_STATUS_LABELS[p.status] ?? p.status,
      arrival: day(p.arrivalDate),
      detail: p.detail,
    })),
    payments: payments.map((p) => ({
      id: p.id,
      kind: p.kind,
      amount: `${p.kind === "refund" ? "−" : ""}${formatMoney(p.amount, p.currency)}`,
      provider: providerName(p.provider),
      note: p.note,
      at: when(p.created_at),
      orderId: p.order_id,
      number: p.number,
      who: p.name || p.email,
    })),
  };
});

export default function ShopPayments() {
  const d = useLoaderData<typeof loader>();
  return (
    <>
      <div className="page-header">
        <h1>Payments</h1>
        <Link className="button secondary" to="/settings/integrations/payments">
          Payment settings
        </Link>
      </div>
      <SectionTabs label="Shop" tabs={SHOP_TABS} />
      {d.payouts.length > 0 ? (
        <section aria-labelledby="payouts-heading" className="payouts">
          <h2 id="payouts-heading">Payouts to your bank</h2>
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Payouts">
            <table className="customer-table">
              <thead>
                <tr>
                  <th scope="col">Arrives</th>
                  <th scope="col">Status</th>
                  <th scope="col">Provider</th>
                  <th scope="col" className="amount">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {d.payouts.map((p) => (
                  <tr key={p.id}>
                    <td>{p.arrival}</td>
                    <td>
                      <span className={`status-pill status-pill--payout-${p.status}`}>{p.label}</span>
                      {p.detail ? <span className="customer-email">{p.detail}</span> : null}
                    </td>
                    <td>Stripe</td>
                    <td className="amount">{p.amount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
      <h2 className="payments-heading">Payments and refunds</h2>
      {d.payments.length === 0 ? (
        <div className="empty">
          <p>
            <strong>No payments yet.</strong> When you mark an order as paid, or refund one, it is listed here.
          </p>
        </div>
      ) : (
        <>
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Payments">
            <table className="customer-table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Order</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Provider</th>
                  <th scope="col" className="amount">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {d.payments.map((p) => (
                  <tr key={p.id}>
                    <td>{p.at}</td>
                    <td>
                      <Link to={`/shop/orders/${p.orderId}`}>#{p.number}</Link>
                      <span className="customer-email">{p.who}</span>
                    </td>
                    <td>
                      {p.kind === "refund" ? "Refund" : "Payment"}
                      {p.note ? <span className="customer-email">{p.note}</span> : null}
                    </td>
                    <td>{p.provider}</td>
                    <td className="amount">{p.amount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={d.page} pages={d.pages} label="Payment pages" query={{}} />
        </>
      )}
    </>
  );
}
