// /scheduling — the team calendar (ADR 036): a day (a column per staff member or resource) or a week (a column per
// day, everyone's or one host's), each booking a block where the business's clocks read its time, coloured by its
// state; the bookings waiting for approval above it; and, until scheduling is set up, the steps to set it up.
// Every member reads it; editors approve from it.
import { Checklist } from "~/ui/checklist";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { bookingDeskOf, calendarOf, type CalendarColumn } from "~/modules/scheduling/operator.server";
import { schedulingSetup } from "~/modules/scheduling/setup.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { BOOKING_STATUS_LABELS, SCHEDULING_TABS } from "~/console/scheduling";
import { receivedAt } from "~/console/inbox-format";
import { profileOf } from "~/modules/sites/profile.server";
import { DescribedField } from "~/ui/form";
import { SectionTabs } from "~/ui/section-tabs";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";
import consoleSchedulingCss from "~/styles/console-scheduling.css?url";

export const meta: MetaFunction = () => [{ title: "Calendar · Atrium" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
  { rel: "stylesheet", href: consoleSchedulingCss },
];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  const { db } = context.services;
  const url = new URL(request.url);
  const view = url.searchParams.get("view") === "week" ? "week" : "day";
  const desk = bookingDeskOf(db, workspace.id);
  const [setup, calendar, pending, pendingCount, profile] = await Promise.all([
    schedulingSetup(db, workspace.id),
    calendarOf(db, workspace.id).view({
      view,
      date: url.searchParams.get("date"),
      hostId: url.searchParams.get("host"),
    }),
    desk.list({ filter: "pending", limit: 5, offset: 0 }),
    desk.count("pending"),
    profileOf(db, workspace.id).get(),
  ]);
  return {
    canEdit: roleAtLeast(role, "editor"),
    setup,
    calendar,
    pendingCount,
    pending: pending.map((b) => ({ ...b, when: receivedAt(b.start, profile.timeZone) })),
  };
});

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

