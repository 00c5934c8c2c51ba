// POST /oauth/revoke — token revocation (RFC 7009).
import { clientAuthenticatedRoute, revocationEndpoint } from "~/modules/oauth/tokens.server";

const endpoint = clientAuthenticatedRoute(revocationEndpoint);
export const loader = endpoint.loader;
export const action = endpoint.action;
