// /inbox/tickets/{id} — one support request: the conversation, a reply (e-mailed to the customer and shown in
// their portal), its status and who in the team has it. Opening it marks it read for the workspace. Editors
// answer and change it; viewers read. Another workspace's ticket is a 404.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { invalid } from "~/lib/errors";
import { type FormResult, parseForm, runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { TICKET_STATUSES, TicketBody, ticketsOf } from "~/modules/customers/tickets.server";
import { publicOrigin } from "~/modules/hosts/hosts.server";
import { profileOf } from "~/modules/sites/profile.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { workspaceOf } from "~/modules/tenancy/workspaces.server";
import { receivedAt } from "~/console/inbox-format";
import { INBOX_STATUS_LABELS } from "~/console/inbox-filters";
import { MissingRecord } from "~/console/missing-record";
import { DescribedField, FormMessage } from "~/ui/form";
import consoleContactCss from "~/styles/console-contact.css?url";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `#${data.ticket.number} ${data.ticket.subject} · Inbox · Atrium` : "Inbox · Atrium" },
];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: consoleContactCss }];

export const loader = page("operator", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  const { db } = context.services;
  const tickets = ticketsOf(db, workspace.id);
  const id = params.ticketId ?? "";
  const ticket = await tickets.byId(id);
  await tickets.markRead(id);
  const [messages, members, { timeZone }] = await Promise.all([
    tickets.messagesOf(id),
    workspaceOf(db, workspace.id).listMembers(),
    profileOf(db, workspace.id).get(),
  ]);
  const emailOf = new Map(members.map((m) => [m.userId, m.email]));
  return {
    workspace: { name: workspace.name },
    canEdit: roleAtLeast(role, "editor"),
    ticket: { ...ticket, openedAt: receivedAt(ticket.createdAt, timeZone) },
    messages: messages.map((m) => ({
      ...m,
      who: m.author === "customer" ? ticket.name || ticket.email : (emailOf.get(m.authorUserId ?? "") ?? "Your team"),
      at: receivedAt(m.createdAt, timeZone),
    })),
    members: members.map((m) => ({ id: m.userId, email: m.email })),
    replied: new URL(request.url).searchParams.has("replied"),
  };
});

const StatusInput = z.object({ status: z.enum(TICKET_STATUSES) });

export const action = page("operator", async ({ request, params, context }: ActionFunctionArgs) => {
  const { session, workspace } = await requireWorkspace(request, context, "editor");
  const tickets = ticketsOf(context.services.db, workspace.id);
  const id = params.ticketId ?? "";
  return runForm(request, context, async (values): Promise<FormResult | Response> => {
    switch (values.intent) {
      case "reply": {
        const { body } = parseForm(z.object({ body: TicketBody }), values);
        await tickets.replyAsOperator(id, body, session.user.id, await publicOrigin(request, context));
        context.services.jobRunner.wake();
        return redirect(`/inbox/tickets/${id}?replied=1`);
      }
      case "status": {
        const { status } = parseForm(StatusInput, values);
        await tickets.setStatus(id, status, session.user.id);
        return { ok: true, intent: "status", message: `Marked ${INBOX_STATUS_LABELS[status]!.toLowerCase()}.` };
      }
      case "revoke-links": {
        const revoked = await tickets.revokeLinks(id, session.user.id);
        return {
          ok: true,
          intent: "revoke-links",
          message:
            revoked === 0
              ? "There was no live link to revoke."
              : `${revoked} e-mailed link${revoked === 1 ? "" : "s"} revoked. Your next reply sends a new one.`,
        };
      }
      case "assign":
        await tickets.assign(id, values.assignee || null, session.user.id);
        return { ok: true, intent: "assign", message: "Assignment saved." };
      default:
        throw invalid("Unknown action");
    }
  });
});

