import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import type { FormResult } from "~/lib/forms.server";
import { Field, FormMessage } from "./form";

/** The sign-in and sign-up pages: the same two fields, different words. */
export function AuthPage({ mode, notice }: { mode: "login" | "signup"; notice?: string }) {
  const result = useActionData<FormResult>();
  const [params] = useSearchParams();
  const busy = useNavigation().state !== "idle";
  const login = mode === "login";
  // Switching between sign-in and sign-up keeps where the operator was going (an invitation, OAuth consent).
  const redirectTo = params.get("redirectTo");
  const carry = redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : "";
  const errors = result?.fieldErrors ?? {};
  const showMessage = result?.message && !errors.email && !errors.password;
  if (!login && result?.ok) {
    // Sign-up answers this for a new and a taken address alike (ADR 004): the e-mail says which it was.
    return (
      <main className="auth">
        <h1>Check your email</h1>
        <FormMessage message={result.message} tone="success" />
        <p>
          Nothing arrived? Check the address and <Link to="/signup">try again</Link>, or{" "}
          <Link to="/login">sign in</Link> if you already have an account.
        </p>
      </main>
    );
  }
  return (
    <main className="auth">
      <h1>{login ? "Sign in to Atrium" : "Create your Atrium account"}</h1>
      <FormMessage message={notice} tone="success" />
      {showMessage ? <FormMessage message={result.message} /> : null}
      <Form method="post" replace>
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? "/"} />
        <Field label="Email" name="email" type="email" autoComplete="email" error={errors.email} required />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete={login ? "current-password" : "new-password"}
          error={errors.password}
          hint={
            login ? undefined : "At least 10 characters. A few unrelated words work well; common passwords are refused."
          }
          required
        />
        <button type="submit" disabled={busy}>
          {login ? "Sign in" : "Create account"}
        </button>
      </Form>
      <p>
        {login ? (
          <>
            New here? <Link to={`/signup${carry}`}>Create an account</Link>
          </>
        ) : (
          <>
            Already have an account? <Link to={`/login${carry}`}>Sign in</Link>
          </>
        )}
      </p>
    </main>
  );
}
