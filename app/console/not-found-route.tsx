/**
 * The console's own 404 (ADR 015): the route of every path under a console segment (`CONSOLE_SEGMENTS`) that no
 * page answers — a page the spec names but no issue has built yet (`/shop`, `/inbox`), or a typo under a built
 * one (`/settings/nope`). Registered once per segment in vite.config.ts as `<segment>/*` inside the console
 * layout, so it outranks the public `$site` route and renders inside the shell; a signed-out visitor is sent to
 * sign in like on any console page. It lives outside app/routes because the file convention would make a
 * splat there catch every path, public sites' included.
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { notFound } from "~/lib/errors";
import { page } from "~/lib/routes.server";
import { requireOperator } from "~/modules/access/operator.server";

export const meta: MetaFunction = () => [{ title: "Page not found · Atrium" }];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  await requireOperator(request, context);
  throw notFound("There is no console page at this address.");
});

export default function ConsoleNotFound() {
  return null;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const missing = isRouteErrorResponse(error) && error.status === 404;
  const title = missing ? "Page not found" : "Something went wrong";
  return (
    <section className="console-error">
      <title>{`${title} · Atrium`}</title>
      <p className="error-status">{missing ? 404 : isRouteErrorResponse(error) ? error.status : 500}</p>
      <h1>{title}</h1>
      <p>
        {missing
          ? "This console page does not exist, or is not part of Atrium yet. Check the address, or pick a page from the menu."
          : "We could not complete this request. It has been logged; please try again."}
      </p>
      <p>
        <a href="/">Go to your workspaces</a>
      </p>
    </section>
  );
}
