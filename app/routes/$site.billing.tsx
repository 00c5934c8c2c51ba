// /{site}/billing — the signed-in customer's subscriptions and invoices on this site (ADR 032, 033). Each
// subscription shows its state as Stripe last reported it (trial, next charge, ending, a failed payment with the
// invoice to pay), its latest charges, and a cancellation at the end of the period paid for (after a confirmation
// step), which can be taken back until then. `?subscribe={variant}` is a product page's "Subscribe" (after
// signing in if need be): the plan, then Stripe's page; `?subscribed={session}` is Stripe's return. Requires the
// site's customer session; never cached.
import type {
  ActionFunctionArgs,
  HeadersFunction,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { DomainError, invalid } from "~/lib/errors";
import { runForm, type FormResult } from "~/lib/forms.server";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { page } from "~/lib/routes.server";
import { requirePortalCustomer } from "~/modules/access/customer.server";
import { invoicesOf } from "~/modules/commerce/invoices.server";
import { formatMoney } from "~/modules/commerce/money";
import {
  type SubscriptionOffer,
  setCancelAtPeriodEnd,
  settleSubscriptionCheckout,
  startSubscription,
  subscriptionOffer,
} from "~/modules/commerce/stripe-billing.server";
import { type SubscriptionCharge, subscriptionsOf } from "~/modules/commerce/subscriptions.server";
import { SUBSCRIPTION_STATUS_LABELS, planPeriod, planPrice } from "~/modules/commerce/vocabulary";
import { PRIVATE, mailOrigin } from "~/modules/customers/portal.server";
import { linkBase } from "~/modules/sites/address.server";
import { profileOf } from "~/modules/sites/profile.server";
import { SITE_LAYOUT_ID, type SiteChrome, withSiteChrome } from "~/site/chrome";
import { FormNotice, PortalFrame, PortalPages, formatWhen } from "~/site/portal";
import type { RouteHandle } from "~/ui/handle";
import portalCss from "~/styles/site-portal.css?url";
import shopCss from "~/styles/site-shop.css?url";

export const handle: RouteHandle = { hydrate: false };
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: portalCss },
  { rel: "stylesheet", href: shopCss },
];

const PAGE_SIZE = 20;

/** A subscription whose last charge failed: what it was for and Stripe's page to pay it with another card. */
function unpaidOf(s: { status: string; charges: SubscriptionCharge[] }) {
  if (s.status !== "past_due" && s.status !== "unpaid") return null;
  const failed = s.charges.find((c) => c.status === "failed");
  return failed ? { amount: formatMoney(failed.amount, failed.currency), hostedUrl: failed.hostedUrl } : null;
}

const NOTICES: Record<string, string> = {
  subscribed: "You are subscribed. It is below, with when it is next charged.",
  pending: "Stripe has not confirmed your subscription yet; it shows here as soon as it does.",
  cancelled: "Your subscription is cancelled: it runs until the end of the period you paid for, then stops.",
  resumed: "Your subscription carries on as before.",
};

