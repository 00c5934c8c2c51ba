/**
 * The issuer (`{auth_url}`): AUTH_URL when the provider has its own host name, else the deployment's public
 * origin (PUBLIC_URL). Never the request's host, which the client chooses (issue 12, item 3); only in development,
 * with neither set, the loopback origin the request used (app/modules/hosts).
 */
import type { AppLoadContext } from "@remix-run/node";
import { resolveOrigin, type ResolvedOrigin } from "~/modules/hosts/hosts.server";

export async function resolveIssuer(request: Request, context: AppLoadContext): Promise<ResolvedOrigin> {
  const { AUTH_URL, PUBLIC_URL } = context.services.env;
  const configured = AUTH_URL?.replace(/\/+$/, "") ?? PUBLIC_URL;
  return configured ? { origin: configured, fromRequest: false } : resolveOrigin(request, context);
}

export async function issuerOf(request: Request, context: AppLoadContext): Promise<string> {
  return (await resolveIssuer(request, context)).origin;
}

/** RFC 8414 metadata; `issuer` is byte-for-byte what clients compare with. */
export function metadataOf(issuer: string) {
  const methods = ["client_secret_basic", "client_secret_post", "none"];
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    introspection_endpoint: `${issuer}/oauth/introspect`,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: methods,
    revocation_endpoint_auth_methods_supported: methods,
    introspection_endpoint_auth_methods_supported: methods,
    scopes_supported: ["read_profile", "read_data"],
    authorization_response_iss_parameter_supported: true,
  };
}
