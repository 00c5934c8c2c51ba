// POST /oauth/introspect — token introspection (RFC 7662), for the client a token was issued to.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { issuerOf } from "~/modules/oauth/issuer.server";
import { introspectionEndpoint, oauthMethodNotAllowed } from "~/modules/oauth/tokens.server";

export const loader = ({ request }: LoaderFunctionArgs) => oauthMethodNotAllowed({ request });
export const action = ({ request, context }: ActionFunctionArgs) =>
  request.method === "POST"
    ? introspectionEndpoint(request, context, issuerOf(request, context))
    : oauthMethodNotAllowed({ request });
