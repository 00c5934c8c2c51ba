import type { LinksFunction } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useMatches,
  useRouteError,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { hydrates } from "~/ui/handle";
import { useNonce } from "~/ui/nonce";
import baseCss from "~/styles/base.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: baseCss }];

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const matches = useMatches();
  const interactive = hydrates(matches.map((m) => m.handle));
  // A public site shows its own favicon (its branding's, through its meta) or none: never Atrium's.
  const publicSite = matches.some((m) => m.id === "routes/$site");
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        {publicSite ? null : <link rel="icon" href="/favicon.svg" type="image/svg+xml" />}
      </head>
      <body>
        {children}
        {interactive ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const detail =
    isRouteErrorResponse(error) && typeof error.data === "object" && error.data && "message" in error.data
      ? String((error.data as { message: unknown }).message)
      : undefined;
  const title = status === 404 ? "Page not found" : status === 403 ? "Not allowed" : "Something went wrong";
  const text =
    status === 404
      ? "There is no page at this address. Check the link, or go back to the start."
      : status === 403
        ? (detail ?? "You do not have permission to do that.")
        : "We could not complete this request. It has been logged; please try again.";
  return (
    <main className="error-page">
      <title>{`${title} · Atrium`}</title>
      <p className="error-status">{status}</p>
      <h1>{title}</h1>
      <p>{text}</p>
      <p>
        <a href="/">Go to the start</a>
      </p>
    </main>
  );
}
