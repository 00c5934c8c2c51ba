/**
 * Operator sign-in with remix-auth's form strategy (sign-up goes by e-mailed link: sign-in.server.ts). The strategy's verify function owns the whole
 * decision (throttle, credentials, account state) and throws a domain error the page shows as-is.
 */
import type { AppLoadContext } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { z } from "zod";
import { forbidden, invalid, isDomainError, issuesOf, unauthenticated } from "~/lib/errors";
import { findCredentials, type User } from "~/modules/accounts/users.server";
import { recordAccountEvent } from "~/modules/audit/audit.server";
import { burnPasswordCheck, verifyPassword } from "./password.server";

const LoginForm = z.object({
  email: z.string().trim().min(1, "Enter your email"),
  password: z.string().min(1, "Enter your password"),
});

const INCORRECT = "Email or password is incorrect";

function formFields(form: FormData) {
  return { email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") };
}

/** A sign-in attempt under the throttle: a wrong password counts against the e-mail, a right one clears the pair. */
async function throttled<T>(context: AppLoadContext, email: string, attempt: () => Promise<T>): Promise<T> {
  const { authThrottle } = context.services;
  const ip = context.request.ip;
  await authThrottle.beginSignIn(email, ip);
  let result: T;
  try {
    result = await attempt();
  } catch (error) {
    if (isDomainError(error) && error.kind === "unauthenticated") await authThrottle.signInFailed(email);
    throw error;
  }
  await authThrottle.signInSucceeded(email, ip);
  return result;
}

export function authenticatorFor(context: AppLoadContext): Authenticator<User> {
  const { db } = context.services;
  return new Authenticator<User>().use(
    new FormStrategy(async ({ form }) => {
      const fields = formFields(form);
      const parsed = LoginForm.safeParse(fields);
      if (!parsed.success) throw invalid("Check the highlighted fields", issuesOf(parsed.error));
      const { email, password } = parsed.data;
      return throttled(context, email, async () => {
        const account = await findCredentials(db, email);
        if (!account) {
          await burnPasswordCheck(password);
          throw unauthenticated(INCORRECT);
        }
        if (!(await verifyPassword(password, account.password_hash))) throw unauthenticated(INCORRECT);
        if (account.status !== "active") {
          throw forbidden("This account is suspended. Contact the administrator of this Atrium server.");
        }
        await recordAccountEvent(db, account.id, {
          action: "account.signed_in",
          actorUserId: account.id,
          ip: context.request.ip,
        });
        const { password_hash: _hash, ...user } = account;
        return user;
      });
    }),
    "login",
  );
}
