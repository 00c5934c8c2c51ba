// POST /oauth/token — authorization_code and refresh_token grants (spec: OAuth 2.0; RFC 6749 §3.2).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { oauthMethodNotAllowed, tokenEndpoint } from "~/modules/oauth/tokens.server";

export const loader = ({ request }: LoaderFunctionArgs) => oauthMethodNotAllowed({ request });
export const action = ({ request, context }: ActionFunctionArgs) =>
  request.method === "POST" ? tokenEndpoint(request, context) : oauthMethodNotAllowed({ request });
