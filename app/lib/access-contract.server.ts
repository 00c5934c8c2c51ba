/**
 * The access contract (docs/decisions/005-access-contract.md): which caller each URL prefix accepts.
 * Order matters: the first matching prefix wins, so the more specific prefixes come first.
 */
import type { CallerType } from "~/lib/context";
import { CONSOLE_SEGMENTS } from "~/lib/console-pages";

interface ContractRow {
  prefix: RegExp;
  caller: CallerType;
  credential: string;
}

export const ACCESS_CONTRACT: readonly ContractRow[] = [
  {
    prefix: /^\/api\/(auth\/|chat\/v5(\/|$))/,
    caller: "integrator",
    credential: "bearer API key or OAuth access token",
  },
  { prefix: /^\/api\/sops\/[^/]+\/trigger$/, caller: "trigger", credential: "HMAC signature" },
  { prefix: /^\/api\/sops\//, caller: "operator", credential: "bearer, or operator session + Origin check" },
  {
    prefix: /^\/api\/(editor|admin)\/|^\/api\/domains\/verify$/,
    caller: "operator",
    credential: "operator session + Origin check, selected workspace, membership, role",
  },
  { prefix: /^\/api\/internal\//, caller: "internal", credential: "INTERNAL_SERVICE_SECRET + workspace id" },
  { prefix: /^\/api\/cron\//, caller: "scheduler", credential: "CRON_SECRET" },
  { prefix: /^\/api\/webhooks\//, caller: "provider", credential: "signature or shared secret of the sender" },
  {
    prefix: /^\/api\/v1\//,
    caller: "customer",
    credential: "site by host/header/query; customer session or manage token",
  },
  {
    prefix: /^\/(auth|portal)\/callback$/,
    caller: "customer",
    credential: "the e-mailed link's token (sign-in challenge or manage token), for its own site",
  },
  {
    // Under a site's slug: never a console section, the API or the OAuth provider.
    prefix: new RegExp(
      `^/(?!(?:${[...CONSOLE_SEGMENTS, "api", "oauth", "auth", "portal"].join("|")})/)[^/]+/(?:login|logout|account|profile|tickets|saved|orders|billing)(?:/|$)`,
    ),
    caller: "customer",
    credential: "the site's customer session, or a manage token for one record; login: none",
  },
  // The person approving an app signs in as the operator they are; the app itself is the integrator.
  { prefix: /^\/oauth\/authorize$/, caller: "operator", credential: "operator session and consent" },
  {
    prefix: /^\/oauth\/|^\/\.well-known\/oauth-authorization-server$/,
    caller: "integrator",
    credential: "OAuth client authentication; authorize: operator session and consent",
  },
  { prefix: /^\/api\//, caller: "public", credential: "none (technical routes)" },
];

export function contractFor(pathname: string): { caller: CallerType; credential: string } {
  const row = ACCESS_CONTRACT.find((r) => r.prefix.test(pathname));
  if (row) return row;
  const first = pathname.split("/")[1] ?? "";
  if (first === "" || (CONSOLE_SEGMENTS as readonly string[]).includes(first)) {
    return { caller: "operator", credential: "operator session" };
  }
  return { caller: "public", credential: "site by host or path; publish state" };
}
