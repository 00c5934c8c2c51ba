// /auth/callback?token=… — the link of a customer's sign-in (or e-mail change) e-mail (ADR 029). Opening it shows
// the site's page with one button, and only the post signs in: mail scanners that fetch every link must not spend
// a single-use link. The token names its site; on a custom domain only that site's links work. Never cached.
import type {
  ActionFunctionArgs,
  HeadersFunction,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { unauthenticated } from "~/lib/errors";
import { runForm, type FormResult } from "~/lib/forms.server";
import { linkTokenOf } from "~/lib/link-tokens.server";
import { page } from "~/lib/routes.server";
import { challengeOfLink } from "~/modules/customers/challenges.server";
import { finishSignIn, PRIVATE, siteOfCredential, standaloneChrome } from "~/modules/customers/portal.server";
import { customerAuthenticator } from "~/modules/customers/sign-in.server";
import { linkBase } from "~/modules/sites/address.server";
import { SiteFrame } from "~/site/frame";
import { AuthCard, FormNotice } from "~/site/portal";
import type { RouteHandle } from "~/ui/handle";
import siteCss from "~/styles/site.css?url";
import portalCss from "~/styles/site-portal.css?url";

export const handle: RouteHandle = { hydrate: false };
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: siteCss },
  { rel: "stylesheet", href: portalCss },
];

const declared = { unguarded: "where a customer who followed a sign-in link obtains a session" };

async function linkOf(context: LoaderFunctionArgs["context"], token: string) {
  const challenge = await challengeOfLink(context.services.db, token);
  const site = challenge ? await siteOfCredential(context, challenge.workspaceId) : undefined;
  return challenge && site ? { challenge, site } : undefined;
}

export const loader = page(
  "customer",
  async ({ request, context }: LoaderFunctionArgs) => {
    const token = linkTokenOf(request);
    const found = await linkOf(context, token);
    if (!found) {
      context.request.log.failure = "authorization";
      return { usable: false as const };
    }
    const { challenge, site } = found;
    return {
      usable: true as const,
      token,
      purpose: challenge.purpose,
      email: challenge.email,
      chrome: await standaloneChrome(request, context, site),
      signInPath: `${linkBase(context, site.slug)}/login`,
    };
  },
  declared,
);

export const action = page(
  "customer",
  async ({ request, context }: ActionFunctionArgs) =>
    runForm(request, context, async (values): Promise<FormResult | Response> => {
      const token = values.token || linkTokenOf(request);
      const found = await linkOf(context, token);
      if (!found) throw unauthenticated("This link has expired or was already used. Ask for a new one.");
      const { challenge, site } = found;
      const customer = await customerAuthenticator(context, site).authenticate(
        "email-challenge",
        new Request(request.url, { method: "POST", body: new URLSearchParams({ token }) }),
      );
      const next =
        challenge.purpose === "email-change" ? `${linkBase(context, site.slug)}/profile?email=changed` : undefined;
      return finishSignIn(context, request, site, customer, next ?? challenge.redirectTo);
    }),
  declared,
);

export const headers: HeadersFunction = () => PRIVATE;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.usable ? `Sign in · ${data.chrome.name}` : "This link no longer works" },
  { name: "robots", content: "noindex, nofollow" },
  // The address holds the link's token: no other site may see it in a Referer. (Not `no-referrer`, which
  // would send the page's own form with `Origin: null`, refused as cross-site.)
  { name: "referrer", content: "same-origin" },
];

export default function SignInLink() {
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<FormResult>();
  if (!data.usable) {
    return (
      <main className="site-main site-message">
        <h1>This link no longer works</h1>
        <p>
          Sign-in links work once, for 15 minutes. Go back to the site you were signing in to and ask for a new code.
        </p>
      </main>
    );
  }
  const changing = data.purpose === "email-change";
  return (
    <SiteFrame chrome={data.chrome}>
      <AuthCard
        title={changing ? "Confirm your new e-mail address" : `Sign in to ${data.chrome.name}`}
        lead={
          changing ? (
            <>
              Your account will use <strong>{data.email}</strong> from now on.
            </>
          ) : (
            <>
              You are signing in as <strong>{data.email}</strong>.
            </>
          )
        }
      >
        <FormNotice result={answer} />
        <form method="post" className="portal-form">
          <input type="hidden" name="token" value={data.token} />
          <button type="submit" className="site-button portal-form__submit">
            {changing ? "Confirm and continue" : "Sign in"}
          </button>
        </form>
        <p className="portal-card__fine">
          Did not ask for this? Close this page: nothing happens until you press the button.{" "}
          <a href={data.signInPath}>Go to the sign-in page</a>
        </p>
      </AuthCard>
    </SiteFrame>
  );
}
