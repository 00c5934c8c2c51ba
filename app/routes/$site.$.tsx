// /{site}/anything/else — a path under a site that no page of it serves: the site's own "not found", inside its
// layout. Its loader also gives the layout's loader a route to run in for every path under a site, so a site's
// former address redirects from any depth (`/{old}/a/b` → 301 `/{new}/a/b`, ADR 019), not only where a page
// route happens to match.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useParams } from "@remix-run/react";
import { page } from "~/lib/routes.server";

export const loader = page("public", ({ context }: LoaderFunctionArgs) => {
  context.request.log.failure = "missing-data";
  throw new Response(null, { status: 404, statusText: "Not Found" });
});

export default function SitePathNotFound() {
  return null;
}

export function ErrorBoundary() {
  const { site } = useParams();
  return (
    <div className="site-container site-notfound">
      <title>Page not found</title>
      <h1>Page not found</h1>
      <p>There is no page at this address. It may have moved, or the link may have a typo.</p>
      <p>
        <Link className="site-button" to={`/${site ?? ""}`}>
          Go to the home page
        </Link>
      </p>
    </div>
  );
}
