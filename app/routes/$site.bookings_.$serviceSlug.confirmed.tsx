// /{site}/bookings/{serviceSlug}/confirmed?booking={id} — the booking just made or moved (ADR 036): its time in the
// booker's zone, where, what it costs, "Add to calendar", and while a deposit is owed how long the time is held
// and "Pay deposit". For its customer (signed in) or the guest whose manage cookie names it (the booking form set
// it); anyone else's is a 404. Private, never cached.
import type {
  ActionFunctionArgs,
  HeadersFunction,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { invalid, notFound } from "~/lib/errors";
import { runForm, type FormResult } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { siteOfPath } from "~/modules/access/site.server";
import { assertSameOrigin } from "~/modules/auth/origin.server";
import { PRIVATE, mailOrigin } from "~/modules/customers/portal.server";
import { bookingsOf } from "~/modules/scheduling/bookings.server";
import { bookingCard, bookingPaymentUrl, bookingVisitorOf } from "~/modules/scheduling/public.server";
import { linkBase } from "~/modules/sites/address.server";
import { SITE_LAYOUT_ID, type SiteChrome, withSiteChrome } from "~/site/chrome";
import { FormNotice } from "~/site/portal";
import type { RouteHandle } from "~/ui/handle";
import portalCss from "~/styles/site-portal.css?url";

export const handle: RouteHandle = { hydrate: false };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalCss }];

async function bookingOfRequest(request: Request, context: LoaderFunctionArgs["context"], slug: string | undefined) {
  const { db } = context.services;
  const site = await siteOfPath(db, slug);
  const visitor = await bookingVisitorOf(request, context, site);
  if (!visitor) {
    context.request.log.failure = "authorization";
    throw notFound("Open the link in your confirmation e-mail, or sign in, to see this booking");
  }
  const id = new URL(request.url).searchParams.get("booking") ?? "";
  const booking = await bookingsOf(db, site.workspace.id).get(id, visitor.actor);
  return { site, visitor, booking };
}

export const loader = page("public", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { site, visitor, booking } = await bookingOfRequest(request, context, params.site);
  const base = linkBase(context, site.workspace.slug);
  const origin = await mailOrigin(request, context);
  const card = await bookingCard(
    context.services.db,
    site.workspace.id,
    booking,
    visitor.actor,
    site.workspace.name,
    `${origin}${base}/account/my-bookings`,
  );
  return {
    base,
    card,
    guest: visitor.actor.kind === "guest",
    moved: new URL(request.url).searchParams.has("moved"),
  };
});

export const action = page("public", async ({ request, params, context }: ActionFunctionArgs) => {
  assertSameOrigin(request, context);
  const { site, visitor, booking } = await bookingOfRequest(request, context, params.site);
  return runForm(request, context, async (values): Promise<FormResult | Response> => {
    if (values.intent !== "pay") throw invalid("Unknown action");
    const base = linkBase(context, site.workspace.slug);
    const origin = await mailOrigin(request, context);
    // A refusal (nothing owed, the hold ran out, no way to pay online) is shown beside the button.
    const url = await bookingPaymentUrl(context, site, booking, visitor.actor, origin, base);
    return redirect(url, { status: 303, headers: PRIVATE });
  });
});

export const headers: HeadersFunction = () => PRIVATE;

const ownMeta: MetaFunction<typeof loader> = ({ matches, data }) => {
  const chrome = matches.find((m) => m.id === SITE_LAYOUT_ID)?.data as SiteChrome | undefined;
  const title = data ? `Booking: ${data.card.serviceName}` : "Booking";
  return [{ title: chrome ? `${title} · ${chrome.name}` : title }, { name: "robots", content: "noindex, nofollow" }];
};
export const meta = withSiteChrome(ownMeta);

const HEADINGS: Record<string, string> = {
  held: "Your time is held",
  pending: "Request sent",
  confirmed: "You're booked",
  cancelled: "This booking is cancelled",
  expired: "This hold has expired",
  completed: "Thanks for coming",
  no_show: "This booking was missed",
};

export default function BookingConfirmed() {
  const { card: c, base, guest, moved } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as FormResult | undefined;
  return (
    <section className="site-section booking">
      <div className="site-container booking-done">
        <div className="booking-done__card">
          <p className={`booking-badge booking-badge--${c.status}`}>{c.statusLabel}</p>
          <h1 className="booking__title">
            {moved && c.status === "confirmed" ? "Your booking is moved" : HEADINGS[c.status]}
          </h1>
          {c.status === "pending" ? (
            <p className="booking__lead">We have your request; you will get an e-mail once it is confirmed.</p>
          ) : c.status === "confirmed" ? (
            <p className="booking__lead">A confirmation is on its way to {c.email}.</p>
          ) : null}
          <dl className="booking-details">
            <div>
              <dt>What</dt>
              <dd>
                {c.serviceName}
                {c.seats > 1 ? ` · ${c.seats} places` : ""}
              </dd>
            </div>
            <div>
              <dt>When</dt>
              <dd>
                {c.when}–{c.until}
                <span className="booking-muted booking-details__zone">{c.timeZone}</span>
                {c.businessWhen ? <span className="booking-muted booking-details__zone">{c.businessWhen}</span> : null}
              </dd>
            </div>
            <div>
              <dt>Where</dt>
              <dd>{c.location}</dd>
            </div>
            <div>
              <dt>Price</dt>
              <dd>
                {c.price}
                {c.deposit ? <span className="booking-muted"> · deposit {c.deposit}</span> : null}
              </dd>
            </div>
            <div>
              <dt>Name</dt>
              <dd>{c.name}</dd>
            </div>
          </dl>

          {c.depositDue ? (
            <div className="booking-pay">
              <p className="booking-pay__text">
                Pay the deposit of <strong>{c.depositDue}</strong> by <strong>{c.holdExpires}</strong> ({c.timeZone}) to
                keep this time. Unpaid, the hold lapses and the time is offered to others.
              </p>
              <FormNotice result={result} />
              <form method="post">
                <input type="hidden" name="intent" value="pay" />
                <button type="submit" className="site-button">
                  Pay deposit {c.depositDue}
                </button>
              </form>
            </div>
          ) : null}

          {["held", "pending", "confirmed"].includes(c.status) && !c.past ? (
            <div className="booking-calendar">
              <p className="booking-facts__label">Add to calendar</p>
              <p className="booking-calendar__links">
                <a className="site-button site-button--secondary" href={c.calendar.google} rel="noopener noreferrer">
                  Google Calendar
                </a>
                <a className="site-button site-button--secondary" href={c.calendar.outlook} rel="noopener noreferrer">
                  Outlook
                </a>
              </p>
            </div>
          ) : null}

          <p className="booking-done__next">
            <a href={`${base}/account/my-bookings`}>{guest ? "See, move or cancel this booking" : "Your bookings"}</a>
            <span aria-hidden="true"> · </span>
            <a href={`${base}/bookings`}>Book something else</a>
          </p>
        </div>
      </div>
    </section>
  );
}
