// /{site}/orders/{id} — one order (ADR 030): its status, what was bought, the totals, where it goes, and while it
// is unpaid how to pay; cancel it while the shop allows, or order the same again. Open to its customer (signed
// in on this site) or to a guest holding this order's manage link (the confirmation e-mail's, or the one the
// checkout set); another customer's order is a 404. Never cached. A card order is paid from here on Stripe's page
// ("Pay by card"), and Stripe's return lands here: the payment is read from Stripe and applied (ADR 032).
import type {
  ActionFunctionArgs,
  HeadersFunction,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { invalid } from "~/lib/errors";
import { runForm, type FormResult } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { portalVisitor, type PortalVisitor } from "~/modules/access/customer.server";
import { cartCookie, cartsOf } from "~/modules/commerce/cart.server";
import { customerOrdersOf } from "~/modules/commerce/customer-orders.server";
import { invoicesOf } from "~/modules/commerce/invoices.server";
import { cardRelease, hostedCheckoutFor, settleHostedReturn } from "~/modules/commerce/hosted-checkout.server";
import { formatMoney } from "~/modules/commerce/money";
import { ORDER_STATUS_LABELS, countryName, providerName } from "~/modules/commerce/vocabulary";
import { assertGrants } from "~/modules/customers/manage-tokens.server";
import { PRIVATE, mailOrigin } from "~/modules/customers/portal.server";
import { linkBase } from "~/modules/sites/address.server";
import { profileOf } from "~/modules/sites/profile.server";
import { SITE_LAYOUT_ID, type SiteChrome, withSiteChrome } from "~/site/chrome";
import { FormNotice, PortalFrame, formatWhen } from "~/site/portal";
import { TotalsSummary } from "~/site/shop/summary";
import type { RouteHandle } from "~/ui/handle";
import { PackageList } from "~/ui/packages";
import portalCss from "~/styles/site-portal.css?url";
import shopCss from "~/styles/site-shop.css?url";

export const handle: RouteHandle = { hydrate: false };
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: portalCss },
  { rel: "stylesheet", href: shopCss },
];

const ordersFor = (context: LoaderFunctionArgs["context"], visitor: PortalVisitor) =>
  customerOrdersOf(
    context.services.db,
    visitor.site.workspace.id,
    visitor.kind === "customer" ? { customerId: visitor.customer.id } : { orderId: visitor.grant.subjectId },
  );

export const loader = page("customer", async ({ request, params, context }: LoaderFunctionArgs) => {
  const id = params.orderId ?? "";
  const visitor = await portalVisitor(request, context, params.site, { type: "order", id });
  let confirming = false;
  const search = new URL(request.url).searchParams;
  if (search.has("session_id") || search.has("token")) {
    // The provider's return. Its event may have applied the payment already, or may come later: either way once.
    const before = await ordersFor(context, visitor).detail(id);
    const origin = await mailOrigin(request, context);
    const settled = await settleHostedReturn(context.services, visitor.site.workspace.id, before.order, search, origin);
    if (settled === "applied") context.services.jobRunner.wake();
    confirming = settled === "confirming";
  }
  const { order, lines, payment, canCancel, shipments } = await ordersFor(context, visitor).detail(id);
  const profile = await profileOf(context.services.db, visitor.site.workspace.id).get();
  const when = (iso: string) =>
    new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: profile.timeZone }).format(
      new Date(iso),
    );
  const invoice = await invoicesOf(context.services.db, visitor.site.workspace.id).forOrder(order.id);
  return {
    confirming: confirming && providerName(order.paymentProvider),
    invoice: invoice && { number: invoice.number },
    order,
    lines,
    payment,
    packages: shipments.map((p) => ({
      ...p,
      statusDetail: "",
      sent: when(p.createdAt),
      steps: p.steps.map((t) => ({ ...t, at: when(t.occurredAt) })),
    })),
    canCancel: canCancel && (visitor.kind === "customer" || visitor.grant.actions.includes("cancel")),
    base: linkBase(context, visitor.site.workspace.slug),
    guest: visitor.kind === "guest",
    who: visitor.kind === "customer" ? visitor.customer.name || visitor.customer.email : order.email,
    placed: new URL(request.url).searchParams.has("placed"),
  };
});

