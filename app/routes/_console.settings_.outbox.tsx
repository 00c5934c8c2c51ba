// /settings/outbox — e-mail this workspace sent: the development outbox when SMTP_URL is unset (nothing left
// the server), otherwise a record of what went to the mail server.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { mailOf } from "~/modules/mail/mail.server";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { Pager } from "~/ui/pager";
import { page } from "~/lib/routes.server";

export const meta: MetaFunction = () => [{ title: "Outbox · Atrium" }];

const PAGE_SIZE = 20;

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context);
  const { page, ...window } = pageOf(request, PAGE_SIZE);
  const mail = mailOf(context.services.db, workspace.id);
  const [messages, total] = await Promise.all([mail.list(window), mail.count()]);
  return {
    messages,
    page,
    pages: pageCount(total, PAGE_SIZE),
    transport: context.services.mailer.transport,
  };
});

export default function Outbox() {
  const { messages, page, pages, transport } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Outbox</h1>
      <p>
        {transport === "outbox"
          ? "No mail server is configured (SMTP_URL), so e-mail is kept here instead of being sent."
          : "E-mail sent through the configured mail server."}
      </p>
      <section className="panel" aria-labelledby="messages">
        <h2 id="messages">Messages</h2>
        {messages.length === 0 ? (
          <p className="empty">No e-mail yet. SOP steps that send e-mail show up here.</p>
        ) : (
          <ul className="runs">
            {messages.map((m) => (
              <li key={m.id} data-mail-to={m.to}>
                <details>
                  <summary>{`${m.createdAt.slice(0, 16).replace("T", " ")} · to ${m.to} · ${m.subject} (${m.status})`}</summary>
                  {m.error && m.status === "failed" ? <p className="field-error">{m.error}</p> : null}
                  <pre>
                    <code>{m.body}</code>
                  </pre>
                </details>
              </li>
            ))}
          </ul>
        )}
        <Pager page={page} pages={pages} label="Pages of messages" />
      </section>
    </>
  );
}
