import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Form, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { operatorWorkspaces, requireOperator } from "~/modules/access/operator.server";
import { ACCOUNT_NAV, visibleSections } from "~/lib/console-nav";
import { inboxOf } from "~/modules/customers/inbox.server";
import { InboxNotices } from "~/console/inbox-notices";
import consoleCss from "~/styles/console.css?url";
import { page } from "~/lib/routes.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: consoleCss }];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const session = await requireOperator(request, context);
  const workspaces = await operatorWorkspaces(context, session);
  const selected = workspaces.find((w) => w.id === session.selectedWorkspaceId) ?? null;
  return {
    email: session.user.email,
    workspaces: workspaces.map((w) => ({ id: w.id, name: w.name })),
    selected: selected && { id: selected.id, name: selected.name, slug: selected.slug, role: selected.role },
    // The sidebar's count on Inbox: what nobody in the workspace has opened yet (ADR 029).
    inboxUnread: selected ? (await inboxOf(context.services.db, selected.id).count({})).unread : 0,
  };
});

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

/**
 * The app shell (ADR 015): a sidebar on wide screens, the same content behind a "Menu" disclosure on narrow
 * ones. Both are rendered and CSS shows one, so the collapse needs no JavaScript (a `<details>` opens by
 * itself) and works in the desktop shell; the hidden copy is `display: none`, out of the accessibility tree.
 */
export default function ConsoleLayout() {
  const data = useLoaderData<typeof loader>();
  return (
    <div className="console-shell">
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className="console-topbar">
        <a className="brand" href="/">
          Atrium
        </a>
        {data.selected ? <span className="topbar-workspace">{data.selected.name}</span> : null}
        <details className="console-menu">
          <summary>Menu</summary>
          <div className="console-menu-panel">
            <ShellContent data={data} />
          </div>
        </details>
      </header>
      <aside className="console-sidebar">
        <a className="brand" href="/">
          Atrium
        </a>
        <ShellContent data={data} />
      </aside>
      <main id="main" className="console-main" tabIndex={-1}>
        <Outlet />
      </main>
      {data.selected ? <InboxNotices unread={data.inboxUnread} /> : null}
    </div>
  );
}

function ShellContent({ data }: { data: Data }) {
  const { email, workspaces, selected } = data;
  return (
    <>
      <nav aria-label="Console" className="console-nav">
        <WorkspaceSwitcher workspaces={workspaces} selected={selected} />
        {visibleSections(selected?.role ?? null).map((section, index) => (
          <div className="nav-section" key={section.label ?? index}>
            {section.label ? <p className="nav-heading">{section.label}</p> : null}
            <ul>
              {section.entries.map((entry) => (
                <li key={entry.to}>
                  <NavLink to={entry.to} end={entry.end}>
                    {entry.label}
                    {entry.to === "/inbox" && data.inboxUnread > 0 ? (
                      <span className="nav-badge">
                        {data.inboxUnread > 99 ? "99+" : data.inboxUnread}
                        <span className="visually-hidden"> unread</span>
                      </span>
                    ) : null}
                  </NavLink>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      <nav aria-label="Account" className="account-nav">
        <p className="account-email" title={email}>
          <span className="visually-hidden">Signed in as </span>
          {email}
        </p>
        <ul>
          {ACCOUNT_NAV.map((entry) => (
            <li key={entry.to}>
              <NavLink to={entry.to} end={entry.end}>
                {entry.label}
              </NavLink>
            </li>
          ))}
          <li>
            <Form method="post" action="/logout">
              <button type="submit" className="link-button">
                Sign out
              </button>
            </Form>
          </li>
        </ul>
      </nav>
    </>
  );
}

/**
 * The selected workspace, prominent, and the others to switch to. Each choice posts to the Workspaces page's
 * own "select" action (the one its "Open" buttons use), so switching works without JavaScript.
 */
function WorkspaceSwitcher({ workspaces, selected }: Pick<Data, "workspaces" | "selected">) {
  const others = workspaces.filter((w) => w.id !== selected?.id);
  return (
    <div className="switcher">
      {selected ? (
        <>
          <p className="switcher-label">Workspace</p>
          <p className="switcher-current">{selected.name}</p>
          <a className="switcher-site" href={`/${selected.slug}`}>
            View site
          </a>
        </>
      ) : (
        <>
          <p className="switcher-current none">No workspace selected</p>
          <a className="switcher-choose" href="/">
            Choose or create a workspace
          </a>
        </>
      )}
      {selected || others.length > 0 ? (
        <details className="switcher-list">
          <summary>Switch workspace</summary>
          <ul>
            {others.map((w) => (
              <li key={w.id}>
                <Form method="post" action="/?index">
                  <input type="hidden" name="intent" value="select" />
                  <input type="hidden" name="workspaceId" value={w.id} />
                  <button type="submit" className="link-button">
                    <span className="visually-hidden">Switch to </span>
                    {w.name}
                  </button>
                </Form>
              </li>
            ))}
            <li>
              <a href="/#new-workspace">New workspace</a>
            </li>
          </ul>
        </details>
      ) : null}
    </div>
  );
}
