import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { FormResult } from "~/lib/forms.server";
import { confirmSignupPage } from "~/modules/auth/sign-in.server";
import { FormMessage } from "~/ui/form";
import consoleCss from "~/styles/console.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: consoleCss }];
export const meta: MetaFunction = () => [{ title: "Finish creating your account · Atrium" }];

const confirm = confirmSignupPage();
export const loader = confirm.loader;
export const action = confirm.action;

export default function ConfirmSignup() {
  const { email, token } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const busy = useNavigation().state !== "idle";
  return (
    <main className="auth">
      <h1>Finish creating your account</h1>
      <FormMessage message={result?.message} />
      <p>
        Create the Atrium account for <strong>{email}</strong> with the password you chose.
      </p>
      <Form method="post">
        <input type="hidden" name="token" value={token} />
        <button type="submit" disabled={busy}>
          Create my account
        </button>
      </Form>
      <p>
        Not you? <Link to="/signup">Sign up with another address</Link>.
      </p>
    </main>
  );
}
