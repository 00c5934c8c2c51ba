// /{site}/bookings/{serviceSlug} — choose a day and a time, then book (ADR 036). Works without JavaScript: the
// week's days are links (`?date=&tz=`), the day's times are links that select one (`?start=`, an instant), and
// the details form posts here. Times read in the business's zone, named on the page, or in the one chosen under
// "Show times in"; the page's one script (a fingerprinted file) swaps in the browser's zone. The same for every
// visitor, cached for 30 seconds (the times move with every booking; see BOOKING_PAGE_SECONDS). A time taken
// meanwhile answers the form again with the next free times to choose from; a guest gets the booking's manage
// cookie, so the confirmation shows it. `?reschedule={bookingId}`: the booker moves a booking of theirs here
// instead (private, never cached).
import type {
  ActionFunctionArgs,
  HeadersFunction,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { DomainError, notFound } from "~/lib/errors";
import { runForm, type FormResult } from "~/lib/forms.server";
import { noteFailure } from "~/lib/http.server";
import { page } from "~/lib/routes.server";
import { manageCookie } from "~/modules/access/customer.server";
import { siteOfPath } from "~/modules/access/site.server";
import { assertSameOrigin } from "~/modules/auth/origin.server";
import { PRIVATE, mailOrigin } from "~/modules/customers/portal.server";
import { bookingsOf } from "~/modules/scheduling/bookings.server";
import {
  askedZone,
  bookingInputOf,
  bookingPageCacheHeaders,
  bookingVisitorOf,
  pickerPage,
  shortLived,
  whenLabel,
} from "~/modules/scheduling/public.server";
import { linkBase } from "~/modules/sites/address.server";
import { NOT_CACHEABLE, mergeCacheHeaders } from "~/modules/sites/page-cache";
import { publicAddressOf } from "~/modules/sites/public-address.server";
import { withSiteChrome } from "~/site/chrome";
import { siteMeta } from "~/site/meta";
import { Field, FormNotice } from "~/site/portal";
import type { RouteHandle } from "~/ui/handle";
import pickerJs from "~/site/booking-picker.js?url&no-inline";
import portalCss from "~/styles/site-portal.css?url";

export const handle: RouteHandle = { hydrate: false, ownScript: true };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalCss }];

export const loader = page("public", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { db } = context.services;
  const site = await siteOfPath(db, params.site);
  const search = new URL(request.url).searchParams;
  const slug = params.serviceSlug ?? "";
  const address = await publicAddressOf(request, context, site.workspace);
  const rescheduleId = search.get("reschedule");
  let moving: { id: string; when: string } | null = null;
  let tz = search.get("tz");
  if (rescheduleId) {
    const visitor = await bookingVisitorOf(request, context, site);
    if (!visitor) throw notFound("No such booking");
    const booking = await bookingsOf(db, site.workspace.id).get(rescheduleId, visitor.actor);
    tz ??= booking.visitor_time_zone;
    moving = { id: booking.id, when: whenLabel(booking.start_at, booking.visitor_time_zone) };
  }
  const picker = await pickerPage(db, site.workspace.id, {
    serviceSlug: slug,
    date: search.get("date"),
    tz,
    start: search.get("start"),
  });
  return data(
    {
      name: site.workspace.name,
      base: address.base,
      origin: address.origin,
      finalBase: address.finalBase,
      slug,
      moving,
      ...picker,
    },
    {
      headers: moving ? PRIVATE : bookingPageCacheHeaders(site.workspace.id, ["date", "start", "tz"]),
    },
  );
});

interface BookingFormResult extends FormResult {
  values?: Record<string, string>;
  nextAvailable?: { start: string; label: string }[];
}

