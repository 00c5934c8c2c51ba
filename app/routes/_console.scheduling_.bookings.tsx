// /scheduling/bookings — every booking (ADR 036): upcoming first of all (soonest first), or those waiting for
// approval, past or cancelled ones; search by the booker's name or e-mail; 25 a page; each opens at
// /scheduling/bookings/{id}.
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { formatMoney } from "~/modules/commerce/money";
import { bookingDeskOf, type BookingFilter } from "~/modules/scheduling/operator.server";
import { profileOf } from "~/modules/sites/profile.server";
import { receivedAt } from "~/console/inbox-format";
import { BOOKING_FILTERS, BOOKING_STATUS_LABELS, SCHEDULING_TABS } from "~/console/scheduling";
import { DescribedField } from "~/ui/form";
import { Pager } from "~/ui/pager";
import { SectionTabs } from "~/ui/section-tabs";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";
import consoleSchedulingCss from "~/styles/console-scheduling.css?url";

export const meta: MetaFunction = () => [{ title: "Bookings · Atrium" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
  { rel: "stylesheet", href: consoleSchedulingCss },
];

const PAGE_SIZE = 25;
const FILTER_LABELS: Record<BookingFilter, string> = {
  upcoming: "Upcoming",
  pending: "Needs approval",
  past: "Past",
  cancelled: "Cancelled",
  all: "All bookings",
};

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context, "viewer");
  const { db } = context.services;
  const url = new URL(request.url);
  const query = url.searchParams.get("q")?.trim().slice(0, 200) ?? "";
  const asked = url.searchParams.get("filter") ?? "";
  const filter = (BOOKING_FILTERS as readonly string[]).includes(asked) ? (asked as BookingFilter) : "upcoming";
  const desk = bookingDeskOf(db, workspace.id);
  const { page, ...window } = pageOf(request, PAGE_SIZE);
  const [list, total, pending, profile] = await Promise.all([
    desk.list({ filter, query: query || undefined, limit: window.size, offset: window.offset }),
    desk.count(filter, query || undefined),
    desk.count("pending"),
    profileOf(db, workspace.id).get(),
  ]);
  return {
    query,
    filter,
    total,
    pending,
    page,
    pages: pageCount(total, PAGE_SIZE),
    timeZone: profile.timeZone,
    bookings: list.map((b) => ({
      ...b,
      when: receivedAt(b.start, profile.timeZone),
      price: b.price > 0 ? formatMoney(b.price, b.currency) : "Free",
    })),
  };
});

export default function Bookings() {
  const d = useLoaderData<typeof loader>();
  const searched = d.query !== "";
  const query: Record<string, string> = { filter: d.filter };
  if (d.query) query.q = d.query;
  return (
    <>
      <div className="page-header">
        <h1>Bookings</h1>
      </div>
      <SectionTabs label="Scheduling" tabs={SCHEDULING_TABS} />
      <nav aria-label="Show bookings" className="filter-chips">
        <ul>
          {BOOKING_FILTERS.map((f) => (
            <li key={f}>
              <Link
                to={`?${new URLSearchParams({ filter: f, ...(d.query ? { q: d.query } : {}) })}`}
                aria-current={f === d.filter ? "page" : undefined}
              >
                {FILTER_LABELS[f]}
                {f === "pending" && d.pending > 0 ? <span className="count-badge">{d.pending}</span> : null}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Form method="get" className="customer-search" role="search">
        <DescribedField id="booking-q" label="Search bookings">
          {(describedBy) => (
            <input
              id="booking-q"
              name="q"
              type="search"
              defaultValue={d.query}
              placeholder="Name or e-mail"
              aria-describedby={describedBy}
            />
          )}
        </DescribedField>
        <input type="hidden" name="filter" value={d.filter} />
        <button type="submit" className="secondary">
          Search
        </button>
        {searched ? <Link to={`?filter=${d.filter}`}>Clear</Link> : null}
      </Form>
      {d.bookings.length === 0 ? (
        <div className="empty">
          {searched ? (
            <p>
              <strong>No booking matches.</strong> Try part of the name or e-mail.{" "}
              <Link to={`?filter=${d.filter}`}>Show all</Link>
            </p>
          ) : d.filter === "upcoming" ? (
            <p>
              <strong>Nothing booked ahead.</strong> Bookings made on your site, or through the API, appear here and in
              the <Link to="/scheduling">calendar</Link>.
            </p>
          ) : (
            <p>
              <strong>No {FILTER_LABELS[d.filter].toLowerCase()} bookings.</strong>{" "}
              <Link to="?filter=upcoming">Show upcoming</Link>
            </p>
          )}
        </div>
      ) : (
        <>
          <p className="list-summary">
            {d.total.toLocaleString("en")} {d.total === 1 ? "booking" : "bookings"} · times in {d.timeZone}
          </p>
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Bookings">
            <table className="customer-table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Booked by</th>
                  <th scope="col">Service</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="amount">
                    Price
                  </th>
                </tr>
              </thead>
              <tbody>
                {d.bookings.map((b) => (
                  <tr key={b.id}>
                    <td>
                      <Link to={`/scheduling/bookings/${b.id}`} className="customer-name">
                        {b.when}
                      </Link>
                    </td>
                    <td>
                      {b.name}
                      <span className="customer-email">{b.email}</span>
                    </td>
                    <td>
                      {b.serviceName}
                      <span className="customer-email">
                        with {b.hostName}
                        {b.seats > 1 ? ` · ${b.seats} places` : ""}
                      </span>
                    </td>
                    <td>
                      <span className={`status-pill status-pill--${b.status}`}>{BOOKING_STATUS_LABELS[b.status]}</span>
                    </td>
                    <td className="amount">{b.price}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={d.page} pages={d.pages} label="Booking pages" query={query} />
        </>
      )}
    </>
  );
}
