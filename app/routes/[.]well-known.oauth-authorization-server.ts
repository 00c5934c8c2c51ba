// GET /.well-known/oauth-authorization-server — authorization server metadata (RFC 8414).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { page } from "~/lib/routes.server";
import { cacheControlFor } from "~/modules/hosts/hosts.server";
import { metadataOf, resolveIssuer } from "~/modules/oauth/issuer.server";

export const loader = page(
  "integrator",
  async ({ request, context }: LoaderFunctionArgs) => {
    const issuer = await resolveIssuer(request, context);
    return Response.json(metadataOf(issuer.origin), {
      headers: { "Cache-Control": cacheControlFor(issuer, "public, max-age=300"), "Access-Control-Allow-Origin": "*" },
    });
  },
  { unguarded: "public metadata every client reads before it has credentials (RFC 8414)" },
);
