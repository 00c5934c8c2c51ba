// /inbox/assistant/{id} — one conversation with the site assistant (ADR 037): what was asked, what it answered and
// from which pages, what it looked up; who asked (a signed-in customer, or an anonymous visitor), and the support
// request it was passed to, if any. Read-only. Another workspace's conversation is a 404.
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { inboxConversationsOf } from "~/modules/chat/conversations.server";
import { profileOf } from "~/modules/sites/profile.server";
import { ticketsOf } from "~/modules/customers/tickets.server";
import { receivedAt } from "~/console/inbox-format";
import { MissingRecord } from "~/console/missing-record";
import consoleContactCss from "~/styles/console-contact.css?url";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data ? `${data.conversation.title || "Conversation"} · Site assistant · Atrium` : "Site assistant · Atrium",
  },
];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: consoleContactCss }];

/** What the page shows of a stored part: text, a cited page, or the name of what the assistant looked up. */
type Shown =
  { kind: "text"; text: string } | { kind: "source"; url: string; title: string } | { kind: "tool"; name: string };

const TOOL_LABELS: Record<string, string> = {
  search_content: "Searched the site",
  my_orders: "Looked up the customer's orders",
  my_bookings: "Looked up the customer's bookings",
  hand_over: "Offered to pass it to the team",
};

export const loader = page("operator", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context, "viewer");
  const { db } = context.services;
  const conversation = await inboxConversationsOf(db, workspace.id).get(params.conversationId ?? "");
  const [{ timeZone }, ticket] = await Promise.all([
    profileOf(db, workspace.id).get(),
    conversation.ticketId
      ? ticketsOf(db, workspace.id)
          .byId(conversation.ticketId)
          .catch(() => null)
      : null,
  ]);
  return {
    conversation: {
      id: conversation.id,
      title: conversation.title,
      customer: conversation.customer,
      startedAt: receivedAt(conversation.createdAt, timeZone),
      createdAt: conversation.createdAt,
    },
    ticket: ticket ? { id: ticket.id, number: ticket.number } : null,
    messages: conversation.messages.map((m) => ({
      id: m.id,
      role: m.role,
      parts: m.parts.flatMap((p): Shown[] => {
        if (p.type === "text") return [{ kind: "text", text: p.text }];
        if (p.type === "source-url") return [{ kind: "source", url: p.url, title: p.title ?? p.url }];
        if (p.type.startsWith("tool-")) return [{ kind: "tool", name: p.type.slice("tool-".length) }];
        return [];
      }),
    })),
  };
});

export default function AssistantConversation() {
  const { conversation, ticket, messages } = useLoaderData<typeof loader>();
  const who = conversation.customer ? conversation.customer.name || conversation.customer.email : "A visitor";
  return (
    <>
      <Link to="/inbox/assistant" className="back-link">
        ← Site assistant
      </Link>
      <h1>{conversation.title || "Conversation"}</h1>
      {/* Where it ended, above the transcript: on a phone the side panel comes only after all of it. */}
      {ticket ? (
        <p className="assistant-outcome">
          <span className="inbox-badge inbox-badge--open">Passed to the team</span> as{" "}
          <Link to={`/inbox/tickets/${ticket.id}`}>support request #{ticket.number}</Link>
        </p>
      ) : null}
      <div className="ticket-layout">
        <ol className="ticket-thread assistant-thread" aria-label="Conversation, oldest first">
          {messages.map((m) => (
            <li key={m.id} className={`ticket-message${m.role === "assistant" ? " ticket-message--operator" : ""}`}>
              <header>
                <strong>{m.role === "user" ? who : "Assistant"}</strong>
              </header>
              {m.parts
                .filter((p) => p.kind === "tool")
                .map((p, i) => (
                  <p key={`tool-${i}`} className="assistant-tool">
                    {TOOL_LABELS[(p as { name: string }).name] ?? (p as { name: string }).name}
                  </p>
                ))}
              {m.parts
                .filter((p) => p.kind === "text")
                .map((p, i) => (
                  <p key={`text-${i}`} className="message-body">
                    {(p as { text: string }).text}
                  </p>
                ))}
              {m.parts.some((p) => p.kind === "source") ? (
                <p className="assistant-sources">
                  Sources:{" "}
                  {m.parts
                    .filter((p): p is Extract<(typeof m.parts)[number], { kind: "source" }> => p.kind === "source")
                    .map((p, i) => (
                      <span key={p.url}>
                        {i > 0 ? ", " : ""}
                        <a href={p.url} target="_blank" rel="noreferrer">
                          {p.title}
                        </a>
                      </span>
                    ))}
                </p>
              ) : null}
            </li>
          ))}
        </ol>
        <aside className="ticket-side">
          <section className="panel">
            <dl>
              <dt>Asked by</dt>
              <dd>
                {conversation.customer ? (
                  <Link to={`/customers/${conversation.customer.id}`}>{who}</Link>
                ) : (
                  "A visitor who was not signed in (nothing about them is kept)"
                )}
              </dd>
              <dt>Started</dt>
              <dd>
                <time dateTime={conversation.createdAt}>{conversation.startedAt}</time>
              </dd>
              <dt>Support request</dt>
              <dd>
                {ticket ? (
                  <Link to={`/inbox/tickets/${ticket.id}`}>{`#${ticket.number}`}</Link>
                ) : (
                  "Not passed to the team"
                )}
              </dd>
            </dl>
          </section>
        </aside>
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <MissingRecord what="Conversation" back={{ to: "/inbox/assistant", label: "Back to the site assistant" }} />;
}