export const loader = page("customer", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { site, customer } = await requirePortalCustomer(request, context, params.site);
  const ws = site.workspace.id;
  const base = linkBase(context, site.workspace.slug);
  const search = new URL(request.url).searchParams;
  const returned = search.get("subscribed");
  if (returned) {
    // Stripe's return: the subscription read from Stripe with the shop's key (the events may have shown it already).
    const made = await settleSubscriptionCheckout(context.services, ws, returned, customer.id).catch(
      (error: unknown) => {
        if (error instanceof DomainError && error.kind === "not-found") throw error;
        context.services.logger.warn({ err: error }, "a return from Stripe's subscription page could not be confirmed");
        return null;
      },
    );
    return redirect(`${base}/billing?notice=${made ? "subscribed" : "pending"}`, { status: 303, headers: PRIVATE });
  }
  const subscriptions = subscriptionsOf(context.services.db, ws);
  const invoices = invoicesOf(context.services.db, ws);
  const paging = pageOf(request, PAGE_SIZE);
  const asked = search.get("subscribe");
  const [list, invoiceList, total, profile, offer] = await Promise.all([
    subscriptions.billingOf(customer.id),
    invoices.ofCustomer(customer.id, paging),
    invoices.countOfCustomer(customer.id),
    profileOf(context.services.db, ws).get(),
    asked
      ? subscriptionOffer(context.services, ws, customer.id, asked).catch((error: unknown) => {
          if (error instanceof DomainError) return { refused: error.message };
          throw error;
        })
      : null,
  ]);
  const cancelling = search.get("cancel");
  return {
    notice: NOTICES[search.get("notice") ?? ""] ?? null,
    offer: offer && "refused" in offer ? null : (offer as SubscriptionOffer | null),
    offerRefused: offer && "refused" in offer ? offer.refused : null,
    currency: profile.currency,
    subscriptions: list.map((s) => ({
      id: s.id,
      title: s.title,
      status: s.status,
      statusLabel: SUBSCRIPTION_STATUS_LABELS[s.status] ?? s.status,
      price: planPrice(formatMoney(s.amount, s.currency), s),
      trialEndsAt: s.status === "trialing" ? s.trialEndsAt : null,
      periodEnd: s.currentPeriodEnd,
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      endedAt: s.status === "canceled" ? s.canceledAt : null,
      live: !["canceled", "incomplete_expired"].includes(s.status),
      confirmingCancel: cancelling === s.id,
      unpaid: unpaidOf(s),
      charges: s.charges.map((c) => ({
        reference: c.reference,
        number: c.number,
        paid: c.status === "paid",
        amount: formatMoney(c.amount, c.currency),
        at: c.occurredAt,
        url: c.pdfUrl ?? c.hostedUrl,
      })),
    })),
    invoices: invoiceList.map((i) => ({
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
    base,
  };
});

export const action = page("customer", async ({ request, params, context }: ActionFunctionArgs) => {
  const { site, customer } = await requirePortalCustomer(request, context, params.site);
  const ws = site.workspace.id;
  const base = linkBase(context, site.workspace.slug);
  return runForm(request, context, async (values): Promise<FormResult | Response> => {
    switch (values.intent) {
      case "subscribe": {
        const origin = await mailOrigin(request, context);
        const currency = (await profileOf(context.services.db, ws).get()).currency;
        const offer = await subscriptionOffer(context.services, ws, customer.id, values.variant ?? "");
        const url = await startSubscription(context.services, ws, customer, offer.variantId, currency, {
          success: `${origin}${base}/billing`,
          cancel: `${origin}${base}/shop/${offer.productSlug}`,
        });
        return redirect(url, { status: 303, headers: PRIVATE });
      }
      case "cancel":
      case "resume":
        await setCancelAtPeriodEnd(
          context.services,
          ws,
          customer.id,
          values.subscription ?? "",
          values.intent === "cancel",
        );
        return redirect(`${base}/billing?notice=${values.intent === "cancel" ? "cancelled" : "resumed"}`, {
          status: 303,
          headers: PRIVATE,
        });
      default:
        throw invalid("Unknown action");
    }
  });
});

export const headers: HeadersFunction = () => PRIVATE;

const ownMeta: MetaFunction<typeof loader> = ({ matches }) => {
  const chrome = matches.find((m) => m.id === SITE_LAYOUT_ID)?.data as SiteChrome | undefined;
  return [{ title: chrome ? `Billing · ${chrome.name}` : "Billing" }, { name: "robots", content: "noindex, nofollow" }];
};
export const meta = withSiteChrome(ownMeta);

const formatDay = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone }).format(new Date(iso));

