/**
 * The loaders and actions of /login, /signup and /signup/confirm: sign in with remix-auth, or ask for a
 * sign-up link and follow it, then start a fresh session.
 */
import { redirect, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { invalid, issuesOf } from "~/lib/errors";
import { runForm, type FormResult } from "~/lib/forms.server";
import { linkTokenOf } from "~/lib/link-tokens.server";
import { page } from "~/lib/routes.server";
import { EmailSchema, PasswordSchema } from "~/modules/accounts/users.server";
import { SIGNUP_LINK_HOURS, confirmSignup, requestSignup, signupOfToken } from "~/modules/accounts/signups.server";
import { authenticatorFor } from "./authenticator.server";
import { publicOrigin } from "~/modules/hosts/hosts.server";
import { assertSameOrigin } from "./origin.server";
import { safeRedirectTarget } from "./redirect";
import { readSession, startSession } from "./sessions.server";

export async function redirectIfSignedIn(request: Request, context: AppLoadContext): Promise<void> {
  if (await readSession(request, context)) throw redirect("/");
}

export async function signInWith(request: Request, context: AppLoadContext) {
  context.request.log.callerType = "operator";
  assertSameOrigin(request, context);
  return runForm(request, context, async (values) => {
    // remix-auth reads the form from a request: hand it the one runForm already read and checked.
    const form = new Request(request.url, { method: "POST", body: new URLSearchParams(values) });
    const user = await authenticatorFor(context).authenticate("login", form);
    const cookie = await startSession(request, context, user.id);
    return redirect(safeRedirectTarget(values.redirectTo), { headers: { "Set-Cookie": cookie } });
  });
}

/** A throttled attempt's page carries the action's Retry-After (Remix builds page headers from `headers`). */
export function retryAfterOf(actionHeaders: Headers): Record<string, string> {
  const value = actionHeaders.get("Retry-After");
  return value ? { "Retry-After": value } : {};
}

const SignupForm = z.object({ email: EmailSchema, password: PasswordSchema });

/**
 * Sign-up answers the same for a new and a taken address ("we sent a link"), so the form cannot be used to
 * learn who has an account (ADR 004); every attempt, valid or not, counts against the address's allowance.
 */
export async function signUpWith(request: Request, context: AppLoadContext) {
  context.request.log.callerType = "operator";
  assertSameOrigin(request, context);
  return runForm(request, context, async (values): Promise<FormResult> => {
    const { services } = context;
    await services.authThrottle.signUp(values.email ?? "", context.request.ip);
    const parsed = SignupForm.safeParse(values);
    if (!parsed.success) throw invalid("Check the highlighted fields", issuesOf(parsed.error));
    const { email, password } = parsed.data;
    await requestSignup(
      services,
      { email, password, redirectTo: values.redirectTo },
      await publicOrigin(request, context),
    );
    const sent = `We sent a link to ${email} to finish creating your account. It works for ${SIGNUP_LINK_HOURS} hours.`;
    if (services.mailer.transport !== "outbox") return { ok: true, message: sent };
    const outbox = services.env.production
      ? " No mail server is configured here yet: ask the administrator to set one up, or to create your account."
      : " No mail server is configured here: the server's log shows the message.";
    return { ok: true, message: sent + outbox };
  });
}

/** The loader and action of a sign-in page, declared for operators: the page is where they get a session. */
export function signInPage(strategy: "login" | "signup") {
  const signIn = { unguarded: "where an operator obtains a session" };
  return {
    loader: page(
      "operator",
      async ({ request, context }: LoaderFunctionArgs) => {
        await redirectIfSignedIn(request, context);
        return null;
      },
      signIn,
    ),
    action: page(
      "operator",
      async ({ request, context }: ActionFunctionArgs): Promise<unknown> =>
        strategy === "login" ? await signInWith(request, context) : await signUpWith(request, context),
      signIn,
    ),
  };
}

/**
 * /signup/confirm?token=…: the link of a sign-up e-mail. Opening it shows a button, and only the post creates
 * the account: mail scanners that fetch every link must not spend it.
 */
export function confirmSignupPage() {
  const declared = { unguarded: "where an operator who followed a sign-up link obtains a session" };
  return {
    loader: page(
      "operator",
      async ({ request, context }: LoaderFunctionArgs) => {
        await redirectIfSignedIn(request, context);
        const token = linkTokenOf(request);
        return { ...(await signupOfToken(context.services.db, token)), token };
      },
      declared,
    ),
    action: page(
      "operator",
      async ({ request, context }: ActionFunctionArgs) => {
        context.request.log.callerType = "operator";
        assertSameOrigin(request, context);
        return runForm(request, context, async (values) => {
          const token = values.token || linkTokenOf(request);
          const { user, redirectTo } = await confirmSignup(context.services.db, token, {
            ip: context.request.ip,
          });
          const cookie = await startSession(request, context, user.id);
          return redirect(safeRedirectTarget(redirectTo), { headers: { "Set-Cookie": cookie } });
        });
      },
      declared,
    ),
  };
}
