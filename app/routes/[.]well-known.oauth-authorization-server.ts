// GET /.well-known/oauth-authorization-server — authorization server metadata (RFC 8414).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { issuerOf, metadataOf } from "~/modules/oauth/issuer.server";

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  Response.json(metadataOf(issuerOf(request, context)), {
    headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
  });
