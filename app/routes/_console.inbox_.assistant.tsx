// /inbox/assistant — the site assistant (ADR 037): switch it on, set its greeting, and read what visitors and
// customers asked it, newest first. Editors change the settings; every member reads the conversations.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { now } from "~/lib/clock.server";
import { type FormResult, runForm } from "~/lib/forms.server";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { inboxConversationsOf } from "~/modules/chat/conversations.server";
import { DEFAULT_GREETING, GREETING_MAX } from "~/modules/chat/api";
import { assistantSettingsOf } from "~/modules/chat/settings.server";
import { profileOf } from "~/modules/sites/profile.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { receivedAt, receivedShort } from "~/console/inbox-format";
import { DescribedField, FormMessage } from "~/ui/form";
import { Pager } from "~/ui/pager";
import consoleContactCss from "~/styles/console-contact.css?url";

export const meta: MetaFunction = () => [{ title: "Site assistant · Inbox · Atrium" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: consoleContactCss }];

const PAGE_SIZE = 25;

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  const { db } = context.services;
  const conversations = inboxConversationsOf(db, workspace.id);
  const { page, ...window } = pageOf(request, PAGE_SIZE);
  const [settings, list, total, profile] = await Promise.all([
    assistantSettingsOf(db, workspace.id).get(),
    conversations.list(window),
    conversations.count(),
    profileOf(db, workspace.id).get(),
  ]);
  return {
    workspace: { name: workspace.name, slug: workspace.slug },
    canEdit: roleAtLeast(role, "editor"),
    settings,
    total,
    page,
    pages: pageCount(total, PAGE_SIZE),
    items: list.map((c) => ({
      ...c,
      receivedAt: receivedAt(c.updatedAt, profile.timeZone),
      receivedShort: receivedShort(c.updatedAt, now(), profile.timeZone),
    })),
  };
});

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { session, workspace } = await requireWorkspace(request, context, "editor");
  return runForm(request, context, async (values): Promise<FormResult> => {
    const saved = await assistantSettingsOf(context.services.db, workspace.id).save(session.user.id, {
      enabled: values.enabled === "on",
      greeting: values.greeting ?? "",
    });
    return {
      ok: true,
      message: saved.enabled
        ? "The assistant is on: visitors see it at the bottom of every page of your site."
        : "The assistant is off: your site no longer shows it.",
    };
  });
});

export default function SiteAssistant() {
  const { workspace, canEdit, settings, total, page, pages, items } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  return (
    <>
      <Link to="/inbox" className="back-link">
        ← Inbox
      </Link>
      <h1>Site assistant</h1>
      <p className="page-intro">
        A chat on {workspace.name}'s site that answers visitors from your published pages, products, services, opening
        hours and policies — quoting the page each answer comes from — and tells signed-in customers about their own
        orders and bookings. When it cannot help, a visitor can pass the conversation to you here, as a support request.
      </p>
      <Form method="post" className="panel assistant-settings">
        <h2>Settings</h2>
        <FormMessage message={result?.ok ? result.message : undefined} tone="success" />
        <FormMessage message={result?.ok === false ? result.message : undefined} />
        <div className="check-field">
          <input
            id="field-enabled"
            type="checkbox"
            name="enabled"
            defaultChecked={settings.enabled}
            disabled={!canEdit}
            aria-describedby="field-enabled-hint"
          />
          <div>
            <label htmlFor="field-enabled">Show the assistant on my site</label>
            <p className="hint" id="field-enabled-hint">
              A “Questions? Ask us” button in the bottom corner of every page (a chat icon on phones). Without
              JavaScript it links to your contact page.
            </p>
          </div>
        </div>
        <DescribedField
          id="field-greeting"
          label="Greeting"
          error={result?.ok === false ? result.fieldErrors?.greeting : undefined}
          hint={`The first thing a visitor reads when they open it (at most ${GREETING_MAX} characters).`}
        >
          {(describedBy) => (
            <textarea
              id="field-greeting"
              name="greeting"
              rows={3}
              maxLength={GREETING_MAX}
              defaultValue={settings.greeting}
              placeholder={DEFAULT_GREETING}
              disabled={!canEdit}
              aria-describedby={describedBy}
              aria-invalid={result?.ok === false && result.fieldErrors?.greeting ? true : undefined}
            />
          )}
        </DescribedField>
        <div className="form-actions">
          {canEdit ? <button type="submit">Save</button> : <p className="hint">Editors and admins change these.</p>}
          {settings.enabled ? (
            <a href={`/${workspace.slug}`} target="_blank" rel="noreferrer">
              Try it on your site ↗
            </a>
          ) : null}
        </div>
      </Form>

      <h2 className="assistant-heading">Conversations</h2>
      {items.length === 0 ? (
        <div className="empty">
          <p>
            <strong>No conversations yet.</strong>{" "}
            {settings.enabled
              ? "When a visitor asks the assistant something, the conversation appears here."
              : "Switch the assistant on above, then ask it something on your site to see what your visitors will see."}
          </p>
        </div>
      ) : (
        <>
          <p className="inbox-summary">
            {total.toLocaleString("en")} conversation{total === 1 ? "" : "s"}, newest first
          </p>
          <ul className="inbox-list" aria-label="Conversations with the site assistant, newest first">
            {items.map((c) => (
              <li key={c.id}>
                <Link to={`/inbox/assistant/${c.id}`}>
                  <span className="inbox-dot" aria-hidden="true" />
                  <span className="inbox-from">{c.customer ? c.customer.name || c.customer.email : "Visitor"}</span>
                  <span className="inbox-excerpt">
                    {c.ticketId ? <span className="inbox-badge inbox-badge--open">Passed to the team</span> : null}{" "}
                    {c.title || "(no question yet)"}{" "}
                    <span className="inbox-email">
                      — {c.messageCount} message{c.messageCount === 1 ? "" : "s"}
                    </span>
                  </span>
                  <time className="inbox-date" dateTime={c.updatedAt} title={c.receivedAt}>
                    {c.receivedShort}
                  </time>
                </Link>
              </li>
            ))}
          </ul>
          <Pager page={page} pages={pages} label="Conversation pages" query={{}} />
        </>
      )}
    </>
  );
}
