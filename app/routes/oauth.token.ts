// POST /oauth/token — authorization_code and refresh_token grants (spec: OAuth 2.0; RFC 6749 §3.2).
import { clientAuthenticatedRoute, tokenEndpoint } from "~/modules/oauth/tokens.server";

const endpoint = clientAuthenticatedRoute(tokenEndpoint);
export const loader = endpoint.loader;
export const action = endpoint.action;
