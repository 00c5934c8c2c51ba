// POST /oauth/token — authorization_code and refresh_token grants (spec: OAuth 2.0; RFC 6749 §3.2).
import type { ActionFunctionArgs } from "@remix-run/node";
import { oauthMethodNotAllowed, tokenEndpoint } from "~/modules/oauth/tokens.server";

export const loader = oauthMethodNotAllowed;
export const action = ({ request, context }: ActionFunctionArgs) =>
  request.method === "POST" ? tokenEndpoint(request, context) : oauthMethodNotAllowed();
