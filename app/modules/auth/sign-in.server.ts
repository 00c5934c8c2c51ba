/** The shared loader and action of /login and /signup: authenticate with remix-auth, then start a fresh session. */
import { redirect, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from "@remix-run/node";
import { runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { authenticatorFor } from "./authenticator.server";
import { assertSameOrigin } from "./origin.server";
import { safeRedirectTarget } from "./redirect";
import { readSession, startSession } from "./sessions.server";

export async function redirectIfSignedIn(request: Request, context: AppLoadContext): Promise<void> {
  if (await readSession(request, context)) throw redirect("/");
}

export async function signInWith(strategy: "login" | "signup", request: Request, context: AppLoadContext) {
  context.request.log.callerType = "operator";
  assertSameOrigin(request, context);
  return runForm(request, context, async (values) => {
    // remix-auth reads the form from a request: hand it the one runForm already read and checked.
    const form = new Request(request.url, { method: "POST", body: new URLSearchParams(values) });
    const user = await authenticatorFor(context).authenticate(strategy, form);
    const cookie = await startSession(request, context, user.id);
    return redirect(safeRedirectTarget(values.redirectTo), { headers: { "Set-Cookie": cookie } });
  });
}

/** A throttled attempt's page carries the action's Retry-After (Remix builds page headers from `headers`). */
export function retryAfterOf(actionHeaders: Headers): Record<string, string> {
  const value = actionHeaders.get("Retry-After");
  return value ? { "Retry-After": value } : {};
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
      ({ request, context }: ActionFunctionArgs) => signInWith(strategy, request, context),
      signIn,
    ),
  };
}
