// /{site}/unlock — a protected site's password form (ADR 023), in the site's frame (its brand, none of its
// content). GET shows the form; POST checks the password, throttled per client address and site, and on
// success sets the site's unlock cookie and sends the visitor on (303) to the page they asked for (`next`,
// a path of this site only). A public site, or a visitor who already unlocked it, is sent on at once.
import type {
  ActionFunctionArgs,
  HeadersFunction,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useId } from "react";
import { type FormResult, runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { siteOfPath } from "~/modules/access/site.server";
import { SITE_PASSWORD_MAX } from "~/modules/site-access/password-limits";
import { safeNext, siteGate, unlockSite } from "~/modules/site-access/gate.server";
import { SITE_LAYOUT_ID, type SiteChrome, withSiteChrome } from "~/site/chrome";
import type { RouteHandle } from "~/ui/handle";
import unlockCss from "~/styles/site-unlock.css?url";

export const handle: RouteHandle = { hydrate: false };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: unlockCss }];

const WRONG_PASSWORD = "That password is not right. Check it and try again.";

/** Sent on without a form: the site is public, or this visitor already holds its unlock cookie. */
const onward = (to: string) => redirect(to, { status: 302, headers: { "Cache-Control": "no-store" } });

export const loader = page("public", async ({ request, params, context }: LoaderFunctionArgs) => {
  context.request.log.callerType = "public";
  const workspace = (await siteOfPath(context.services.db, params.site)).workspace;
  const next = safeNext(context, workspace.slug, new URL(request.url).searchParams.get("next"));
  const gate = await siteGate(context, request, workspace);
  if (gate.state !== "locked") throw onward(next);
  return { next };
});

export const action = page("public", async ({ request, params, context }: ActionFunctionArgs) => {
  context.request.log.callerType = "public";
  const workspace = (await siteOfPath(context.services.db, params.site)).workspace;
  return runForm(
    request,
    context,
    async (values) => {
      const next = safeNext(context, workspace.slug, values.next);
      if ((await siteGate(context, request, workspace)).state === "public") return onward(next);
      const result = await unlockSite(context, request, workspace, values.password ?? "");
      if (result.ok) {
        return redirect(next, {
          status: 303,
          headers: { "Set-Cookie": result.setCookie, "Cache-Control": "no-store" },
        });
      }
      context.request.log.failure = "authorization";
      // 403: the credentials were understood and are not enough (RFC 9110 §15.5.4). Not 401, which promises an
      // HTTP authentication challenge (WWW-Authenticate) this form is not.
      return data<FormResult>(
        { ok: false, message: WRONG_PASSWORD, fieldErrors: { password: WRONG_PASSWORD } },
        { status: 403, headers: { "Cache-Control": "no-store" } },
      );
    },
    (values) => ({ next: safeNext(context, workspace.slug, values.next) }),
  );
});

// Never cached: the page depends on the visitor's cookie; a refusal keeps its Retry-After.
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return { "Cache-Control": "no-store", ...(retryAfter ? { "Retry-After": retryAfter } : {}) };
};

const ownMeta: MetaFunction<typeof loader> = ({ matches }) => {
  const chrome = matches.find((m) => m.id === SITE_LAYOUT_ID)?.data as SiteChrome | undefined;
  return [
    { title: chrome ? `Password required · ${chrome.name}` : "Password required" },
    { name: "robots", content: "noindex, nofollow" },
  ];
};

export const meta = withSiteChrome(ownMeta);

export default function UnlockSite() {
  const { next } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult & { next?: string }>();
  const chrome = useRouteLoaderData<SiteChrome>(SITE_LAYOUT_ID);
  const id = useId();
  const error = result?.fieldErrors?.password;
  // A refusal that is not about the password itself: too many attempts (429), an unreadable form.
  const notice = result && !result.ok && !error ? result.message : undefined;
  const errorId = `${id}-error`;
  return (
    <section className="site-section site-unlock">
      <div className="site-container">
        <div className="site-unlock__card">
          <svg className="site-unlock__icon" viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">
            <path
              d="M7 10V7a5 5 0 0 1 10 0v3h1a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2h1Zm2 0h6V7a3 3 0 0 0-6 0v3Z"
              fill="currentColor"
            />
          </svg>
          <h1 className="site-unlock__title">This site is private</h1>
          <p className="site-unlock__lead">
            {chrome?.name ?? "This business"} has protected its website with a password. Enter the password you were
            given to continue.
          </p>
          {notice ? (
            <p className="site-unlock__notice" role="alert">
              {notice}
            </p>
          ) : null}
          <form method="post" className="site-unlock__form">
            <input type="hidden" name="next" value={result?.next ?? next} />
            <div className="site-field">
              <label className="site-label" htmlFor={`${id}-password`}>
                Password
              </label>
              <input
                id={`${id}-password`}
                name="password"
                type="password"
                className="site-input"
                autoComplete="current-password"
                required
                maxLength={SITE_PASSWORD_MAX}
                // The page's one task, with nothing above it to read first.
                autoFocus
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? errorId : undefined}
              />
              {error ? (
                <p className="site-error" id={errorId} role="alert">
                  {error}
                </p>
              ) : null}
            </div>
            <button type="submit" className="site-button site-unlock__submit">
              Continue
            </button>
          </form>
          <p className="site-unlock__help">Don&apos;t have the password? Ask the business that shared this link.</p>
        </div>
      </div>
    </section>
  );
}
