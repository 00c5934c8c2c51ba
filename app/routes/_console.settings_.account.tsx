// /settings/account — the operator's own account; needs no workspace, so it works before the first one.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { type FormResult, runForm } from "~/lib/forms.server";
import { invalid } from "~/lib/errors";
import { deleteAccount } from "~/modules/accounts/users.server";
import { clearSessionCookie } from "~/modules/auth/sessions.server";
import { operatorWorkspaces, requireOperator } from "~/modules/access/operator.server";
import { Field, FormMessage } from "~/ui/form";
import { page } from "~/lib/routes.server";

export const meta: MetaFunction = () => [{ title: "Your account · Atrium" }];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const session = await requireOperator(request, context);
  const owned = (await operatorWorkspaces(context, session)).filter((w) => w.role === "owner");
  return {
    email: session.user.email,
    tier: session.user.tier,
    since: session.user.created_at,
    owned: owned.map((w) => w.name),
  };
});

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const session = await requireOperator(request, context);
  return runForm(request, context, async (values) => {
    if ((values.confirmEmail ?? "").trim().toLowerCase() !== session.user.email) {
      throw invalid("Type your email exactly to confirm", [
        { field: "confirmEmail", message: `Type ${session.user.email} to confirm` },
      ]);
    }
    await deleteAccount(context.services, session.user);
    return redirect("/login?deleted=1", { headers: { "Set-Cookie": clearSessionCookie(context) } });
  });
});

export default function Account() {
  const { email, tier, since, owned } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  return (
    <>
      <h1>Your account</h1>
      <section className="panel" aria-labelledby="account-details">
        <h2 id="account-details">Details</h2>
        <dl>
          <dt>Email</dt>
          <dd>{email}</dd>
          <dt>Plan</dt>
          <dd>{tier}</dd>
          <dt>API keys</dt>
          <dd>
            <Link to="/settings/api-keys">Manage your API keys</Link>
          </dd>
          <dt>Member since</dt>
          <dd>{new Date(since).toUTCString()}</dd>
        </dl>
      </section>
      <section className="panel danger" aria-labelledby="delete-account">
        <h2 id="delete-account">Delete your account</h2>
        <p>
          This deletes your account and your memberships, and every workspace you own
          {owned.length ? ` (${owned.join(", ")})` : ""} with its site and data. It cannot be undone.
        </p>
        <FormMessage message={result?.fieldErrors?.confirmEmail ? undefined : result?.message} />
        <Form method="post">
          <Field
            label={`Type your email (${email}) to confirm`}
            name="confirmEmail"
            type="email"
            autoComplete="off"
            error={result?.fieldErrors?.confirmEmail}
            required
          />
          <button type="submit" className="danger">
            Delete my account
          </button>
        </Form>
      </section>
    </>
  );
}
