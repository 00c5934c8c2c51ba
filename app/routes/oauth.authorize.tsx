// GET /oauth/authorize — the authorization endpoint (spec: OAuth 2.0): validates the request, signs the user in
// (returning here), and asks for consent once per app and scope set. POST: the user's Approve or Deny.
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import type { AppLoadContext } from "@remix-run/node";
import { readBodyBytes } from "~/lib/http.server";
import {
  AuthorizePageError,
  AuthorizeRedirectError,
  approve,
  consentTicket,
  redirectWith,
  rememberedConsent,
  ticketMatches,
  validateAuthorizationRequest,
} from "~/modules/oauth/authorization.server";
import { issuerOf } from "~/modules/oauth/issuer.server";
import { SCOPES, type Scope } from "~/modules/oauth/scopes";
import { requireOperator } from "~/modules/access/operator.server";
import consoleCss from "~/styles/console.css?url";
import { page } from "~/lib/routes.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: consoleCss }];
export const meta: MetaFunction = () => [{ title: "Authorize an app · Atrium" }];
// The consent page cannot be framed (clickjacking): it hydrates, so its CSP says frame-ancestors 'none' (and
// helmet's X-Frame-Options SAMEORIGIN covers browsers without CSP).
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

async function throttle(context: AppLoadContext) {
  const wait = await context.services.oauthThrottle.authorize(context.request.ip);
  if (wait > 0) {
    throw new Response(`Too many authorization requests from your address. Try again in ${wait} seconds.`, {
      status: 429,
      headers: { "Retry-After": String(wait) },
    });
  }
}

/**
 * The request as the client sent it, or its errors: a page for unknown clients and URIs, else a redirect —
 * only once the user has signed in, so a crafted request cannot use us to bounce anonymous visitors to a
 * registered URI (RFC 9700 §4.11.2).
 */
async function validated(request: Request, context: AppLoadContext, params: URLSearchParams, issuer: string) {
  try {
    return await validateAuthorizationRequest(context.services.db, params);
  } catch (error) {
    if (error instanceof AuthorizePageError) throw data({ problem: error.message }, { status: 400 });
    if (error instanceof AuthorizeRedirectError) {
      await requireOperator(request, context);
      throw redirect(
        redirectWith(error.redirectUri, {
          error: error.error,
          error_description: error.description,
          state: error.state,
          iss: issuer,
        }),
      );
    }
    throw error;
  }
}

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  await throttle(context);
  const url = new URL(request.url);
  const issuer = await issuerOf(request, context);
  const authorization = await validated(request, context, url.searchParams, issuer);
  const session = await requireOperator(request, context);
  // Remembered consent skips the page, except for public clients: anyone can claim their client_id, so the
  // user confirms each time (RFC 6749 §10.2).
  if (
    authorization.client.client_type === "confidential" &&
    (await rememberedConsent(context.services.db, authorization.client.id, session.user.id, authorization.scopes))
  ) {
    throw redirect(await approve(context.services.db, authorization, session.user.id, issuer));
  }
  context.request.formActionSources = [new URL(authorization.redirectUri).origin];
  return {
    problem: null,
    app: authorization.client.name,
    redirectHost: new URL(authorization.redirectUri).host,
    scopes: authorization.scopes.map((s) => ({ scope: s, description: SCOPES[s as Scope] })),
    email: session.user.email,
    query: url.search,
    ticket: consentTicket(session.id, url.search),
  };
});

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  await throttle(context);
  const session = await requireOperator(request, context);
  let form: URLSearchParams;
  try {
    form = new URLSearchParams((await readBodyBytes(request, 65_536)).toString("utf8"));
  } catch {
    throw data({ problem: "The authorization request is too large." }, { status: 413 });
  }
  const issuer = await issuerOf(request, context);
  const query = form.get("query") ?? "";
  if (!ticketMatches(form.get("ticket") ?? "", session.id, query)) {
    throw data(
      {
        problem:
          "This consent page is out of date (another account signed in, or another request). Start again from the app.",
      },
      { status: 400 },
    );
  }
  const authorization = await validated(request, context, new URLSearchParams(query), issuer);
  if (form.get("decision") === "approve") {
    throw redirect(await approve(context.services.db, authorization, session.user.id, issuer));
  }
  throw redirect(
    redirectWith(authorization.redirectUri, {
      error: "access_denied",
      error_description: "The user denied the request",
      state: authorization.state,
      iss: issuer,
    }),
  );
});

export function ErrorBoundary() {
  const error = useRouteError();
  const problem = isRouteErrorResponse(error) ? ((error.data as { problem?: string } | string | null) ?? null) : null;
  const text = typeof problem === "string" ? problem : problem?.problem;
  return (
    <main className="auth">
      <h1>This authorization request cannot be completed</h1>
      {text ? <p className="field-error">{text}</p> : null}
      <p>The app sent a request Atrium cannot answer. Go back to the app and try again, or contact its maker.</p>
    </main>
  );
}

export default function Authorize() {
  const consent = useLoaderData<typeof loader>();
  return (
    <main className="auth consent">
      <h1>{`Allow ${consent.app} to use your Atrium account?`}</h1>
      <p>{`Signed in as ${consent.email}. ${consent.app} will be able to:`}</p>
      <ul>
        {consent.scopes.map((s) => (
          <li key={s.scope}>
            {s.description}
            <span className="hint">{` (${s.scope})`}</span>
          </li>
        ))}
      </ul>
      <p className="hint">{`You will be sent back to ${consent.redirectHost}. You can revoke access at any time under Settings → Connected apps.`}</p>
      <Form method="post" replace>
        <input type="hidden" name="query" value={consent.query} />
        <input type="hidden" name="ticket" value={consent.ticket} />
        <div className="key-actions">
          <button type="submit" name="decision" value="approve">
            Approve
          </button>
          <button type="submit" name="decision" value="deny" className="secondary">
            Deny
          </button>
        </div>
      </Form>
    </main>
  );
}
