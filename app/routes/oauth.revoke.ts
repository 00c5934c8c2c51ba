// POST /oauth/revoke — token revocation (RFC 7009).
import type { ActionFunctionArgs } from "@remix-run/node";
import { oauthMethodNotAllowed, revocationEndpoint } from "~/modules/oauth/tokens.server";

export const loader = oauthMethodNotAllowed;
export const action = ({ request, context }: ActionFunctionArgs) =>
  request.method === "POST" ? revocationEndpoint(request, context) : oauthMethodNotAllowed();
