/**
 * Operator sign-in with remix-auth's form strategy (sign-up goes by e-mailed link: sign-in.server.ts). The strategy's verify function owns the whole
 * decision (throttle, credentials, account state) and throws a domain error the page shows as-is.
 */
import type { AppLoadContext } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { z } from "zod";
import { forbidden, invalid, issuesOf, unauthenticated } from "~/lib/errors";
import { findCredentials, type User } from "~/modules/accounts/users.server";
import { recordAccountEvent } from "~/modules/audit/audit.server";
import { isKnownAddress } from "./known-addresses.server";
import { burnPasswordCheck, verifyPassword } from "./password.server";

const LoginForm = z.object({
  email: z.string().trim().min(1, "Enter your email"),
  password: z.string().min(1, "Enter your password"),
});

const INCORRECT = "Email or password is incorrect";

function formFields(form: FormData) {
  return { email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") };
}

/**
 * A sign-in attempt under the throttle: a wrong password stays counted, a right one gives the attempt back.
 * Whether the account has signed in from this address before decides whether the e-mail's cap applies.
 */
async function throttled<T>(
  context: AppLoadContext,
  email: string,
  account: { id: string } | undefined,
  attempt: () => Promise<T>,
): Promise<T> {
  const { authThrottle, db } = context.services;
  const ip = context.request.ip;
  const knownAddress = account ? await isKnownAddress(db, account.id, ip) : false;
  const started = await authThrottle.beginSignIn(email, ip, { knownAddress });
  const result = await attempt();
  await started.succeeded();
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
      const account = await findCredentials(db, email);
      return throttled(context, email, account, async () => {
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
