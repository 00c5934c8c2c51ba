// /scheduling/services — what can be booked (ADR 036): each service's length, price, deposit, who delivers it and
// its status; archived ones behind their own filter. Each opens at /scheduling/services/{id}; editors add one at
// /scheduling/services/new.
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { formatMoney } from "~/modules/commerce/money";
import { hostsOf, servicesOf } from "~/modules/scheduling/services.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { SCHEDULING_TABS, SERVICE_STATUS_LABELS, durationText } from "~/console/scheduling";
import { SectionTabs } from "~/ui/section-tabs";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";
import consoleSchedulingCss from "~/styles/console-scheduling.css?url";

export const meta: MetaFunction = () => [{ title: "Services · Atrium" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
  { rel: "stylesheet", href: consoleSchedulingCss },
];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  const { db } = context.services;
  const archived = new URL(request.url).searchParams.get("status") === "archived";
  const [services, hosts] = await Promise.all([
    servicesOf(db, workspace.id).list(archived ? { status: "archived" } : {}),
    hostsOf(db, workspace.id).list(),
  ]);
  const names = new Map(hosts.map((h) => [h.id, h.name]));
  return {
    archived,
    canEdit: roleAtLeast(role, "editor"),
    hasHosts: hosts.length > 0,
    services: services.map((s) => ({
      id: s.id,
      name: s.name,
      slug: s.slug,
      status: s.status,
      duration: durationText(s.durationMinutes),
      capacity: s.capacity,
      price: s.price > 0 ? formatMoney(s.price, s.currency) : "Free",
      deposit: s.deposit > 0 ? formatMoney(s.deposit, s.currency) : "—",
      approval: s.requiresApproval,
      hosts: s.hostIds.map((id) => names.get(id) ?? "—"),
    })),
  };
});

export default function Services() {
  const d = useLoaderData<typeof loader>();
  return (
    <>
      <div className="page-header">
        <h1>Services</h1>
        {d.canEdit && d.hasHosts ? (
          <div className="page-actions">
            <Link className="button" to="/scheduling/services/new">
              Add service
            </Link>
          </div>
        ) : null}
      </div>
      <SectionTabs label="Scheduling" tabs={SCHEDULING_TABS} />
      <nav aria-label="Show services" className="filter-chips">
        <ul>
          <li>
            <Link to="/scheduling/services" aria-current={d.archived ? undefined : "page"}>
              Current
            </Link>
          </li>
          <li>
            <Link to="?status=archived" aria-current={d.archived ? "page" : undefined}>
              Archived
            </Link>
          </li>
        </ul>
      </nav>
      {d.services.length === 0 ? (
        <div className="empty">
          {d.archived ? (
            <p>
              <strong>No archived services.</strong> A service you archive keeps its past bookings and can no longer be
              booked.
            </p>
          ) : d.hasHosts ? (
            <p>
              <strong>No services yet.</strong> A service is what people book: a 60-minute massage, a haircut, a class
              with 12 places. Give it a length and a price, and choose who delivers it.{" "}
              {d.canEdit ? <Link to="/scheduling/services/new">Add your first service</Link> : null}
            </p>
          ) : (
            <p>
              <strong>First, add who is booked.</strong> A service is delivered by a staff member or a resource (a room,
              a chair) with weekly hours. <Link to="/scheduling/availability">Add them on the availability page</Link>,
              then come back to add a service.
            </p>
          )}
        </div>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Services">
          <table className="customer-table">
            <thead>
              <tr>
                <th scope="col">Service</th>
                <th scope="col">Length</th>
                <th scope="col" className="amount">
                  Price
                </th>
                <th scope="col" className="amount">
                  Deposit
                </th>
                <th scope="col">Delivered by</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {d.services.map((s) => (
                <tr key={s.id}>
                  <td>
                    <Link to={`/scheduling/services/${s.id}`} className="customer-name">
                      {s.name}
                    </Link>
                    <span className="customer-email">
                      {s.capacity > 1 ? `${s.capacity} places` : "One at a time"}
                      {s.approval ? " · you approve each booking" : ""}
                    </span>
                  </td>
                  <td>{s.duration}</td>
                  <td className="amount">{s.price}</td>
                  <td className="amount">{s.deposit}</td>
                  <td>{s.hosts.join(", ") || "—"}</td>
                  <td>
                    <span className={`status-pill status-pill--${s.status}`}>{SERVICE_STATUS_LABELS[s.status]}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
