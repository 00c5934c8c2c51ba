import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { assertSameOrigin } from "~/modules/auth/origin.server";
import { clearSessionCookie, endSession } from "~/modules/auth/sessions.server";
import { page } from "~/lib/routes.server";

/** POST /logout ends the session server-side (revoked at once) and clears the cookie. */
export const action = page(
  "operator",
  async ({ request, context }: ActionFunctionArgs) => {
    assertSameOrigin(request, context);
    await endSession(request, context);
    return redirect("/login", { headers: { "Set-Cookie": clearSessionCookie(context) } });
  },
  { unguarded: "signing out ends the session the cookie names, if any" },
);

/** Signing out is never a GET (a link or prefetch must not end a session); a visit goes to the start. */
export const loader = page("operator", () => redirect("/"), { unguarded: "only redirects" });
