// /scheduling/bookings/{id} — one booking (ADR 036): when, who, their answers, what was paid and what happened to
// it; an editor approves or declines one waiting for approval, cancels one (after a confirmation step, with a
// reason the booker is sent), marks it completed or a no-show once it has started, or moves it to another free
// time. Another workspace's booking is a 404.
import { MissingRecord } from "~/console/missing-record";
import { cardRelease } from "~/modules/commerce/hosted-checkout.server";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Temporal } from "temporal-polyfill";
import { now } from "~/lib/clock.server";
import { invalid } from "~/lib/errors";
import { type FormResult, runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { formatMoney } from "~/modules/commerce/money";
import { mailOrigin } from "~/modules/customers/portal.server";
import { bookingsOf } from "~/modules/scheduling/bookings.server";
import { bookingDeskOf } from "~/modules/scheduling/operator.server";
import { servicesOf } from "~/modules/scheduling/services.server";
import { profileOf } from "~/modules/sites/profile.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { receivedAt } from "~/console/inbox-format";
import { BOOKING_STATUS_LABELS, LOCATION_LABELS, SCHEDULING_TABS } from "~/console/scheduling";
import { DescribedField, FormMessage } from "~/ui/form";
import { SectionTabs } from "~/ui/section-tabs";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";
import consoleSchedulingCss from "~/styles/console-scheduling.css?url";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? `${data.booking.name}, ${data.service.name}` : "Booking"} · Atrium` },
];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
  { rel: "stylesheet", href: consoleSchedulingCss },
];

const HISTORY: Record<string, string> = {
  "booking.created": "Booked",
  "booking.approved": "Approved",
  "booking.declined": "Declined",
  "booking.cancelled": "Cancelled",
  "booking.rescheduled": "Moved",
  "booking.completed": "Marked completed",
  "booking.no_show": "Marked a no-show",
  "booking.paid": "Deposit paid",
};

const SOURCES: Record<string, string> = {
  site: "on the site",
  console: "in the console",
  api: "through the API",
  sop: "by an SOP",
};

const longDate = (zone: string) =>
  new Intl.DateTimeFormat("en-GB", {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: zone,
  });
const clock = (zone: string) =>
  new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: zone, timeZoneName: "short" });

function calendarDate(text: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  try {
    return Temporal.PlainDate.from(text, { overflow: "reject" }).toString();
  } catch {
    return null;
  }
}

export const loader = page("operator", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  const { db } = context.services;
  const id = params.bookingId ?? "";
  const desk = bookingDeskOf(db, workspace.id);
  const { booking: b, host, payments, history } = await desk.detail(id);
  const bookings = bookingsOf(db, workspace.id);
  const [service, profile, rights] = await Promise.all([
    servicesOf(db, workspace.id).get(b.service_id),
    profileOf(db, workspace.id).get(),
    bookings.rights(b, { kind: "operator", userId: null }),
  ]);
  const zone = profile.timeZone;
  const url = new URL(request.url);
  const started = Date.parse(b.start_at) <= now().getTime();
  const canEdit = roleAtLeast(role, "editor");

  // The free times of the chosen day for a move, in the business's zone.
  const zonedStart = Temporal.Instant.from(b.start_at).toZonedDateTimeISO(zone);
  const askedDay = url.searchParams.get("move") ?? "";
  // A date that is not in the calendar (2026-02-31) falls back to the booking's own day, never a 500.
  const moveDay = calendarDate(askedDay) ?? zonedStart.toPlainDate().toString();
  let moveTimes: { start: string; label: string }[] = [];
  let moveProblem: string | null = null;
  if (canEdit && rights.canReschedule) {
    if (service.status !== "active") {
      moveProblem = "The service is not active, so it offers no times: make it active to move this booking.";
    } else {
      try {
        const found = await bookings.availability({ from: moveDay, to: moveDay, service: service.id, timeZone: zone });
        const slots = found.found[0]?.slots ?? [];
        moveTimes = slots
          .filter((s) => s.seatsLeft >= b.seats && Date.parse(s.start) !== Date.parse(b.start_at))
          .map((s) => ({ start: s.start, label: clock(zone).format(new Date(s.start)) }));
      } catch (error) {
        moveProblem = error instanceof Error ? error.message : "No times could be found for that day";
      }
    }
  }

  const answers = JSON.parse(b.answers) as Record<string, string>;
  return {
    canEdit,
    done: url.searchParams.get("done"),
    confirm: url.searchParams.has("cancel") ? "cancel" : url.searchParams.has("decline") ? "decline" : null,
    started,
    rights: { canCancel: rights.canCancel, canReschedule: rights.canReschedule },
    timeZone: zone,
    booking: {
      id: b.id,
      status: b.status as keyof typeof BOOKING_STATUS_LABELS,
      name: b.name,
      email: b.email,
      phone: b.phone,
      notes: b.notes,
      seats: b.seats,
      source: b.source,
      when: longDate(zone).format(new Date(b.start_at)),
      until: clock(zone).format(new Date(b.end_at)),
      visitorZone: b.visitor_time_zone,
      visitorWhen:
        b.visitor_time_zone !== zone
          ? `${longDate(b.visitor_time_zone).format(new Date(b.start_at))} (${b.visitor_time_zone})`
          : null,
      date: zonedStart.toPlainDate().toString(),
      price: formatMoney(b.price, b.currency),
      free: b.price === 0,
      deposit: b.deposit > 0 ? formatMoney(b.deposit, b.currency) : null,
      paid: formatMoney(b.amount_paid, b.currency),
      due: b.price - b.amount_paid > 0 ? formatMoney(b.price - b.amount_paid, b.currency) : null,
      holdExpires: b.hold_expires_at ? receivedAt(b.hold_expires_at, zone) : null,
      cancelledAt: b.cancelled_at ? receivedAt(b.cancelled_at, zone) : null,
      cancelledBy: b.cancelled_by,
      cancelReason: b.cancel_reason,
      created: receivedAt(b.created_at, zone),
    },
    service: {
      id: service.id,
      name: service.name,
      location: LOCATION_LABELS[service.locationKind],
      locationDetail: service.locationDetail,
    },
    host: host && { name: host.name, kind: host.kind },
    answers: [
      ...service.questions
        .filter((q) => answers[q.id] !== undefined)
        .map((q) => ({ id: q.id, label: q.label, text: answers[q.id]! })),
      ...Object.entries(answers)
        .filter(([qid]) => !service.questions.some((q) => q.id === qid))
        .map(([qid, text]) => ({ id: qid, label: qid, text })),
    ],
    payments: payments.map((p) => ({
      ...p,
      amount: formatMoney(p.amount, b.currency),
      at: receivedAt(p.at, zone),
    })),
    history: history.map((h) => ({
      id: h.id,
      what: HISTORY[h.action] ?? h.action,
      at: receivedAt(h.at, zone),
      by: h.by ?? (typeof h.detail.by === "string" && h.detail.by !== "operator" ? `the ${h.detail.by}` : null),
      note:
        h.action === "booking.rescheduled" && typeof h.detail.from === "string" && typeof h.detail.to === "string"
          ? `from ${receivedAt(h.detail.from, zone)} to ${receivedAt(h.detail.to, zone)}`
          : typeof h.detail.reason === "string" && h.detail.reason
            ? `“${h.detail.reason}”`
            : null,
    })),
    move: {
      day: moveDay,
      dayText: Temporal.PlainDate.from(moveDay).toLocaleString("en-GB", {
        weekday: "long",
        day: "numeric",
        month: "long",
      }),
      times: moveTimes,
      problem: moveProblem,
    },
  };
});

export const action = page("operator", async ({ request, params, context }: ActionFunctionArgs) => {
  const { session, workspace } = await requireWorkspace(request, context, "editor");
  const { db } = context.services;
  const id = params.bookingId ?? "";
  const desk = bookingDeskOf(db, workspace.id);
  const bookings = bookingsOf(db, workspace.id);
  const actor = { kind: "operator" as const, userId: session.user.id };
  const here = `/scheduling/bookings/${id}`;
  return runForm(request, context, async (values): Promise<FormResult | Response> => {
    // Another workspace's booking is a 404 whatever was posted.
    await bookings.get(id, actor);
    const origin = await mailOrigin(request, context);
    const reason = (values.reason ?? "").trim();
    if (reason.length > 1000) {
      throw invalid("Keep the reason under 1,000 characters", [
        { field: "reason", message: "Keep the reason under 1,000 characters" },
      ]);
    }
    let done: string;
    switch (values.intent) {
      case "approve":
        await desk.approve(session.user.id, id, origin);
        done = "approved";
        break;
      case "decline":
        await desk.decline(session.user.id, id, reason, origin);
        done = "declined";
        break;
      case "cancel":
        await bookings.cancel(id, actor, { reason }, origin, cardRelease(context.services, origin));
        done = "cancelled";
        break;
      case "complete":
        await desk.complete(session.user.id, id);
        done = "completed";
        break;
      case "no-show":
        await desk.noShow(session.user.id, id);
        done = "no-show";
        break;
      case "reschedule": {
        if (!values.start) {
          throw invalid("Choose the new time", [{ field: "start", message: "Choose one of the free times" }]);
        }
        await bookings.reschedule(id, actor, { start: values.start }, origin);
        done = "moved";
        break;
      }
      default:
        throw invalid("Unknown action");
    }
    context.services.jobRunner.wake();
    const back = values.back ?? "";
    // Only back to a page of this area (the calendar's approve buttons), never to an address from elsewhere.
    if (back.startsWith("/scheduling") && !back.startsWith("//")) return redirect(back, 303);
    return redirect(`${here}?done=${done}`, 303);
  });
});

const DONE: Record<string, string> = {
  approved: "Approved. The booker has been sent their confirmation.",
  declined: "Declined. The booker has been told, and the time is free again.",
  cancelled: "Cancelled. The booker has been told, and the time is free again.",
  completed: "Marked completed.",
  "no-show": "Marked a no-show.",
  moved: "Moved. The booker has been sent the new time.",
};

export default function BookingDetail() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const errors = result?.fieldErrors ?? {};
  const b = d.booking;
  const pending = b.status === "pending";
  const canMark = d.started && (b.status === "confirmed" || b.status === "completed" || b.status === "no_show");
  return (
    <>
      <p className="back-link">
        <Link to="/scheduling/bookings">← Bookings</Link>
      </p>
      <div className="page-header">
        <h1>
          {b.name} <span className="page-subtitle">· {d.service.name}</span>
        </h1>
        <div className="page-actions">
          <span className={`status-pill status-pill--${b.status}`}>{BOOKING_STATUS_LABELS[b.status]}</span>
          <Link className="button secondary" to={`/scheduling?view=day&date=${b.date}`}>
            Show in calendar
          </Link>
        </div>
      </div>
      <SectionTabs label="Scheduling" tabs={SCHEDULING_TABS} />
      <FormMessage message={d.done ? DONE[d.done] : undefined} tone="success" />
      <FormMessage message={result?.ok === false ? result.message : undefined} />

      {d.canEdit && d.confirm === "cancel" && d.rights.canCancel ? (
        <section className="panel confirm-panel" aria-labelledby="confirm-cancel-heading">
          <h2 id="confirm-cancel-heading">Cancel this booking?</h2>
          <p>
            {b.name} is sent an e-mail saying it is cancelled, with your reason, and the time is free for others to
            book. This cannot be undone.
          </p>
          <Form method="post">
            <ReasonField error={errors.reason} hint="Optional. Sent to the booker." />
            <div className="form-actions">
              <button type="submit" name="intent" value="cancel" className="danger">
                Yes, cancel the booking
              </button>
              <Link to={`/scheduling/bookings/${b.id}`}>Keep it</Link>
            </div>
          </Form>
        </section>
      ) : null}
      {d.canEdit && d.confirm === "decline" && pending ? (
        <section className="panel confirm-panel" aria-labelledby="confirm-decline-heading">
          <h2 id="confirm-decline-heading">Decline this booking?</h2>
          <p>
            {b.name} is sent an e-mail saying you could not accept it, with your reason, and the time is free again.
          </p>
          <Form method="post">
            <ReasonField
              error={errors.reason}
              hint="Optional. Sent to the booker, e.g. “We are fully booked that day.”"
            />
            <div className="form-actions">
              <button type="submit" name="intent" value="decline" className="danger">
                Yes, decline it
              </button>
              <Link to={`/scheduling/bookings/${b.id}`}>Go back</Link>
            </div>
          </Form>
        </section>
      ) : null}

      <div className="booking-layout">
        <div className="booking-main">
          <section className="panel" aria-labelledby="when-heading">
            <h2 id="when-heading">When</h2>
            <p className="booking-when">
              {b.when} – {b.until}
            </p>
            {b.visitorWhen ? <p className="hint">For the booker: {b.visitorWhen}</p> : null}
            <dl className="facts">
              <dt>With</dt>
              <dd>
                {d.host ? d.host.name : "—"}
                {d.host?.kind === "resource" ? " (resource)" : ""}
              </dd>
              <dt>Where</dt>
              <dd>
                {d.service.location}
                {d.service.locationDetail ? `: ${d.service.locationDetail}` : ""}
              </dd>
              {b.seats > 1 ? (
                <>
                  <dt>Places</dt>
                  <dd>{b.seats}</dd>
                </>
              ) : null}
              <dt>Booked</dt>
              <dd>
                {b.created}, {SOURCES[b.source] ?? b.source}
              </dd>
              {b.holdExpires ? (
                <>
                  <dt>Held until</dt>
                  <dd>{b.holdExpires}, unless the deposit is paid</dd>
                </>
              ) : null}
              {b.cancelledAt ? (
                <>
                  <dt>Cancelled</dt>
                  <dd>
                    {b.cancelledAt}
                    {b.cancelledBy ? ` by the ${b.cancelledBy}` : ""}
                    {b.cancelReason ? `: “${b.cancelReason}”` : ""}
                  </dd>
                </>
              ) : null}
            </dl>
          </section>

          {d.canEdit && d.rights.canReschedule ? (
            <section className="panel" aria-labelledby="move-heading">
              <h2 id="move-heading">Move to another time</h2>
              <Form method="get" className="inline-form">
                <DescribedField id="move-day" label="Day">
                  {(describedBy) => (
                    <input
                      id="move-day"
                      name="move"
                      type="date"
                      defaultValue={d.move.day}
                      aria-describedby={describedBy}
                    />
                  )}
                </DescribedField>
                <button type="submit" className="secondary">
                  Show free times
                </button>
              </Form>
              {d.move.problem ? <p className="hint">{d.move.problem}</p> : null}
              {!d.move.problem && d.move.times.length === 0 ? (
                <p className="hint">No free time that day. Choose another day.</p>
              ) : null}
              {d.move.times.length > 0 ? (
                <Form method="post">
                  <fieldset className="time-choices">
                    <legend>Free times on {d.move.dayText}</legend>
                    {d.move.times.map((t) => (
                      <label key={t.start}>
                        <input type="radio" name="start" value={t.start} /> {t.label}
                      </label>
                    ))}
                  </fieldset>
                  {errors.start ? (
                    <p className="field-error" role="alert">
                      {errors.start}
                    </p>
                  ) : null}
                  <button type="submit" name="intent" value="reschedule">
                    Move booking
                  </button>
                  <p className="hint">The booker is e-mailed the new time.</p>
                </Form>
              ) : null}
            </section>
          ) : null}

          <section className="panel" aria-labelledby="answers-heading">
            <h2 id="answers-heading">Answers</h2>
            {d.answers.length === 0 && !b.notes ? <p className="hint">No answers or notes.</p> : null}
            {d.answers.length > 0 ? (
              <dl className="facts facts--stacked">
                {d.answers.map((a) => (
                  <div key={a.id}>
                    <dt>{a.label}</dt>
                    <dd>{a.text || "—"}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
            {b.notes ? (
              <>
                <h3>Notes</h3>
                <p className="booking-notes">{b.notes}</p>
              </>
            ) : null}
          </section>

          <section className="panel" aria-labelledby="history-heading">
            <h2 id="history-heading">History</h2>
            {d.history.length === 0 ? (
              <p className="hint">Nothing recorded yet.</p>
            ) : (
              <ol className="timeline">
                {d.history.map((h) => (
                  <li key={h.id}>
                    <span className="timeline-when">{h.at}</span>
                    <div>
                      <strong>{h.what}</strong>
                      {h.note ? ` ${h.note}` : ""}
                      {h.by ? <span className="customer-email">by {h.by}</span> : null}
                    </div>
                  </li>
                ))}
              </ol>
            )}
          </section>
        </div>

        <div className="booking-side">
          {d.canEdit && (pending || d.rights.canCancel || canMark) ? (
            <section className="panel" aria-labelledby="actions-heading">
              <h2 id="actions-heading">Actions</h2>
              <div className="action-stack">
                {pending ? (
                  <>
                    <Form method="post">
                      <button type="submit" name="intent" value="approve">
                        Approve booking
                      </button>
                    </Form>
                    <Link className="button secondary" to="?decline=1">
                      Decline…
                    </Link>
                  </>
                ) : null}
                {canMark && b.status !== "completed" ? (
                  <Form method="post">
                    <button type="submit" name="intent" value="complete" className="secondary">
                      Mark completed
                    </button>
                  </Form>
                ) : null}
                {canMark && b.status !== "no_show" ? (
                  <Form method="post">
                    <button type="submit" name="intent" value="no-show" className="secondary">
                      Mark no-show
                    </button>
                  </Form>
                ) : null}
                {d.rights.canCancel ? (
                  <Link className="button danger-outline" to="?cancel=1">
                    Cancel booking…
                  </Link>
                ) : null}
              </div>
              {!d.started && b.status === "confirmed" ? (
                <p className="hint">Completed and no-show can be marked once it has started.</p>
              ) : null}
            </section>
          ) : null}

          <section className="panel" aria-labelledby="contact-heading">
            <h2 id="contact-heading">Contact</h2>
            <p className="contact-name">{b.name}</p>
            <p>
              <a href={`mailto:${b.email}`}>{b.email}</a>
            </p>
            {b.phone ? (
              <p>
                <a href={`tel:${b.phone.replace(/[^\d+]/g, "")}`}>{b.phone}</a>
              </p>
            ) : null}
            {b.visitorZone !== d.timeZone ? <p className="hint">Their time zone: {b.visitorZone}</p> : null}
          </section>

          <section className="panel" aria-labelledby="payment-heading">
            <h2 id="payment-heading">Payment</h2>
            {b.free ? (
              <p>Free</p>
            ) : (
              <dl className="facts">
                <dt>Price</dt>
                <dd>{b.price}</dd>
                {b.deposit ? (
                  <>
                    <dt>Deposit</dt>
                    <dd>{b.deposit}</dd>
                  </>
                ) : null}
                <dt>Paid</dt>
                <dd>{b.paid}</dd>
                {b.due ? (
                  <>
                    <dt>Still to pay</dt>
                    <dd>{b.due}</dd>
                  </>
                ) : null}
              </dl>
            )}
            {d.payments.length > 0 ? (
              <ul className="payment-list">
                {d.payments.map((p) => (
                  <li key={p.orderId}>
                    <Link to={`/shop/orders/${p.orderId}`}>{p.orderNumber ? `Order #${p.orderNumber}` : "Order"}</Link>{" "}
                    · {p.kind === "deposit" ? "Deposit" : "Balance"} {p.amount} · {p.at}
                  </li>
                ))}
              </ul>
            ) : null}
          </section>
        </div>
      </div>
    </>
  );
}

function ReasonField({ error, hint }: { error?: string; hint: string }) {
  return (
    <DescribedField id="field-reason" label="Reason" error={error} hint={hint}>
      {(describedBy) => (
        <textarea
          id="field-reason"
          name="reason"
          rows={3}
          maxLength={1000}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
        />
      )}
    </DescribedField>
  );
}

export function ErrorBoundary() {
  return <MissingRecord what="Booking" back={{ to: "/scheduling/bookings", label: "Back to bookings" }} />;
}
