import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { runForm, type FormResult } from "~/lib/forms.server";
import { linkTokenOf } from "~/lib/link-tokens.server";
import { page } from "~/lib/routes.server";
import { requireOperator } from "~/modules/access/operator.server";
import { readSession, selectWorkspace } from "~/modules/auth/sessions.server";
import { acceptInvitation, invitationOfToken } from "~/modules/tenancy/invitations.server";
import { FormMessage } from "~/ui/form";
import consoleCss from "~/styles/console.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: consoleCss }];
export const meta: MetaFunction = () => [{ title: "Invitation · Atrium" }];

/** Anyone holding the link may see what it invites to; accepting needs the invited address's session. */
export const loader = page(
  "operator",
  async ({ request, context }: LoaderFunctionArgs) => {
    const token = linkTokenOf(request);
    const invitation = await invitationOfToken(context.services.db, token);
    const session = await readSession(request, context);
    const url = new URL(request.url);
    return { invitation, token, signedInAs: session?.user.email ?? null, here: url.pathname + url.search };
  },
  { unguarded: "the invitation link itself is the credential; accepting it needs a session (the action)" },
);

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const session = await requireOperator(request, context);
  return runForm(request, context, async (values) => {
    const token = values.token || linkTokenOf(request);
    const { workspaceId } = await acceptInvitation(context.services.db, token, session.user);
    await selectWorkspace(context.services.db, session.id, workspaceId);
    return redirect("/");
  });
});

export default function Invitation() {
  const { invitation, token, signedInAs, here } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const busy = useNavigation().state !== "idle";
  const back = encodeURIComponent(here);
  return (
    <main className="auth">
      <h1>{`Join ${invitation.workspaceName}`}</h1>
      <p>
        You are invited to {invitation.workspaceName} on Atrium as {invitation.role}, with the address{" "}
        <strong>{invitation.email}</strong>.
      </p>
      <FormMessage message={result?.message} />
      {signedInAs === null ? (
        <p>
          <Link to={`/login?redirectTo=${back}`}>Sign in</Link> or{" "}
          <Link to={`/signup?redirectTo=${back}`}>create an account</Link> with {invitation.email} to accept.
        </p>
      ) : signedInAs !== invitation.email ? (
        <p>
          You are signed in as {signedInAs}. Sign out, then sign in or create an account with {invitation.email} to
          accept.
        </p>
      ) : (
        <Form method="post">
          <input type="hidden" name="token" value={token} />
          <button type="submit" disabled={busy}>
            Accept and join {invitation.workspaceName}
          </button>
        </Form>
      )}
    </main>
  );
}