export const action = page("customer", async ({ request, params, context }: ActionFunctionArgs) => {
  const id = params.orderId ?? "";
  const visitor = await portalVisitor(request, context, params.site, { type: "order", id });
  const mine = ordersFor(context, visitor);
  const base = linkBase(context, visitor.site.workspace.slug);
  return runForm(request, context, async (values): Promise<FormResult | Response> => {
    if (values.intent === "pay") {
      const { order } = await mine.detail(id);
      const origin = await mailOrigin(request, context);
      const url = await hostedCheckoutFor(context.services, visitor.site.workspace.id, order, {
        orderUrl: `${origin}${base}/orders/${id}`,
        cancelUrl: `${origin}${base}/orders/${id}`,
        origin,
        site: visitor.site.workspace.slug,
        brand: visitor.site.workspace.name,
      });
      return redirect(url, { status: 303, headers: PRIVATE });
    }
    if (values.intent === "cancel") {
      if (visitor.kind === "guest") assertGrants(visitor.grant, "cancel");
      const origin = await mailOrigin(request, context);
      // A card order's open checkout is expired first; if it turns out paid meanwhile, the payment stands.
      await mine.cancel(id, origin, cardRelease(context.services, origin));
      context.services.jobRunner.wake();
      return redirect(`${base}/orders/${id}`, { status: 303, headers: PRIVATE });
    }
    if (values.intent === "reorder") {
      const lines = await mine.reorderLines(id);
      const { secret } = await cartsOf(context.services.db, visitor.site.workspace.id).create(
        visitor.kind === "customer" ? visitor.customer.id : null,
        lines,
      );
      return redirect(`${base}/cart`, {
        status: 303,
        headers: { ...PRIVATE, "Set-Cookie": cartCookie(context, visitor.site.workspace.slug, secret) },
      });
    }
    throw invalid("Unknown action");
  });
});

export const headers: HeadersFunction = () => PRIVATE;

const ownMeta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const chrome = matches.find((m) => m.id === SITE_LAYOUT_ID)?.data as SiteChrome | undefined;
  const title = data ? `Order #${data.order.number}` : "Order";
  return [{ title: chrome ? `${title} · ${chrome.name}` : title }, { name: "robots", content: "noindex, nofollow" }];
};
export const meta = withSiteChrome(ownMeta);