export const action = page("public", async ({ request, params, context }: ActionFunctionArgs) => {
  assertSameOrigin(request, context);
  const { db } = context.services;
  const site = await siteOfPath(db, params.site);
  const slug = params.serviceSlug ?? "";
  const base = linkBase(context, site.workspace.slug);
  const visitor = await bookingVisitorOf(request, context, site);
  const bookings = bookingsOf(db, site.workspace.id);
  return runForm(
    request,
    context,
    async (values): Promise<Response | ReturnType<typeof data<BookingFormResult>>> => {
      const origin = await mailOrigin(request, context);
      try {
        if (values.intent === "reschedule") {
          if (!visitor) throw notFound("No such booking");
          const moved = await bookings.reschedule(
            values.booking ?? "",
            visitor.actor,
            { start: values.start ?? "", timeZone: askedZone(values.timeZone ?? null) ?? undefined },
            origin,
          );
          context.services.jobRunner.wake();
          return redirect(
            `${base}/bookings/${slug}/confirmed?${new URLSearchParams({ booking: moved.id, moved: "1" })}`,
            {
              status: 303,
              headers: PRIVATE,
            },
          );
        }
        const { booking, manageToken } = await bookings.book(bookingInputOf(slug, values), {
          customerId: visitor?.customer?.id ?? null,
          source: "site",
          origin,
        });
        context.services.jobRunner.wake();
        const headers: Record<string, string> = { ...PRIVATE };
        // A guest sees their booking at once, as the e-mailed link would show it (the cookie holds that link).
        if (manageToken) headers["Set-Cookie"] = manageCookie(context, site.workspace.slug, manageToken);
        return redirect(`${base}/bookings/${slug}/confirmed?${new URLSearchParams({ booking: booking.id })}`, {
          status: 303,
          headers,
        });
      } catch (thrown) {
        const next = thrown instanceof DomainError ? thrown.detail.body?.nextAvailable : undefined;
        if (!(thrown instanceof DomainError) || thrown.kind !== "conflict" || !Array.isArray(next)) throw thrown;
        noteFailure(context, thrown, 409);
        const zone = askedZone(values.timeZone ?? null) ?? "UTC";
        return data<BookingFormResult>(
          {
            ok: false,
            intent: values.intent,
            message: thrown.message,
            values,
            nextAvailable: (next as { start: string }[]).map((s) => ({
              start: s.start,
              label: `${whenLabel(s.start, zone)}`,
            })),
          },
          { status: 409, headers: PRIVATE },
        );
      }
    },
    (values) => ({ values }),
  );
});

const ownMeta: MetaFunction<typeof loader> = ({ data }) =>
  data
    ? siteMeta({
        siteName: data.name,
        origin: data.origin,
        path: `${data.finalBase}/bookings/${data.slug}`,
        title: `Book ${data.service.name}`,
        description:
          data.service.description.slice(0, 160) ||
          `Book ${data.service.name} (${data.service.duration}) with ${data.name} online.`,
        noindex: Boolean(data.moving),
      })
    : [];
export const meta = withSiteChrome(ownMeta);

export const headers: HeadersFunction = ({ loaderHeaders, parentHeaders, errorHeaders, actionHeaders }) =>
  errorHeaders || actionHeaders.has("Cache-Control")
    ? { ...NOT_CACHEABLE }
    : shortLived(mergeCacheHeaders(parentHeaders, loaderHeaders));

