// /{site}/* — any path of a site that no page serves: a 404 shown inside the site's own frame (the `$site`
// layout's error boundary), so a mistyped link still looks like the business's site and leads home.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { page } from "~/lib/routes.server";

export const loader = page("public", ({ context }: LoaderFunctionArgs) => {
  context.request.log.failure = "missing-data";
  throw new Response(null, { status: 404, statusText: "Not Found" });
});

export default function NoSuchPage() {
  return null;
}
