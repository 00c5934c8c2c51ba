/**
 * Customers sign in on a business's site (ADR 029) through remix-auth, like operators: an e-mailed code or
 * link (our `EmailChallengeStrategy`: challenges.server.ts says why not remix-auth-totp), or a password the
 * customer chose (remix-auth-form). Asking for a code answers the same whether or not the address has an
 * account: only the e-mail differs — a code where the address is a customer or the site lets anyone sign
 * up, a "no account here" note on an invitation-only site.
 */
import type { AppLoadContext } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { Strategy } from "remix-auth/strategy";
import { z } from "zod";
import { invalid, issuesOf, unauthenticated, unavailable } from "~/lib/errors";
import { TOKEN_NOT_STORED, withTokensHidden } from "~/modules/mail/mail.server";
import { burnPasswordCheck, verifyPassword } from "~/modules/auth/password.server";
import type { Workspace } from "~/modules/tenancy/workspaces.server";
import { challengesOf, spendLink, type ProvenChallenge } from "./challenges.server";
import { CHALLENGE_MINUTES } from "./limits";
import { claimGuestRecords } from "./claims.server";
import { CustomerEmail, customersOf, type Customer } from "./customers.server";
import { customerSettingsOf } from "./settings.server";

type Site = Pick<Workspace, "id" | "slug" | "name">;

/** How the e-mail's link reaches the site: the origin the customer asked from. */
export interface MailOrigin {
  origin: string;
}

/** The e-mail with a code and a link, and the copy of it the outbox keeps (no code, no token). */
function codeMail(site: Site, code: string, link: string, purpose: "sign-in" | "email-change") {
  const spaced = `${code.slice(0, 3)} ${code.slice(3)}`;
  const what = purpose === "sign-in" ? `sign in to ${site.name}` : `confirm your new e-mail address at ${site.name}`;
  const lines = (shownCode: string) =>
    [
      "Hello,",
      "",
      `Your code to ${what} is:`,
      "",
      `    ${shownCode}`,
      "",
      `Or open this link: ${link}`,
      "",
      `The code and the link work once, for ${CHALLENGE_MINUTES} minutes.`,
      "If you did not ask for this, you can ignore this e-mail: nothing happens without the code.",
    ].join("\n");
  return { text: lines(spaced), storedText: withTokensHidden(lines(TOKEN_NOT_STORED)) };
}

function noAccountMail(site: Site) {
  return [
    "Hello,",
    "",
    `Someone asked to sign in to ${site.name} with this e-mail address, but there is no account for it.`,
    `${site.name} opens accounts by invitation: if you think you should have one, contact them.`,
    "",
    "If it was not you, you can ignore this e-mail.",
  ].join("\n");
}

/**
 * Sends a sign-in code (and link) for `email` on `site`; answers the challenge the code form posts back.
 * Throttled per address and e-mail whatever the outcome, so the answer and its timing say nothing about
 * whether the address is a customer.
 */
export async function requestSignInCode(
  context: AppLoadContext,
  site: Site,
  input: { email: string; next?: string | null },
  mail: MailOrigin,
): Promise<{ challengeId: string; email: string }> {
  const parsed = CustomerEmail.safeParse(input.email);
  if (!parsed.success)
    throw invalid("Check the e-mail address", [{ field: "email", message: parsed.error.issues[0]!.message }]);
  const email = parsed.data;
  const { db, customerThrottle } = context.services;
  await customerThrottle.takeCode(site.id, email, context.request.ip);
  const [existing, signup] = await Promise.all([
    customersOf(db, site.id).byEmail(email),
    customerSettingsOf(db, site.id).signup(),
  ]);
  const challenge = await challengesOf(db, site.id).issue({
    email,
    purpose: "sign-in",
    redirectTo: input.next ?? null,
  });
  const mayEnter = (existing && !existing.erased) || signup === "open";
  const link = `${mail.origin}/auth/callback?token=${challenge.linkToken}`;
  await send(
    context,
    site,
    email,
    mayEnter
      ? { subject: `Your sign-in code for ${site.name}`, ...codeMail(site, challenge.code, link, "sign-in") }
      : { subject: `Signing in to ${site.name}`, text: noAccountMail(site) },
  );
  return { challengeId: challenge.id, email };
}

