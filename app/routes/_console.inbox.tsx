// /inbox — messages visitors sent through the site's contact form, newest first, unread marked; each opens
// at /inbox/{id}. Every member reads the inbox.
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { contactMessagesOf } from "~/modules/contacts/messages.server";
import { excerpt, receivedAt, receivedShort } from "~/console/inbox-format";
import { profileOf } from "~/modules/sites/profile.server";
import { now } from "~/lib/clock.server";
import { Pager } from "~/ui/pager";
import consoleContactCss from "~/styles/console-contact.css?url";

export const meta: MetaFunction = () => [{ title: "Inbox · Atrium" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: consoleContactCss }];

const PAGE_SIZE = 25;

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context, "viewer");
  const messages = contactMessagesOf(context.services.db, workspace.id);
  const { page, ...window } = pageOf(request, PAGE_SIZE);
  const [list, counts, profile] = await Promise.all([
    messages.list(window),
    messages.count(),
    profileOf(context.services.db, workspace.id).get(),
  ]);
  return {
    workspace: { name: workspace.name, slug: workspace.slug },
    counts,
    page,
    pages: pageCount(counts.total, PAGE_SIZE),
    messages: list.map((m) => ({
      id: m.id,
      name: m.name,
      email: m.email,
      excerpt: excerpt(m.message),
      unread: !m.readAt,
      receivedAt: receivedAt(m.createdAt, profile.timeZone),
      receivedShort: receivedShort(m.createdAt, now(), profile.timeZone),
      createdAt: m.createdAt,
    })),
  };
});

export default function Inbox() {
  const { workspace, counts, page, pages, messages } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Inbox</h1>
      <p className="page-intro">
        {counts.total === 0
          ? `Messages visitors send through the contact form of ${workspace.name}'s site.`
          : `${counts.total.toLocaleString("en")} message${counts.total === 1 ? "" : "s"}, ${counts.unread.toLocaleString("en")} unread. Visitors write through the contact form of ${workspace.name}'s site.`}
      </p>
      {messages.length === 0 ? (
        <div className="empty">
          <p>
            <strong>No messages yet.</strong> When someone writes to you through your site's contact page, their message
            appears here.
          </p>
          <p>
            Share your contact page — <a href={`/${workspace.slug}/contact`}>/{workspace.slug}/contact</a> — or add a
            contact form to one of your pages.
          </p>
        </div>
      ) : (
        <>
          <ul className="inbox-list" aria-label="Messages, newest first">
            {messages.map((m) => (
              <li key={m.id} className={m.unread ? "inbox-unread" : undefined}>
                <Link to={`/inbox/${m.id}`}>
                  <span className="inbox-dot" aria-hidden="true" />
                  <span className="inbox-from">
                    {m.unread ? <span className="visually-hidden">Unread: </span> : null}
                    {m.name}
                  </span>
                  <span className="inbox-excerpt">
                    {m.excerpt} <span className="inbox-email">— {m.email}</span>
                  </span>
                  <time className="inbox-date" dateTime={m.createdAt} title={m.receivedAt}>
                    {m.receivedShort}
                  </time>
                </Link>
              </li>
            ))}
          </ul>
          <Pager page={page} pages={pages} label="Inbox pages" />
        </>
      )}
    </>
  );
}
