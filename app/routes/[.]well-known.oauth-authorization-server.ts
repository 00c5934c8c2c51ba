// GET /.well-known/oauth-authorization-server — authorization server metadata (RFC 8414).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { page } from "~/lib/routes.server";
import { issuerOf, metadataOf } from "~/modules/oauth/issuer.server";

export const loader = page(
  "integrator",
  ({ request, context }: LoaderFunctionArgs) =>
    Response.json(metadataOf(issuerOf(request, context)), {
      headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
    }),
  { unguarded: "public metadata every client reads before it has credentials (RFC 8414)" },
);