/** Sends a code to a new address the signed-in customer wants to use; the account moves once it is entered. */
export async function requestEmailChange(
  context: AppLoadContext,
  site: Site,
  customer: Customer,
  newEmail: string,
  mail: MailOrigin,
): Promise<{ challengeId: string; email: string }> {
  const parsed = CustomerEmail.safeParse(newEmail);
  if (!parsed.success)
    throw invalid("Check the e-mail address", [{ field: "email", message: parsed.error.issues[0]!.message }]);
  const email = parsed.data;
  if (email === customer.email)
    throw invalid("This is already your e-mail address", [
      { field: "email", message: "This is already your e-mail address" },
    ]);
  const { db, customerThrottle } = context.services;
  await customerThrottle.takeCode(site.id, email, context.request.ip);
  // Another customer's address is refused when the code is entered (changeEmail), not here: answering now
  // would tell anyone signed in which addresses have accounts.
  const challenge = await challengesOf(db, site.id).issue({ email, purpose: "email-change", customerId: customer.id });
  const link = `${mail.origin}/auth/callback?token=${challenge.linkToken}`;
  await send(context, site, email, {
    subject: `Confirm your new e-mail address at ${site.name}`,
    ...codeMail(site, challenge.code, link, "email-change"),
  });
  return { challengeId: challenge.id, email };
}

async function send(
  context: AppLoadContext,
  site: Site,
  to: string,
  message: { subject: string; text: string; storedText?: string },
) {
  try {
    await context.services.mailer.send({ workspaceId: site.id, to, ...message });
  } catch (error) {
    context.request.log.failure = "provider";
    context.request.logger.warn({ err: String(error), site: site.id }, "a customer's sign-in e-mail was not sent");
    throw unavailable("The e-mail could not be sent just now. Please try again in a minute.", 60);
  }
}

type Verify = { proven: ProvenChallenge };

/**
 * remix-auth's strategy for e-mailed challenges: the form names a challenge and its code (`challenge`, `code`),
 * or carries the token of an e-mailed link (`token`). Either is spent once; `verify` turns what it proved into
 * a customer.
 */
class EmailChallengeStrategy extends Strategy<Customer, Verify> {
  name = "email-challenge";

  constructor(
    private readonly context: AppLoadContext,
    private readonly site: Site,
    verify: Strategy.VerifyFunction<Customer, Verify>,
  ) {
    super(verify);
  }

  async authenticate(request: Request): Promise<Customer> {
    const form = await request.formData();
    const token = String(form.get("token") ?? "");
    const { db } = this.context.services;
    const proven = token
      ? await spendLink(db, token)
      : await challengesOf(db, this.site.id).verifyCode(
          String(form.get("challenge") ?? ""),
          String(form.get("code") ?? ""),
        );
    // A link of another site's challenge proves nothing here (its token was looked up without a site).
    if (proven.workspaceId !== this.site.id) throw unauthenticated("This link is not for this site.");
    return this.verify({ proven });
  }
}

const PasswordForm = z.object({
  email: CustomerEmail,
  password: z.string().min(1, "Enter your password").max(1000),
});
const INCORRECT = "E-mail or password is incorrect";

/**
 * The customer sign-in of `site`. After an e-mailed challenge the customer is found or created (where the site
 * allows it) and their guest records are claimed — the one moment an address is proven.
 */
export function customerAuthenticator(context: AppLoadContext, site: Site): Authenticator<Customer> {
  const { db, authThrottle } = context.services;
  const customers = customersOf(db, site.id);
  return new Authenticator<Customer>()
    .use(
      new EmailChallengeStrategy(context, site, async ({ proven }) => {
        if (proven.purpose === "email-change") {
          if (!proven.customerId) throw unauthenticated("This code is not for signing in.");
          const moved = await customers.changeEmail(proven.customerId, proven.email);
          await claimGuestRecords(db, site.id, moved);
          return moved;
        }
        const allowSignup = (await customerSettingsOf(db, site.id).signup()) === "open";
        const customer = await customers.proven(proven.email, { allowSignup });
        if (!customer || customer.erased) {
          throw unauthenticated(
            `There is no account for ${proven.email} here. ${site.name} opens accounts by invitation.`,
          );
        }
        await claimGuestRecords(db, site.id, customer);
        return customer;
      }),
      "email-challenge",
    )
    .use(
      new FormStrategy(async ({ form }) => {
        const parsed = PasswordForm.safeParse({ email: form.get("email"), password: form.get("password") });
        if (!parsed.success) throw invalid("Check the highlighted fields", issuesOf(parsed.error));
        const { email, password } = parsed.data;
        // The operators' throttle, keyed apart per site: guesses at one site's customer cost nothing elsewhere.
        const attempt = await authThrottle.beginSignIn(`customer:${site.id}:${email}`, context.request.ip, {
          knownAddress: false,
        });
        const found = await customers.passwordHashOf(email);
        if (!found?.hash || found.customer.erased) {
          await burnPasswordCheck(password);
          throw unauthenticated(INCORRECT);
        }
        if (!(await verifyPassword(password, found.hash))) throw unauthenticated(INCORRECT);
        await attempt.succeeded();
        return found.customer;
      }),
      "password",
    );
}
