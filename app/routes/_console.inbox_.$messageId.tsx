// /inbox/{id} — one message: who wrote, when, what; reply by e-mail, turn it into a support request (answered
// from the inbox, followed by the sender in their portal or by an e-mailed link), mark unread, delete (editors).
// Opening it marks it read for the workspace. Another workspace's message is a 404.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { invalid } from "~/lib/errors";
import { type FormResult, runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { contactMessagesOf } from "~/modules/contacts/messages.server";
import { ticketFromMessage } from "~/modules/customers/tickets.server";
import { publicOrigin } from "~/modules/hosts/hosts.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { excerpt, receivedAt } from "~/console/inbox-format";
import { profileOf } from "~/modules/sites/profile.server";
import { MissingRecord } from "~/console/missing-record";
import { ConfirmForm } from "~/ui/confirm-form";
import { FormMessage } from "~/ui/form";
import consoleContactCss from "~/styles/console-contact.css?url";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Message from ${data.message.name} · Inbox · Atrium` : "Inbox · Atrium" },
];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: consoleContactCss }];

export const loader = page("operator", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  // Reading it is what marks it read: the inbox's bold is "nobody here has opened this yet".
  const message = await contactMessagesOf(context.services.db, workspace.id).open(params.messageId ?? "");
  const { timeZone } = await profileOf(context.services.db, workspace.id).get();
  return {
    workspace: { name: workspace.name },
    canEdit: roleAtLeast(role, "editor"),
    message: { ...message, receivedAt: receivedAt(message.createdAt, timeZone) },
  };
});

export const action = page("operator", async ({ request, params, context }: ActionFunctionArgs) => {
  const { session, workspace } = await requireWorkspace(request, context, "editor");
  const messages = contactMessagesOf(context.services.db, workspace.id);
  const id = params.messageId ?? "";
  return runForm(request, context, async (values): Promise<FormResult | Response> => {
    switch (values.intent) {
      case "mark-unread":
        await messages.markUnread(id);
        return redirect("/inbox");
      case "delete":
        await messages.remove(session.user.id, id);
        return redirect("/inbox");
      case "to-ticket": {
        const ticket = await ticketFromMessage(
          context.services.db,
          workspace.id,
          id,
          session.user.id,
          await publicOrigin(request, context),
        );
        return redirect(`/inbox/tickets/${ticket.id}`);
      }
      default:
        throw invalid("Unknown action");
    }
  });
});

export default function InboxMessage() {
  const { workspace, canEdit, message } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const subject = `Re: your message to ${workspace.name}`;
  return (
    <>
      <Link to="/inbox" className="back-link">
        ← Inbox
      </Link>
      <h1>Message from {message.name}</h1>
      <p className="message-meta">
        <span>
          From <a href={`mailto:${message.email}`}>{message.email}</a>
        </span>
        <span>
          Received <time dateTime={message.createdAt}>{message.receivedAt}</time>
        </span>
      </p>
      <FormMessage message={result?.ok === false ? result.message : undefined} />
      <section className="panel" aria-label="Message">
        <p className="message-body">{message.message}</p>
      </section>
      <div className="message-actions">
        <a
          className="button"
          href={`mailto:${message.email}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(
            // Quoted, and cut short: some mail programs refuse very long mailto: addresses.
            `\n\nOn ${message.receivedAt}, ${message.name} wrote:\n> ${excerpt(message.message, 1200).split("\n").join("\n> ")}`,
          )}`}
        >
          Reply by e-mail
        </a>
        {canEdit ? (
          <>
            <Form method="post">
              <input type="hidden" name="intent" value="to-ticket" />
              <button type="submit" className="secondary">
                Answer as a support request
              </button>
            </Form>
            <Form method="post">
              <input type="hidden" name="intent" value="mark-unread" />
              <button type="submit" className="secondary">
                Mark as unread
              </button>
            </Form>
            <ConfirmForm
              confirm={`Delete the message from ${message.name}? This cannot be undone.`}
              fields={{ intent: "delete" }}
            >
              <button type="submit" className="danger">
                Delete
              </button>
            </ConfirmForm>
          </>
        ) : null}
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <MissingRecord what="Message" back={{ to: "/inbox", label: "Back to the inbox" }} />;
}
