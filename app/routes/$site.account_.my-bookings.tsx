// /{site}/account/my-bookings — the customer's bookings (ADR 036): upcoming (soonest first) and past, each at its
// time in the zone its booker read, with its status and what may still be done: move it (the service's picker
// with ?reschedule=), cancel it (a confirm step: `?cancel={id}`, then a POST), pay what is owed — or why not,
// past the notice. A guest holding one booking's manage link (the booking form's cookie, or the e-mail's) sees
// that booking alone. Private, never cached.
import { cardRelease } from "~/modules/commerce/hosted-checkout.server";
import type {
  ActionFunctionArgs,
  HeadersFunction,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { invalid } from "~/lib/errors";
import { runForm, type FormResult } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { portalVisitor, requirePortalCustomer } from "~/modules/access/customer.server";
import { siteOfPath } from "~/modules/access/site.server";
import { PRIVATE, mailOrigin } from "~/modules/customers/portal.server";
import { bookingsOf } from "~/modules/scheduling/bookings.server";
import {
  bookingCard,
  bookingGrantOf,
  bookingsOfVisitor,
  settleBookingPayment,
  type BookingCard,
  type BookingVisitor,
} from "~/modules/scheduling/public.server";
import { linkBase } from "~/modules/sites/address.server";
import { SITE_LAYOUT_ID, type SiteChrome, withSiteChrome } from "~/site/chrome";
import { FormNotice, PortalFrame } from "~/site/portal";
import type { RouteHandle } from "~/ui/handle";
import portalCss from "~/styles/site-portal.css?url";

export const handle: RouteHandle = { hydrate: false };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalCss }];

/** The signed-in customer, or a guest whose manage cookie names one booking; anyone else is sent to sign in. */
async function visitorOf(request: Request, context: LoaderFunctionArgs["context"], slug: string | undefined) {
  const site = await siteOfPath(context.services.db, slug);
  const grant = await bookingGrantOf(request, context, site);
  if (grant) {
    const visitor = await portalVisitor(request, context, slug, { type: "booking", id: grant.subjectId });
    if (visitor.kind === "guest") {
      const v: BookingVisitor = {
        actor: { kind: "guest", grant: visitor.grant },
        customer: null,
        grant: visitor.grant,
      };
      return { site, visitor: v, who: visitor.grant.email };
    }
  }
  const { customer } = await requirePortalCustomer(request, context, slug);
  const v: BookingVisitor = { actor: { kind: "customer", customerId: customer.id }, customer, grant: null };
  return { site, visitor: v, who: customer.name || customer.email };
}

export const loader = page("customer", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { site, visitor, who } = await visitorOf(request, context, params.site);
  const { db } = context.services;
  const base = linkBase(context, site.workspace.slug);
  const manageUrl = `${await mailOrigin(request, context)}${base}/account/my-bookings`;
  const search = new URL(request.url).searchParams;
  // Back from the provider's payment page: applied before the list is read, so it shows what was paid.
  const payment = await settleBookingPayment(context, site, visitor, search, await mailOrigin(request, context));
  const { upcoming, past } = await bookingsOfVisitor(db, site.workspace.id, visitor);
  const card = (b: (typeof upcoming)[number]) =>
    bookingCard(db, site.workspace.id, b, visitor.actor, site.workspace.name, manageUrl);
  return {
    base,
    who,
    guest: visitor.actor.kind === "guest",
    upcoming: await Promise.all(upcoming.map(card)),
    past: await Promise.all(past.slice(0, 50).map(card)),
    confirming: search.get("cancel"),
    cancelled: search.has("cancelled"),
    payment,
  };
});

export const action = page("customer", async ({ request, params, context }: ActionFunctionArgs) => {
  const { site, visitor } = await visitorOf(request, context, params.site);
  const base = linkBase(context, site.workspace.slug);
  return runForm(request, context, async (values): Promise<FormResult | Response> => {
    if (values.intent !== "cancel") throw invalid("Unknown action");
    const origin = await mailOrigin(request, context);
    await bookingsOf(context.services.db, site.workspace.id).cancel(
      values.booking ?? "",
      visitor.actor,
      { reason: values.reason ?? "" },
      origin,
      cardRelease(context.services, origin),
    );
    context.services.jobRunner.wake();
    return redirect(`${base}/account/my-bookings?cancelled=1`, { status: 303, headers: PRIVATE });
  });
});

export const headers: HeadersFunction = () => PRIVATE;

const ownMeta: MetaFunction<typeof loader> = ({ matches }) => {
  const chrome = matches.find((m) => m.id === SITE_LAYOUT_ID)?.data as SiteChrome | undefined;
  return [
    { title: chrome ? `Bookings · ${chrome.name}` : "Bookings" },
    { name: "robots", content: "noindex, nofollow" },
  ];
};
export const meta = withSiteChrome(ownMeta);

