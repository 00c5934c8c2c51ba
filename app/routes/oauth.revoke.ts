// POST /oauth/revoke — token revocation (RFC 7009).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { oauthMethodNotAllowed, revocationEndpoint } from "~/modules/oauth/tokens.server";

export const loader = ({ request }: LoaderFunctionArgs) => oauthMethodNotAllowed({ request });
export const action = ({ request, context }: ActionFunctionArgs) =>
  request.method === "POST" ? revocationEndpoint(request, context) : oauthMethodNotAllowed({ request });
