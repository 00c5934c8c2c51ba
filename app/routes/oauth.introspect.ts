// POST /oauth/introspect — token introspection (RFC 7662), for the client a token was issued to.
import { issuerOf } from "~/modules/oauth/issuer.server";
import { clientAuthenticatedRoute, introspectionEndpoint } from "~/modules/oauth/tokens.server";

const endpoint = clientAuthenticatedRoute(async (request, context) =>
  introspectionEndpoint(request, context, await issuerOf(request, context)),
);
export const loader = endpoint.loader;
export const action = endpoint.action;
