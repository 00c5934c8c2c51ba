import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Form, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { operatorWorkspaces, requireOperator } from "~/modules/access/operator.server";
import consoleCss from "~/styles/console.css?url";
import { page } from "~/lib/routes.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: consoleCss }];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const session = await requireOperator(request, context);
  const workspaces = await operatorWorkspaces(context, session);
  const selected = workspaces.find((w) => w.id === session.selectedWorkspaceId) ?? null;
  return {
    email: session.user.email,
    selected: selected && { name: selected.name, slug: selected.slug },
  };
});

export default function ConsoleLayout() {
  const { email, selected } = useLoaderData<typeof loader>();
  return (
    <>
      <header className="console-header">
        <a className="brand" href="/">
          Atrium
        </a>
        <nav aria-label="Console">
          <NavLink to="/" end>
            Workspaces
          </NavLink>
          <NavLink to="/settings/api-keys">API keys</NavLink>
          <NavLink to="/settings/integrations/oauth-apps">OAuth apps</NavLink>
          <NavLink to="/settings/integrations/connected-apps">Connected apps</NavLink>
          {selected ? (
            <>
              <NavLink to="/get-started">Get started</NavLink>
              <NavLink to="/settings" end>
                Settings
              </NavLink>
              <NavLink to="/settings/sops">SOPs</NavLink>
              <NavLink to="/settings/outbox">Outbox</NavLink>
              <a href={`/${selected.slug}`}>View site</a>
            </>
          ) : null}
        </nav>
        {selected ? <span className="current-workspace">{selected.name}</span> : null}
        <div className="account">
          <NavLink to="/settings/account">
            <span className="visually-hidden">Your account: </span>
            {email}
          </NavLink>
          <Form method="post" action="/logout">
            <button type="submit">Sign out</button>
          </Form>
        </div>
      </header>
      <main className="console-main">
        <Outlet />
      </main>
    </>
  );
}
