// /inbox — the workspace's support requests (tickets) and contact-form messages in one list, newest activity
// first, unread marked. Filters: all, tickets by status, assigned to me or to nobody, messages. A ticket opens at
// /inbox/tickets/{id}, a message at /inbox/{id}. Every member reads the inbox.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { type FormResult, runForm } from "~/lib/forms.server";
import { memberNotificationsOf } from "~/modules/customers/member-notifications.server";
import { FormMessage } from "~/ui/form";
import { now } from "~/lib/clock.server";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { inboxOf, type InboxFilter } from "~/modules/customers/inbox.server";
import { profileOf } from "~/modules/sites/profile.server";
import { excerpt, receivedAt, receivedShort } from "~/console/inbox-format";
import { INBOX_FILTERS, INBOX_STATUS_LABELS, type InboxFilterName } from "~/console/inbox-filters";
import { Pager } from "~/ui/pager";
import consoleContactCss from "~/styles/console-contact.css?url";

export const meta: MetaFunction = () => [{ title: "Inbox · Atrium" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: consoleContactCss }];

const PAGE_SIZE = 25;

function filterOf(name: InboxFilterName, userId: string): InboxFilter {
  switch (name) {
    case "open":
    case "pending":
    case "closed":
      return { kind: "ticket", status: name };
    case "mine":
      return { kind: "ticket", assignee: userId };
    case "unassigned":
      return { kind: "ticket", assignee: "none", status: "open" };
    case "messages":
      return { kind: "message" };
    default:
      return {};
  }
}

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { session, workspace, role } = await requireWorkspace(request, context, "viewer");
  const asked = new URL(request.url).searchParams.get("show") ?? "all";
  const show = (INBOX_FILTERS.some((f) => f.name === asked) ? asked : "all") as InboxFilterName;
  const inbox = inboxOf(context.services.db, workspace.id);
  const filter = filterOf(show, session.user.id);
  const { page, ...window } = pageOf(request, PAGE_SIZE);
  const [list, counts, open, profile, notifications] = await Promise.all([
    inbox.list(filter, window),
    inbox.count(filter),
    inbox.count({ kind: "ticket", status: "open" }),
    profileOf(context.services.db, workspace.id).get(),
    memberNotificationsOf(context.services.db, workspace.id).get(session.user.id, role),
  ]);
  return {
    workspace: { name: workspace.name, slug: workspace.slug },
    show,
    notifications,
    counts,
    openTickets: open.total,
    page,
    pages: pageCount(counts.total, PAGE_SIZE),
    items: list.map((item) => ({
      ...item,
      title: item.kind === "message" ? excerpt(item.title) : item.title,
      receivedAt: receivedAt(item.at, profile.timeZone),
      receivedShort: receivedShort(item.at, now(), profile.timeZone),
    })),
  };
});

/** Each member chooses what the inbox e-mails them about (ADR 029); any member may, for themself. */
export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { session, workspace } = await requireWorkspace(request, context, "viewer");
  return runForm(request, context, async (values): Promise<FormResult> => {
    await memberNotificationsOf(context.services.db, workspace.id).set(session.user.id, {
      newTickets: values.newTickets === "on",
      newMessages: values.newMessages === "on",
      newOrders: values.newOrders === "on",
    });
    return { ok: true, intent: "notifications", message: "Your e-mail notifications are saved." };
  });
});

export default function Inbox() {
  const { workspace, show, notifications, counts, openTickets, page, pages, items } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const current = INBOX_FILTERS.find((f) => f.name === show)!;
  return (
    <>
      <h1>Inbox</h1>
      <p className="page-intro">
        Support requests your customers open from {workspace.name}'s site, and messages sent through its contact form.
        {openTickets > 0
          ? ` ${openTickets.toLocaleString("en")} request${openTickets === 1 ? " is" : "s are"} waiting for an answer.`
          : ""}
      </p>
      <nav className="filter-chips" aria-label="Show">
        <ul>
          {INBOX_FILTERS.map((f) => (
            <li key={f.name}>
              <Link
                to={f.name === "all" ? "/inbox" : `/inbox?show=${f.name}`}
                aria-current={f.name === show ? "page" : undefined}
              >
                {f.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="inbox-more">
        <Link to="/inbox/assistant">Site assistant: settings and conversations →</Link>
      </p>
      <p className="inbox-summary">
        {`${counts.total.toLocaleString("en")} ${counts.total === 1 ? "item" : "items"}${
          counts.unread > 0 ? `, ${counts.unread.toLocaleString("en")} unread` : ""
        }`}
      </p>
      {items.length === 0 ? (
        <div className="empty">
          {show === "all" ? (
            <>
              <p>
                <strong>Nothing here yet.</strong> When a customer opens a support request from their account, or
                someone writes through your site's contact page, it appears here.
              </p>
              <p>
                Share your contact page — <a href={`/${workspace.slug}/contact`}>/{workspace.slug}/contact</a> — or your
                customers' sign-in page — <a href={`/${workspace.slug}/login`}>/{workspace.slug}/login</a>.
              </p>
            </>
          ) : (
            <p>
              <strong>{current.empty}</strong> <Link to="/inbox">Show everything</Link>
            </p>
          )}
        </div>
      ) : (
        <>
          <ul className="inbox-list" aria-label={`${current.label}, newest first`}>
            {items.map((item) => (
              <li key={`${item.kind}:${item.id}`} className={item.unread ? "inbox-unread" : undefined}>
                <Link to={item.kind === "ticket" ? `/inbox/tickets/${item.id}` : `/inbox/${item.id}`}>
                  <span className="inbox-dot" aria-hidden="true" />
                  <span className="inbox-from">
                    {item.unread ? <span className="visually-hidden">Unread: </span> : null}
                    {item.name || item.email}
                  </span>
                  <span className="inbox-excerpt">
                    {item.kind === "ticket" ? (
                      <span className={`inbox-badge inbox-badge--${item.status}`}>
                        #{item.number} {INBOX_STATUS_LABELS[item.status ?? "open"]}
                      </span>
                    ) : (
                      <span className="inbox-badge inbox-badge--message">Message</span>
                    )}{" "}
                    {item.title} <span className="inbox-email">— {item.email}</span>
                  </span>
                  <time className="inbox-date" dateTime={item.at} title={item.receivedAt}>
                    {item.receivedShort}
                  </time>
                </Link>
              </li>
            ))}
          </ul>
          <Pager page={page} pages={pages} label="Inbox pages" query={show === "all" ? {} : { show }} />
        </>
      )}
      <Form method="post" className="panel inbox-notifications">
        <h2>Your e-mail notifications</h2>
        <FormMessage message={result?.ok ? result.message : undefined} tone="success" />
        <FormMessage message={result?.ok === false ? result.message : undefined} />
        <fieldset className="choice-list">
          <legend>E-mail me when</legend>
          <label>
            <input type="checkbox" name="newTickets" defaultChecked={notifications.newTickets} /> a customer opens or
            answers a support request
          </label>
          <label>
            <input type="checkbox" name="newMessages" defaultChecked={notifications.newMessages} /> someone writes
            through the contact form
          </label>
          <label>
            <input type="checkbox" name="newOrders" defaultChecked={notifications.newOrders} /> a customer places an
            order in the shop
          </label>
        </fieldset>
        <button type="submit" className="secondary">
          Save
        </button>
      </Form>
    </>
  );
}
