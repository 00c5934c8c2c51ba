// POST /oauth/revoke — token revocation (RFC 7009).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { page } from "~/lib/routes.server";
import { oauthMethodNotAllowed, revocationEndpoint } from "~/modules/oauth/tokens.server";

const CLIENT_AUTH = { unguarded: "the OAuth client authenticates itself here (RFC 6749 §2.3)" };

export const loader = page(
  "integrator",
  ({ request }: LoaderFunctionArgs) => oauthMethodNotAllowed({ request }),
  CLIENT_AUTH,
);
export const action = page(
  "integrator",
  ({ request, context }: ActionFunctionArgs) =>
    request.method === "POST" ? revocationEndpoint(request, context) : oauthMethodNotAllowed({ request }),
  CLIENT_AUTH,
);