export default function SchedulingCalendar() {
  const d = useLoaderData<typeof loader>();
  const c = d.calendar;
  const todo = d.setup.filter((i) => !i.done);
  const hasHosts = c.hosts.length > 0;
  const here = (changes: Record<string, string | null>) => {
    const q: Record<string, string> = { view: c.view, date: c.date };
    if (c.hostId) q.host = c.hostId;
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) delete q[k];
      else q[k] = v;
    }
    return `/scheduling?${new URLSearchParams(q)}`;
  };
  const back = here({});
  return (
    <>
      <div className="page-header">
        <h1>Scheduling</h1>
        {d.canEdit ? (
          <div className="page-actions">
            <Link className="button secondary" to="/scheduling/availability">
              Hours and staff
            </Link>
            {hasHosts ? (
              <Link className="button" to="/scheduling/services/new">
                Add service
              </Link>
            ) : null}
          </div>
        ) : null}
      </div>
      <SectionTabs label="Scheduling" tabs={SCHEDULING_TABS} />

      {todo.length > 0 ? (
        <section className="panel shop-readiness" aria-labelledby="setup-heading">
          <h2 id="setup-heading">
            Ready to take bookings: {d.setup.length - todo.length} of {d.setup.length}
          </h2>
          <p className="hint">
            Two steps and your site can take bookings: who is booked and when, then what they can book.
          </p>
          <Checklist items={d.setup} />
        </section>
      ) : null}

      {d.pending.length > 0 ? (
        <section className="panel approvals" aria-labelledby="approvals-heading">
          <h2 id="approvals-heading">
            Waiting for your approval <span className="count-badge">{d.pendingCount}</span>
          </h2>
          <ul className="approval-list">
            {d.pending.map((b) => (
              <li key={b.id}>
                <div>
                  <Link to={`/scheduling/bookings/${b.id}`} className="customer-name">
                    {b.name}
                  </Link>
                  <span className="customer-email">
                    {b.serviceName} with {b.hostName} · {b.when}
                  </span>
                </div>
                {d.canEdit ? (
                  <div className="approval-actions">
                    <Form method="post" action={`/scheduling/bookings/${b.id}`}>
                      <input type="hidden" name="back" value={back} />
                      <button type="submit" name="intent" value="approve">
                        Approve<span className="visually-hidden"> {b.name}</span>
                      </button>
                    </Form>
                    <Link className="button secondary" to={`/scheduling/bookings/${b.id}?decline=1`}>
                      Decline<span className="visually-hidden"> {b.name}</span>
                    </Link>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
          {d.pendingCount > d.pending.length ? (
            <p>
              <Link to="/scheduling/bookings?filter=pending">All {d.pendingCount} waiting</Link>
            </p>
          ) : null}
        </section>
      ) : null}

      {hasHosts ? (
        <section aria-labelledby="calendar-heading" className="calendar">
          <div className="calendar-bar">
            <h2 id="calendar-heading">{c.title}</h2>
            <nav aria-label="Dates" className="calendar-nav">
              <Link className="button secondary" to={here({ date: c.previous })}>
                ← <span className="visually-hidden">Previous {c.view}</span>
              </Link>
              <Link className="button secondary" to={here({ date: c.today })}>
                Today
              </Link>
              <Link className="button secondary" to={here({ date: c.next })}>
                <span className="visually-hidden">Next {c.view}</span> →
              </Link>
            </nav>
            <nav aria-label="View" className="calendar-views">
              <Link to={here({ view: "day", host: null })} aria-current={c.view === "day" ? "page" : undefined}>
                Day
              </Link>
              <Link to={here({ view: "week" })} aria-current={c.view === "week" ? "page" : undefined}>
                Week
              </Link>
            </nav>
          </div>
          <Form method="get" className="calendar-jump">
            <input type="hidden" name="view" value={c.view} />
            <DescribedField id="cal-date" label="Go to date">
              {(describedBy) => (
                <input id="cal-date" name="date" type="date" defaultValue={c.date} aria-describedby={describedBy} />
              )}
            </DescribedField>
            {c.view === "week" ? (
              <DescribedField id="cal-host" label="Show">
                {(describedBy) => (
                  <select id="cal-host" name="host" defaultValue={c.hostId ?? ""} aria-describedby={describedBy}>
                    <option value="">Everyone</option>
                    {c.hosts.map((h) => (
                      <option key={h.id} value={h.id}>
                        {h.name}
                      </option>
                    ))}
                  </select>
                )}
              </DescribedField>
            ) : null}
            <button type="submit" className="secondary">
              Show
            </button>
          </Form>
          {c.days
            .filter((day) => day.change)
            .map((day) => (
              <p key={day.date} className="calendar-note">
                {c.view === "week" ? `${day.label}: ` : ""}
                {day.change}. Times are shown as the clocks read in {c.timeZone}.
              </p>
            ))}
          <CalendarGrid calendar={c} />
          <p className="hint calendar-legend">
            Times in {c.timeZone}. {c.total === 0 ? `Nothing booked this ${c.view}.` : null}{" "}
            <span className="legend-item cal-block--confirmed">Confirmed</span>
            <span className="legend-item cal-block--pending">Needs approval</span>
            <span className="legend-item cal-block--held">Awaiting deposit</span>
            <span className="legend-item cal-block--completed">Completed</span>
            <span className="legend-item cal-block--no_show">No-show</span>
            <span className="legend-item cal-block--cancelled">Cancelled</span>
          </p>
        </section>
      ) : (
        <div className="empty">
          <p>
            <strong>Your calendar is empty.</strong> Add the people (or rooms, chairs…) who are booked and their weekly
            hours, then a service. Bookings made on your site show here, for each of them.
          </p>
          <p>
            <Link className="button" to="/scheduling/availability">
              Add who is booked
            </Link>
          </p>
        </div>
      )}
    </>
  );
}

/**
 * The grid as a table: a row per quarter-hour, a column per host or day (split in lanes where bookings overlap),
 * each booking a cell spanning its rows. A table places blocks by time without inline styles (the console's
 * CSP allows none) and reads as a timetable to assistive technology.
 */
function CalendarGrid({ calendar: c }: { calendar: Data["calendar"] }) {
  const starts = c.columns.map((col) => {
    const at = new Map<string, (typeof col.blocks)[number]>();
    const covered = new Set<string>();
    for (const b of col.blocks) {
      at.set(`${b.lane}:${b.row}`, b);
      for (let r = b.row + 1; r < b.row + b.span; r++) covered.add(`${b.lane}:${r}`);
    }
    return { at, covered, skipped: new Set(col.skippedRows), closed: new Set(col.closedRows) };
  });
  return (
    <div className="table-scroll calendar-scroll" tabIndex={0} role="region" aria-label={`Calendar, ${c.title}`}>
      <table className={`calendar-grid calendar-grid--${c.view}`}>
        <thead>
          <tr>
            <th scope="col" className="cal-time-head">
              <span className="visually-hidden">Time</span>
            </th>
            {c.columns.map((col: CalendarColumn) => (
              <th
                key={col.key}
                scope="col"
                colSpan={col.lanes}
                className={col.sub === "Today" ? "cal-today" : undefined}
              >
                <span className="cal-col-label">{col.label}</span>
                {col.sub ? <span className="cal-col-sub">{col.sub}</span> : null}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {c.rows.map((row) => (
            <tr key={row.index} className={row.hourStart ? "cal-hour" : undefined} data-time={row.time}>
              {row.index % 4 === 0 ? (
                <th scope="row" rowSpan={Math.min(4, c.rows.length - row.index)} className="cal-time">
                  {row.time}
                </th>
              ) : null}
              {c.columns.flatMap((col, ci) =>
                Array.from({ length: col.lanes }, (_, lane) => {
                  const key = `${lane}:${row.index}`;
                  const s = starts[ci]!;
                  if (s.covered.has(key)) return null;
                  const b = s.at.get(key);
                  const edge = lane === col.lanes - 1 ? " cal-col-end" : "";
                  if (!b) {
                    const state = s.skipped.has(row.index)
                      ? " cal-skipped"
                      : s.closed.has(row.index)
                        ? " cal-closed"
                        : "";
                    return <td key={`${col.key}-${lane}`} className={`cal-cell${state}${edge}`} />;
                  }
                  return (
                    <td key={`${col.key}-${lane}`} rowSpan={b.span} className={`cal-cell cal-has-block${edge}`}>
                      <Link
                        to={`/scheduling/bookings/${b.id}`}
                        className={`cal-block cal-block--${b.status}${b.span <= 2 ? " cal-block--short" : ""}`}
                        data-start={b.startText}
                        data-booking={b.id}
                      >
                        <span className="cal-block-time">
                          {b.startText}–{b.endText}
                        </span>
                        <span className="cal-block-name">{b.name}</span>
                        <span className="cal-block-service">
                          {b.serviceName}
                          {c.view === "week" ? ` · ${b.hostName}` : ""}
                          {b.seats > 1 ? ` · ${b.seats} places` : ""}
                        </span>
                        <span className="visually-hidden"> ({BOOKING_STATUS_LABELS[b.status]})</span>
                      </Link>
                    </td>
                  );
                }),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