export default function ServicePicker() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as BookingFormResult | undefined;
  const here = `${d.base}/bookings/${d.slug}`;
  const href = (query: Record<string, string | null | undefined>) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries({ ...query, tz: d.timeZone, reschedule: d.moving?.id })) {
      if (value) params.set(key, value);
    }
    return `${here}?${params}`;
  };
  const s = d.service;
  const values = result?.values ?? {};
  const errors = result?.fieldErrors ?? {};
  const offered = result?.nextAvailable;
  const showForm = Boolean(d.selected || (offered && offered.length > 0));
  return (
    <section className="site-section booking">
      <div className="site-container booking__layout" data-booking-zone={d.timeZone}>
        <aside className="booking-summary" aria-label="Your booking">
          <p className="booking__crumbs">
            <a href={`${d.base}/bookings`}>All services</a>
          </p>
          <h1 className="booking-summary__title">{s.name}</h1>
          <ul className="booking-facts booking-facts--stacked" aria-label="About this service">
            <li>
              <span className="booking-facts__label">Length</span> {s.duration}
            </li>
            <li>
              <span className="booking-facts__label">Price</span> {s.price}
            </li>
            {s.deposit ? (
              <li>
                <span className="booking-facts__label">Deposit</span> {s.deposit}
              </li>
            ) : null}
            <li>
              <span className="booking-facts__label">Where</span> {s.location}
            </li>
          </ul>
          {s.description ? <p className="booking-summary__text">{s.description}</p> : null}
          {d.selected ? (
            <div className="booking-summary__chosen">
              <p className="booking-facts__label">Your time</p>
              <p className="booking-summary__when">
                {d.selected.label}–{d.selected.end}
              </p>
              <p className="booking-muted">{d.timeZone}</p>
            </div>
          ) : null}
          <form method="get" action={here} className="booking-zone">
            {d.moving ? <input type="hidden" name="reschedule" value={d.moving.id} /> : null}
            <input type="hidden" name="date" value={d.date} />
            {d.selected ? <input type="hidden" name="start" value={d.selected.start} /> : null}
            <label className="site-label" htmlFor="booking-tz">
              Show times in
            </label>
            <div className="booking-zone__row">
              <select id="booking-tz" name="tz" className="site-input" defaultValue={d.timeZone} data-zone-select="">
                {d.zones.map((zone) => (
                  <option key={zone} value={zone}>
                    {zone.replace(/_/g, " ")}
                    {zone === d.businessTimeZone ? " (the business's zone)" : ""}
                  </option>
                ))}
              </select>
              <button type="submit" className="site-button site-button--secondary">
                Show
              </button>
            </div>
          </form>
        </aside>

        <div className="booking-picker">
          {d.moving ? (
            <p className="portal-notice" role="status">
              Moving your booking of <strong>{d.moving.when}</strong>: choose its new time.
            </p>
          ) : null}
          <div className="booking-picker__head">
            <h2 className="booking-picker__title">Choose a day</h2>
            <nav className="booking-week" aria-label="Weeks">
              {d.prevWeek ? (
                <a href={href({ date: d.prevWeek })} className="booking-week__step">
                  <span aria-hidden="true">‹</span> Earlier<span className="visually-hidden"> week</span>
                </a>
              ) : (
                <span className="booking-week__step booking-week__step--off" aria-hidden="true">
                  ‹ Earlier
                </span>
              )}
              <span className="booking-week__label">{d.weekLabel}</span>
              {d.nextWeek ? (
                <a href={href({ date: d.nextWeek })} className="booking-week__step">
                  Later<span className="visually-hidden"> week</span> <span aria-hidden="true">›</span>
                </a>
              ) : (
                <span className="booking-week__step booking-week__step--off" aria-hidden="true">
                  Later ›
                </span>
              )}
            </nav>
          </div>
          <ul className="booking-days" aria-label="Days">
            {d.days.map((day) => {
              const open = !day.past && !day.beyond && day.free > 0;
              const said = day.past
                ? "past"
                : day.beyond
                  ? "not open yet"
                  : day.free === 0
                    ? "no free times"
                    : `${day.free} free ${day.free === 1 ? "time" : "times"}`;
              // What a screen reader says is the whole date and what is free; the tile shows it in short.
              const inner = (
                <>
                  <span className="visually-hidden">{`${day.label}: ${said}`}</span>
                  <span className="booking-day__weekday" aria-hidden="true">
                    {day.weekday}
                  </span>
                  <span className="booking-day__num" aria-hidden="true">
                    {day.day}
                  </span>
                  <span className="booking-day__month" aria-hidden="true">
                    {day.month}
                  </span>
                  <span className="booking-day__free" aria-hidden="true">
                    {day.past || day.beyond ? "—" : day.free === 0 ? "Full" : `${day.free} free`}
                  </span>
                </>
              );
              const classes = `booking-day${open ? "" : " booking-day--off"}${day.selected ? " booking-day--selected" : ""}`;
              return (
                <li key={day.date}>
                  {open ? (
                    <a
                      href={href({ date: day.date })}
                      className={classes}
                      aria-current={day.selected ? "date" : undefined}
                    >
                      {inner}
                    </a>
                  ) : (
                    <span className={classes}>{inner}</span>
                  )}
                </li>
              );
            })}
          </ul>

          <h2 className="booking-picker__title">{d.dateLabel}</h2>
          <p className="booking-muted booking-picker__zone">
            Times in <strong>{d.timeZone}</strong>
          </p>
          {d.startGone && !offered ? (
            <p className="portal-notice portal-notice--error" role="alert">
              That time is no longer free: choose another.
            </p>
          ) : null}
          {d.times.length === 0 ? (
            <p className="booking-empty">
              No free times on this day.{" "}
              {d.nextWeek || d.prevWeek ? "Choose another day above." : "Please check back later."}
            </p>
          ) : (
            <ul className="booking-times" aria-label={`Free times on ${d.dateLabel}`}>
              {d.times.map((t) => {
                const selected = d.selected?.start === t.start;
                return (
                  <li key={t.start}>
                    <a
                      href={`${href({ date: d.date, start: t.start })}#details`}
                      className={`booking-time${selected ? " booking-time--selected" : ""}`}
                      aria-current={selected ? "true" : undefined}
                    >
                      {t.label}
                      {s.capacity > 1 ? <span className="booking-time__seats">{t.seatsLeft} left</span> : null}
                    </a>
                  </li>
                );
              })}
            </ul>
          )}

          {showForm ? (
            <form
              method="post"
              action={href({ date: d.date, start: d.selected?.start })}
              className="booking-form"
              id="details"
            >
              <h2 className="booking-picker__title">{d.moving ? "Move your booking" : "Your details"}</h2>
              <FormNotice result={result} />
              <input type="hidden" name="intent" value={d.moving ? "reschedule" : "book"} />
              <input type="hidden" name="timeZone" value={d.timeZone} />
              {d.moving ? <input type="hidden" name="booking" value={d.moving.id} /> : null}
              {offered && offered.length > 0 ? (
                <fieldset className="booking-alternatives">
                  <legend>Next free times</legend>
                  {offered.map((o, i) => (
                    <label key={o.start} className="booking-alternative">
                      <input type="radio" name="start" value={o.start} defaultChecked={i === 0} required />
                      <span>{o.label}</span>
                    </label>
                  ))}
                </fieldset>
              ) : (
                <input type="hidden" name="start" value={d.selected?.start ?? ""} />
              )}
              {errors.start ? <p className="site-error">{errors.start}</p> : null}
              {d.moving ? null : (
                <>
                  <Field label="Full name" name="name" error={errors.name}>
                    {(p) => <input {...p} defaultValue={values.name} autoComplete="name" required maxLength={120} />}
                  </Field>
                  <Field label="E-mail" name="email" error={errors.email} hint="Your confirmation goes here.">
                    {(p) => (
                      <input
                        {...p}
                        type="email"
                        defaultValue={values.email}
                        autoComplete="email"
                        required
                        maxLength={254}
                      />
                    )}
                  </Field>
                  <Field label="Phone (optional)" name="phone" error={errors.phone}>
                    {(p) => <input {...p} type="tel" defaultValue={values.phone} autoComplete="tel" maxLength={40} />}
                  </Field>
                  {s.questions.map((q) => (
                    <Field
                      key={q.id}
                      label={q.required ? q.label : `${q.label} (optional)`}
                      name={`answers.${q.id}`}
                      error={errors[`answers.${q.id}`]}
                    >
                      {(p) =>
                        q.long ? (
                          <textarea
                            {...p}
                            rows={4}
                            defaultValue={values[`answers.${q.id}`]}
                            required={q.required}
                            maxLength={4000}
                          />
                        ) : (
                          <input
                            {...p}
                            defaultValue={values[`answers.${q.id}`]}
                            required={q.required}
                            maxLength={4000}
                          />
                        )
                      }
                    </Field>
                  ))}
                </>
              )}
              {s.deposit && !d.moving ? (
                <p className="booking-deposit">
                  A deposit of <strong>{s.deposit}</strong> is taken to hold your time; it is held for {s.holdMinutes}{" "}
                  {s.holdMinutes === 1 ? "minute" : "minutes"} while you pay.
                </p>
              ) : null}
              {s.requiresApproval && !d.moving ? (
                <p className="booking-muted">{d.name} confirms each booking: you will hear back by e-mail.</p>
              ) : null}
              {s.cancelNotice ? (
                <p className="booking-muted">Free to cancel or move up to {s.cancelNotice} before it starts.</p>
              ) : null}
              <button type="submit" className="site-button booking-form__submit">
                {d.moving ? "Move to this time" : s.deposit ? "Book and pay deposit" : "Book this time"}
              </button>
            </form>
          ) : d.times.length > 0 ? (
            <p className="booking-muted booking-picker__hint">Choose a time to enter your details.</p>
          ) : null}
        </div>
      </div>
      <script type="module" src={pickerJs} />
    </section>
  );
}