export default function Billing() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const chrome = useRouteLoaderData<SiteChrome>(SITE_LAYOUT_ID);
  const timeZone = chrome?.profile.timeZone ?? "UTC";
  const { base } = d;
  return (
    <PortalFrame base={base} current="/billing" who={d.who}>
      <h1 className="portal__title">Billing</h1>
      {d.notice ? (
        <p className="portal-notice portal-notice--ok" role="status">
          {d.notice}
        </p>
      ) : null}
      <FormNotice result={result} />
      {d.offerRefused ? (
        <p className="portal-notice portal-notice--error" role="alert">
          {d.offerRefused}
        </p>
      ) : null}

      {d.offer ? (
        <form method="post" action={`${base}/billing`} className="portal-panel billing-offer">
          <h2>Subscribe to {d.offer.title}</h2>
          <p className="billing-offer__price">{planPrice(formatMoney(d.offer.price, d.currency), d.offer)}</p>
          {d.offer.existing ? (
            <p className="portal-panel__lead">You already subscribe to this; it is listed below.</p>
          ) : !d.offer.cardsReady ? (
            <p className="portal-panel__lead">
              This shop cannot take card payments at the moment, so subscriptions cannot start. Please try again later.
            </p>
          ) : (
            <>
              <p className="portal-panel__lead">
                {d.offer.trialDays > 0
                  ? `The first ${d.offer.trialDays} days are free; then your card is charged every ${planPeriod(d.offer)}.`
                  : `Your card is charged now, then every ${planPeriod(d.offer)}.`}{" "}
                You can cancel here at any time: it stops at the end of the period you paid for.
              </p>
              <input type="hidden" name="intent" value="subscribe" />
              <input type="hidden" name="variant" value={d.offer.variantId} />
              <p className="portal-form__actions">
                <button type="submit" className="site-button">
                  Continue to payment
                </button>
                <a href={`${base}/shop/${d.offer.productSlug}`}>Back to the product</a>
              </p>
            </>
          )}
        </form>
      ) : null}

      <section aria-labelledby="subscriptions-heading" className="billing-section">
        <h2 id="subscriptions-heading">Subscriptions</h2>
        {d.subscriptions.length === 0 ? (
          <p className="portal-empty">
            No subscriptions. Products sold by subscription say so in the <a href={`${base}/shop`}>shop</a>.
          </p>
        ) : (
          <ul className="billing-subscriptions" aria-label="Your subscriptions">
            {d.subscriptions.map((s) => (
              <li key={s.id} className="portal-panel billing-subscription">
                <div className="billing-subscription__head">
                  <h3>{s.title}</h3>
                  <span
                    className={`portal-status billing-status billing-status--${!s.live ? "ended" : s.cancelAtPeriodEnd ? "ending" : s.status}`}
                  >
                    {s.cancelAtPeriodEnd && s.live ? "Cancelled" : s.statusLabel}
                  </span>
                </div>
                <p className="billing-subscription__price">{s.price}</p>
                <p className="portal-muted">
                  {!s.live
                    ? s.endedAt
                      ? `Ended on ${formatDay(s.endedAt, timeZone)}.`
                      : "Ended."
                    : s.cancelAtPeriodEnd && s.periodEnd
                      ? `Ends on ${formatDay(s.periodEnd, timeZone)}; you will not be charged again.`
                      : s.trialEndsAt
                        ? `Free until ${formatDay(s.trialEndsAt, timeZone)}, then charged ${s.price}.`
                        : s.periodEnd
                          ? `Next charge on ${formatDay(s.periodEnd, timeZone)}.`
                          : null}
                </p>
                {s.unpaid ? (
                  <p className="portal-notice portal-notice--error">
                    The last payment of {s.unpaid.amount} failed. Stripe tries again over the next days
                    {s.unpaid.hostedUrl ? (
                      <>
                        , or <a href={s.unpaid.hostedUrl}>pay it now with another card</a>
                      </>
                    ) : null}
                    .
                  </p>
                ) : null}
                {s.charges.length > 0 ? (
                  <ul className="billing-charges" aria-label={`Payments for ${s.title}`}>
                    {s.charges.map((c) => (
                      <li key={c.reference}>
                        <span>{formatWhen(c.at, timeZone)}</span>
                        <span>{c.amount}</span>
                        <span className={c.paid ? "billing-charge--paid" : "billing-charge--failed"}>
                          {c.paid ? "Paid" : "Failed"}
                        </span>
                        {c.url ? <a href={c.url}>{c.number ? `Invoice ${c.number}` : "Invoice"}</a> : <span />}
                      </li>
                    ))}
                  </ul>
                ) : null}
                {s.live && !s.cancelAtPeriodEnd && !s.confirmingCancel ? (
                  <p>
                    <a href={`${base}/billing?cancel=${s.id}`} className="billing-cancel-link">
                      Cancel subscription
                    </a>
                  </p>
                ) : null}
                {s.live && !s.cancelAtPeriodEnd && s.confirmingCancel ? (
                  <form method="post" action={`${base}/billing`} className="portal-panel portal-panel--danger">
                    <p>
                      <strong>Cancel {s.title}?</strong>{" "}
                      {s.periodEnd
                        ? `It carries on until ${formatDay(s.periodEnd, timeZone)} and is not charged again.`
                        : "It stops at the end of this period and is not charged again."}
                    </p>
                    <input type="hidden" name="subscription" value={s.id} />
                    <p className="portal-form__actions">
                      <button type="submit" name="intent" value="cancel" className="site-button portal-button--danger">
                        Cancel subscription
                      </button>
                      <a href={`${base}/billing`}>Keep it</a>
                    </p>
                  </form>
                ) : null}
                {s.live && s.cancelAtPeriodEnd ? (
                  <form method="post" action={`${base}/billing`}>
                    <input type="hidden" name="subscription" value={s.id} />
                    <button type="submit" name="intent" value="resume" className="site-button site-button--secondary">
                      Keep my subscription
                    </button>
                  </form>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="invoices-heading" className="billing-section">
        <h2 id="invoices-heading">Invoices</h2>
        <p className="portal-muted">The invoices of the orders you paid for, newest first.</p>
        {d.invoices.length === 0 ? (
          <p className="portal-empty">No invoices yet. Each order you pay for gets one here, to download as a PDF.</p>
        ) : (
          <>
            <ul className="portal-list" aria-label="Your invoices">
              {d.invoices.map((i) => (
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
            <PortalPages href={`${base}/billing`} current={d.page} pages={d.pages} label="Invoice pages" />
          </>
        )}
      </section>
    </PortalFrame>
  );
}
