// /{site}/login — a customer signs in on a business's site (ADR 029): an e-mailed six-digit code (or the link in
// the same e-mail, which lands on /auth/callback), or a password they chose. Asking for a code answers the same
// whether or not the address has an account. Never cached; a signed-in customer is sent on at once.
import type {
  ActionFunctionArgs,
  HeadersFunction,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { runForm, type FormResult } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { siteOfPath } from "~/modules/access/site.server";
import { afterSignIn, finishSignIn, mailOrigin, PRIVATE } from "~/modules/customers/portal.server";
import { readCustomerSession } from "~/modules/customers/sessions.server";
import { customerAuthenticator, requestSignInCode } from "~/modules/customers/sign-in.server";
import { CHALLENGE_MINUTES } from "~/modules/customers/limits";
import { SITE_LAYOUT_ID, type SiteChrome, withSiteChrome } from "~/site/chrome";
import { AuthCard, Field, FormNotice } from "~/site/portal";
import type { RouteHandle } from "~/ui/handle";
import portalCss from "~/styles/site-portal.css?url";

export const handle: RouteHandle = { hydrate: false };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalCss }];

const declared = { unguarded: "where a customer obtains a session" };

export const loader = page(
  "customer",
  async ({ request, params, context }: LoaderFunctionArgs) => {
    const site = (await siteOfPath(context.services.db, params.site)).workspace;
    const url = new URL(request.url);
    const next = url.searchParams.get("next");
    if (await readCustomerSession(context, request, site)) {
      throw redirect(afterSignIn(context, site.slug, next), { status: 302, headers: PRIVATE });
    }
    return { next: next ?? "", email: url.searchParams.get("email") ?? "" };
  },
  declared,
);

type Answer = FormResult & { step?: "code"; challengeId?: string; email?: string; next?: string };

export const action = page(
  "customer",
  async ({ request, params, context }: ActionFunctionArgs) => {
    const site = (await siteOfPath(context.services.db, params.site)).workspace;
    return runForm(
      request,
      context,
      async (values): Promise<Answer | Response> => {
        const authenticator = customerAuthenticator(context, site);
        const asRequest = () => new Request(request.url, { method: "POST", body: new URLSearchParams(values) });
        if (values.intent === "send") {
          const sent = await requestSignInCode(
            context,
            site,
            { email: values.email ?? "", next: values.next },
            { origin: await mailOrigin(request, context) },
          );
          return { ok: true, step: "code", challengeId: sent.challengeId, email: sent.email, next: values.next };
        }
        if (values.intent === "code") {
          const customer = await authenticator.authenticate("email-challenge", asRequest());
          return finishSignIn(context, request, site, customer, values.next);
        }
        if (values.intent === "password") {
          const customer = await authenticator.authenticate("password", asRequest());
          return finishSignIn(context, request, site, customer, values.next);
        }
        return { ok: false, message: "Choose how to sign in" };
      },
      // A refused code keeps the visitor on the code step, with the same challenge.
      (values) =>
        values.intent === "code"
          ? { step: "code", challengeId: values.challenge, email: values.email, next: values.next }
          : { next: values.next, email: values.email },
    );
  },
  declared,
);

export const headers: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return { ...PRIVATE, ...(retryAfter ? { "Retry-After": retryAfter } : {}) };
};

const ownMeta: MetaFunction<typeof loader> = ({ matches }) => {
  const chrome = matches.find((m) => m.id === SITE_LAYOUT_ID)?.data as SiteChrome | undefined;
  return [{ title: chrome ? `Sign in · ${chrome.name}` : "Sign in" }, { name: "robots", content: "noindex, nofollow" }];
};
export const meta = withSiteChrome(ownMeta);

export default function SignIn() {
  const loaded = useLoaderData<typeof loader>();
  const answer = useActionData<Answer>();
  const next = answer?.next ?? loaded.next;
  if (answer?.step === "code") return <CodeStep answer={answer} next={next} />;
  const fieldErrors = answer?.fieldErrors ?? {};
  return (
    <AuthCard
      title="Sign in"
      lead="Enter your e-mail address and we will send you a code to sign in. No password needed."
    >
      <FormNotice result={answer} />
      <form method="post" className="portal-form">
        <input type="hidden" name="next" value={next} />
        <Field label="E-mail address" name="email" error={fieldErrors.email}>
          {(props) => (
            <input
              {...props}
              type="email"
              autoComplete="email"
              required
              maxLength={254}
              defaultValue={answer?.email ?? loaded.email}
            />
          )}
        </Field>
        <button type="submit" name="intent" value="send" className="site-button portal-form__submit">
          E-mail me a code
        </button>
      </form>
      <details className="portal-alt">
        <summary>Sign in with a password instead</summary>
        <form method="post" className="portal-form">
          <input type="hidden" name="next" value={next} />
          <Field label="E-mail address" name="email" error={fieldErrors.email}>
            {(props) => <input {...props} type="email" autoComplete="username" required maxLength={254} />}
          </Field>
          <Field label="Password" name="password" error={fieldErrors.password}>
            {(props) => <input {...props} type="password" autoComplete="current-password" required />}
          </Field>
          <button
            type="submit"
            name="intent"
            value="password"
            className="site-button site-button--secondary portal-form__submit"
          >
            Sign in
          </button>
          <p className="portal-card__fine">You can set a password in your profile once you are signed in.</p>
        </form>
      </details>
    </AuthCard>
  );
}

function CodeStep({ answer, next }: { answer: Answer; next: string }) {
  const refused = answer.ok ? undefined : answer.message;
  return (
    <AuthCard
      title="Check your e-mail"
      lead={
        <>
          We sent a six-digit code to <strong>{answer.email}</strong>. Enter it below, or open the link in the same
          e-mail. Both work for {CHALLENGE_MINUTES} minutes.
        </>
      }
    >
      <form method="post" className="portal-form">
        <input type="hidden" name="challenge" value={answer.challengeId ?? ""} />
        <input type="hidden" name="email" value={answer.email ?? ""} />
        <input type="hidden" name="next" value={next} />
        <Field label="Code" name="code" error={refused}>
          {(props) => (
            <input
              {...props}
              className="site-input portal-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9 ]{6,7}"
              maxLength={7}
              required
              autoFocus
            />
          )}
        </Field>
        <button type="submit" name="intent" value="code" className="site-button portal-form__submit">
          Sign in
        </button>
      </form>
      <form method="post" className="portal-resend">
        <input type="hidden" name="email" value={answer.email ?? ""} />
        <input type="hidden" name="next" value={next} />
        <p className="portal-card__fine">
          No e-mail? Check your spam folder, or{" "}
          <button type="submit" name="intent" value="send" className="portal__link-button">
            send a new code
          </button>
          . <a href={next ? `?${new URLSearchParams({ next })}` : "?"}>Use a different address</a>.
        </p>
      </form>
    </AuthCard>
  );
}
