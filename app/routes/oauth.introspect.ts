// POST /oauth/introspect — token introspection (RFC 7662), for the client a token was issued to.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { page } from "~/lib/routes.server";
import { issuerOf } from "~/modules/oauth/issuer.server";
import { introspectionEndpoint, oauthMethodNotAllowed } from "~/modules/oauth/tokens.server";

const CLIENT_AUTH = { unguarded: "the OAuth client authenticates itself here (RFC 6749 §2.3)" };

export const loader = page(
  "integrator",
  ({ request }: LoaderFunctionArgs) => oauthMethodNotAllowed({ request }),
  CLIENT_AUTH,
);
export const action = page(
  "integrator",
  ({ request, context }: ActionFunctionArgs) =>
    request.method === "POST"
      ? introspectionEndpoint(request, context, issuerOf(request, context))
      : oauthMethodNotAllowed({ request }),
  CLIENT_AUTH,
);
