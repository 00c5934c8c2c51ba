// /{site}/* — any path of a site that no page serves: a 404 shown inside the site's own frame (the `$site`
// layout's error boundary), so a mistyped link still looks like the business's site and leads home. It also
// gives the layout's loader a route to run in at every depth, so a site's former address redirects from
// anywhere (`/{old}/a/b` → 301 `/{new}/a/b`, ADR 019), not only where a page route happens to match. A
// redirect the operator set up from the path (Discovery, ADR 021) answers before the 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { page } from "~/lib/routes.server";
import { redirectOrNotFound } from "~/modules/sites/public-page.server";

export const loader = page("public", ({ request, context, params }: LoaderFunctionArgs) =>
  redirectOrNotFound(request, context, params.site),
);

export default function NoSuchPage() {
  return null;
}