function BookingItem({
  c,
  base,
  confirming,
  result,
}: {
  c: BookingCard;
  base: string;
  confirming: boolean;
  result?: FormResult;
}) {
  const headingId = `booking-${c.id}`;
  const move = `${base}/bookings/${c.serviceSlug}?${new URLSearchParams({ reschedule: c.id, tz: c.timeZone })}`;
  return (
    <li className="booking-item" aria-labelledby={headingId}>
      <div className="booking-item__main">
        <h3 className="booking-item__title" id={headingId}>
          {c.serviceName}
        </h3>
        <p className="booking-item__when">
          {c.when}–{c.until} <span className="booking-muted">({c.timeZone})</span>
        </p>
        <p className="booking-muted">
          {c.location} · {c.price}
          {c.deposit ? ` · deposit ${c.deposit}` : ""}
          {c.paid ? ` · paid ${c.paid}` : ""}
        </p>
      </div>
      <p className={`booking-badge booking-badge--${c.status}`}>{c.statusLabel}</p>
      {c.past ? null : (
        <div className="booking-item__actions">
          {c.canReschedule ? (
            <a className="site-button site-button--secondary" href={move}>
              Move
              <span className="visually-hidden">
                {" "}
                {c.serviceName} on {c.when}
              </span>
            </a>
          ) : null}
          {c.canCancel && !confirming ? (
            <a
              className="site-button site-button--secondary"
              href={`${base}/account/my-bookings?${new URLSearchParams({ cancel: c.id })}#${headingId}`}
            >
              Cancel
              <span className="visually-hidden">
                {" "}
                {c.serviceName} on {c.when}
              </span>
            </a>
          ) : null}
          {c.owed && ["held", "pending", "confirmed"].includes(c.status) ? (
            <form
              method="post"
              action={`${base}/bookings/${c.serviceSlug}/confirmed?${new URLSearchParams({ booking: c.id })}`}
            >
              <input type="hidden" name="intent" value="pay" />
              <button type="submit" className={c.depositDue ? "site-button" : "site-button site-button--secondary"}>
                {c.depositDue
                  ? `Pay deposit ${c.depositDue}`
                  : c.paid
                    ? `Pay the rest (${c.owed})`
                    : `Pay now (${c.owed})`}
              </button>
            </form>
          ) : null}
          {c.cannotReschedule ? <p className="booking-muted booking-item__why">{c.cannotReschedule}</p> : null}
          {c.cannotCancel ? <p className="booking-muted booking-item__why">{c.cannotCancel}</p> : null}
        </div>
      )}
      {confirming && c.canCancel ? (
        <form method="post" action={`${base}/account/my-bookings`} className="booking-confirm">
          <p className="booking-confirm__question">
            <strong>Cancel this booking?</strong> {c.serviceName}, {c.when}. The time is offered to others at once.
          </p>
          <FormNotice result={result} />
          <input type="hidden" name="intent" value="cancel" />
          <input type="hidden" name="booking" value={c.id} />
          <label className="site-label" htmlFor={`reason-${c.id}`}>
            Reason (optional)
          </label>
          <textarea id={`reason-${c.id}`} name="reason" className="site-input" rows={2} maxLength={1000} />
          <div className="booking-confirm__buttons">
            <button type="submit" className="site-button portal-button--danger">
              Yes, cancel it
            </button>
            <a href={`${base}/account/my-bookings`} className="site-button site-button--secondary">
              Keep it
            </a>
          </div>
        </form>
      ) : null}
    </li>
  );
}

export default function MyBookings() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as FormResult | undefined;
  const content = (
    <>
      <h1 className="portal__title">Bookings</h1>
      {d.cancelled ? (
        <p className="portal-notice portal-notice--ok" role="status">
          Your booking is cancelled. A confirmation is on its way by e-mail.
        </p>
      ) : null}
      {d.payment === "applied" ? (
        <p className="portal-notice portal-notice--ok" role="status">
          Thank you: your payment is received.
        </p>
      ) : d.payment === "confirming" ? (
        <p className="portal-notice" role="status">
          Your payment is being confirmed by the provider; this page shows it once it is.
        </p>
      ) : null}
      {result && !result.ok && !d.confirming ? <FormNotice result={result} /> : null}
      <h2 className="booking-list__heading">Upcoming</h2>
      {d.upcoming.length === 0 ? (
        <p className="portal-empty">
          Nothing booked. <a href={`${d.base}/bookings`}>Book a time</a> and it appears here, ready to move or cancel.
        </p>
      ) : (
        <ul className="booking-list" aria-label="Upcoming bookings">
          {d.upcoming.map((c) => (
            <BookingItem key={c.id} c={c} base={d.base} confirming={d.confirming === c.id} result={result} />
          ))}
        </ul>
      )}
      {d.past.length > 0 ? (
        <>
          <h2 className="booking-list__heading">Past</h2>
          <ul className="booking-list" aria-label="Past bookings">
            {d.past.map((c) => (
              <BookingItem key={c.id} c={c} base={d.base} confirming={false} />
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
  if (d.guest) {
    return (
      <section className="site-section">
        <div className="site-container portal-guest-order">
          {content}
          <p className="portal-muted">
            You opened this page with the link for this booking. <a href={`${d.base}/login`}>Sign in</a> with {d.who} to
            see all your bookings.
          </p>
        </div>
      </section>
    );
  }
  return (
    <PortalFrame base={d.base} current="/account/my-bookings" who={d.who}>
      {content}
    </PortalFrame>
  );
}
