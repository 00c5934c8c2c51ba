import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { assertSameOrigin } from "~/modules/auth/origin.server";
import { clearSessionCookie, endSession } from "~/modules/auth/sessions.server";

/** POST /logout ends the session server-side (revoked at once) and clears the cookie. */
export async function action({ request, context }: ActionFunctionArgs) {
  context.request.log.callerType = "operator";
  assertSameOrigin(request, context);
  await endSession(request, context);
  return redirect("/login", { headers: { "Set-Cookie": clearSessionCookie(context) } });
}

/** Signing out is never a GET (a link or prefetch must not end a session); a visit goes to the start. */
export const loader = () => redirect("/");