export default function TicketInConsole() {
  const { workspace, canEdit, ticket, messages, members, replied } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  return (
    <>
      <Link to="/inbox" className="back-link">
        ← Inbox
      </Link>
      <h1>
        #{ticket.number} {ticket.subject}
      </h1>
      <p className="message-meta">
        <span>
          From{" "}
          {ticket.customerId ? (
            <Link to={`/customers/${ticket.customerId}`}>{ticket.name || ticket.email}</Link>
          ) : (
            `${ticket.name || ticket.email} (guest)`
          )}{" "}
          &lt;{ticket.email}&gt;
        </span>
        <span>Opened {ticket.openedAt}</span>
        <span className={`inbox-badge inbox-badge--${ticket.status}`}>{INBOX_STATUS_LABELS[ticket.status]}</span>
      </p>
      <FormMessage message={result?.ok === false ? result.message : undefined} />
      <FormMessage message={result?.ok ? result.message : replied ? "Reply sent." : undefined} tone="success" />
      <div className="ticket-layout">
        <div>
          <ol className="ticket-thread" aria-label="Conversation">
            {messages.map((m) => (
              <li key={m.id} className={`ticket-message ticket-message--${m.author}`}>
                <header>
                  <strong>{m.who}</strong>
                  <time dateTime={m.createdAt}>{m.at}</time>
                </header>
                <p className="message-body">{m.body}</p>
              </li>
            ))}
          </ol>
          {canEdit ? (
            <Form method="post" className="panel">
              <input type="hidden" name="intent" value="reply" />
              <DescribedField
                id="reply-body"
                label={`Reply to ${ticket.name || ticket.email}`}
                error={result?.fieldErrors?.body}
                hint={`Sent to ${ticket.email} from ${workspace.name}, and shown ${
                  ticket.customerId ? "in their account on your site" : "on the page the e-mail's link opens"
                }.`}
              >
                {(describedBy) => (
                  <textarea
                    id="reply-body"
                    name="body"
                    rows={6}
                    required
                    maxLength={10000}
                    aria-describedby={describedBy}
                    aria-invalid={result?.fieldErrors?.body ? true : undefined}
                  />
                )}
              </DescribedField>
              <button type="submit">Send reply</button>
            </Form>
          ) : null}
        </div>
        <aside className="ticket-side" aria-label="Request details">
          {canEdit ? (
            <>
              <Form method="post" className="panel">
                <input type="hidden" name="intent" value="status" />
                <DescribedField id="ticket-status" label="Status">
                  {(describedBy) => (
                    <select
                      id="ticket-status"
                      name="status"
                      defaultValue={ticket.status}
                      aria-describedby={describedBy}
                    >
                      {Object.keys(INBOX_STATUS_LABELS).map((s) => (
                        <option key={s} value={s}>
                          {INBOX_STATUS_LABELS[s]}
                        </option>
                      ))}
                    </select>
                  )}
                </DescribedField>
                <button type="submit" className="secondary">
                  Save status
                </button>
              </Form>
              {ticket.customerId ? null : (
                <Form method="post" className="panel">
                  <input type="hidden" name="intent" value="revoke-links" />
                  <h2>Guest links</h2>
                  <p className="hint">
                    This guest follows the request by the links in your replies. Revoke them if one reached the wrong
                    person; your next reply sends a new one.
                  </p>
                  <button type="submit" className="secondary">
                    Revoke e-mailed links
                  </button>
                </Form>
              )}
              <Form method="post" className="panel">
                <input type="hidden" name="intent" value="assign" />
                <DescribedField id="ticket-assignee" label="Assigned to">
                  {(describedBy) => (
                    <select
                      id="ticket-assignee"
                      name="assignee"
                      defaultValue={ticket.assignedUserId ?? ""}
                      aria-describedby={describedBy}
                    >
                      <option value="">Nobody</option>
                      {members.map((m) => (
                        <option key={m.id} value={m.id}>
                          {m.email}
                        </option>
                      ))}
                    </select>
                  )}
                </DescribedField>
                <button type="submit" className="secondary">
                  Assign
                </button>
              </Form>
            </>
          ) : (
            <div className="panel">
              <dl>
                <dt>Status</dt>
                <dd>{INBOX_STATUS_LABELS[ticket.status]}</dd>
                <dt>Assigned to</dt>
                <dd>{members.find((m) => m.id === ticket.assignedUserId)?.email ?? "Nobody"}</dd>
              </dl>
            </div>
          )}
        </aside>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <MissingRecord what="Request" back={{ to: "/inbox", label: "Back to the inbox" }} />;
}