export default function OrderPage() {
  const d = useLoaderData<typeof loader>();
  const chrome = useRouteLoaderData<SiteChrome>(SITE_LAYOUT_ID);
  const result = useActionData<FormResult>();
  const timeZone = chrome?.profile.timeZone ?? "UTC";
  const { order } = d;
  const money = (n: number) => formatMoney(n, order.currency);
  const content = (
    <>
      {d.guest ? null : (
        <p className="portal-back">
          <a href={`${d.base}/orders`}>← All orders</a>
        </p>
      )}
      <div className="portal__heading">
        <h1 className="portal__title">Order #{order.number}</h1>
        <span className={`portal-status portal-status--${order.status}`}>{ORDER_STATUS_LABELS[order.status]}</span>
      </div>
      {d.placed ? (
        <p className="portal-notice portal-notice--ok" role="status">
          Thank you! Your order is placed. A confirmation is on its way to {order.email}.
        </p>
      ) : null}
      <FormNotice result={result} />
      {d.confirming ? (
        <p className="portal-notice" role="status">
          {d.confirming} has not confirmed your payment yet. This page shows it as paid as soon as it does; reload in a
          moment.
        </p>
      ) : null}
      {d.payment?.kind === "hosted" && !d.confirming ? (
        <section className="portal-panel" aria-labelledby="pay-heading">
          <h2 id="pay-heading">{d.payment.title}</h2>
          <p>{d.payment.text}</p>
          <form method="post">
            <button type="submit" name="intent" value="pay" className="site-button">
              {d.payment.button} · {money(order.total - order.refunded)}
            </button>
          </form>
        </section>
      ) : null}
      {d.payment?.kind === "instructions" ? (
        <section className="portal-panel" aria-labelledby="pay-heading">
          <h2 id="pay-heading">{d.payment.title}</h2>
          <p className="order-instructions">{d.payment.text}</p>
          <p className="portal-muted">Amount: {money(order.total - order.refunded)}</p>
        </section>
      ) : null}
      <p className="portal-muted">Placed {formatWhen(order.createdAt, timeZone)}</p>
      <table className="order-lines">
        <caption className="visually-hidden">What you ordered</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Qty</th>
            <th scope="col">Price</th>
          </tr>
        </thead>
        <tbody>
          {d.lines.map((l) => (
            <tr key={l.id}>
              <td>
                {l.title}
                {l.variantTitle ? <span className="portal-muted"> · {l.variantTitle}</span> : null}
                {l.fulfilledQuantity > 0 ? <span className="portal-muted"> · {l.fulfilledQuantity} sent</span> : null}
              </td>
              <td>{l.quantity}</td>
              <td>{money(l.unitPrice * l.quantity)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <TotalsSummary
        totals={order}
        currency={order.currency}
        pricesIncludeTax={order.pricesIncludeTax}
        couponCode={order.couponCode}
        shippingLabel={order.shippingMethod}
      />
      {order.refunded > 0 ? <p className="portal-muted">Refunded: {money(order.refunded)}</p> : null}
      {d.invoice ? (
        <p>
          <a href={`${d.base}/orders/${order.id}/invoice.pdf`}>Download invoice {d.invoice.number} (PDF)</a>
        </p>
      ) : null}
      <div className="order-meta">
        <section>
          <h2>Contact</h2>
          <p>
            {order.name}
            <br />
            {order.email}
          </p>
        </section>
        {d.packages.length > 0 ? (
          <section aria-labelledby="packages-heading" className="order-packages">
            <h2 id="packages-heading">{d.packages.length > 1 ? "Your packages" : "Your package"}</h2>
            <PackageList packages={d.packages} />
          </section>
        ) : null}
        <section>
          <h2>{order.address ? "Delivery address" : "Delivery"}</h2>
          {order.address ? (
            <address>
              {order.address.line1}
              {order.address.line2 ? <>, {order.address.line2}</> : null}
              <br />
              {order.address.postalCode} {order.address.city}
              {order.address.region ? `, ${order.address.region}` : ""}
              <br />
              {countryName(order.address.country)}
            </address>
          ) : (
            <p>{order.shippingMethod}</p>
          )}
        </section>
      </div>
      <div className="order-actions">
        <form method="post">
          <button type="submit" name="intent" value="reorder" className="site-button site-button--secondary">
            Order again
          </button>
        </form>
        {/* Asked twice, without JavaScript: the first press only opens the question. */}
        {d.canCancel ? (
          <details className="order-cancel">
            <summary className="site-button site-button--secondary">Cancel this order</summary>
            <form method="post">
              <p>Cancel order #{order.number}? Its items go back on sale and nothing is owed.</p>
              <button type="submit" name="intent" value="cancel" className="site-button">
                Yes, cancel it
              </button>
            </form>
          </details>
        ) : null}
      </div>
    </>
  );
  if (d.guest) {
    return (
      <section className="site-section">
        <div className="site-container portal-guest-order">
          {content}
          <p className="portal-muted">
            You opened this page with a link for this order. <a href={`${d.base}/login`}>Sign in</a> with {order.email}{" "}
            to see all your orders.
          </p>
        </div>
      </section>
    );
  }
  return (
    <PortalFrame base={d.base} current="/orders" who={d.who}>
      {content}
    </PortalFrame>
  );
}
