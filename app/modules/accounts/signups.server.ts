/**
 * Sign-up by e-mailed link (ADR 004). The form's answer never says whether an account already uses the
 * address: every valid request is answered "we sent a link to …". A new address gets a link that creates
 * the account; a taken one gets a note to its owner instead ("someone tried to sign up with your address").
 * The password is hashed in both cases, so the answer's timing does not tell them apart either. The link's
 * token is stored as a SHA-256 (DESIGN rule 4), works once, and expires after SIGNUP_LINK_HOURS.
 */
import type { Logger } from "pino";
import type { Db } from "~db/client";
import { isUniqueViolation } from "~db/client";
import { isoNow, now } from "~/lib/clock.server";
import { conflict, notFound } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { issueLinkToken, unexpiredByToken } from "~/lib/link-tokens.server";
import { hashPassword } from "~/modules/auth/password.server";
import { safeRedirectTarget } from "~/modules/auth/redirect";
import { purgeAccountMail, withTokensHidden, type Mailer } from "~/modules/mail/mail.server";
import { assertPasswordAllowed, findUserByEmail, insertUser, type User } from "./users.server";

export const SIGNUP_LINK_HOURS = 24;

interface Services {
  db: Db;
  mailer: Mailer;
  logger: Logger;
}

/**
 * Account mail is best effort here: a failed delivery is logged, and the answer stays the same. Its links are
 * credentials, so the mail record keeps them without their token; without SMTP_URL the mailer prints the
 * message to the log outside production, which is how a fresh install's first operator finishes signing up
 * (in production, create the first account with `users:create` instead).
 */
export async function sendAccountMail(services: Services, to: string, subject: string, text: string): Promise<void> {
  try {
    await services.mailer.send({ workspaceId: null, to, subject, text, storedText: withTokensHidden(text) });
  } catch (error) {
    services.logger.warn({ err: error instanceof Error ? error.message : String(error) }, "account mail not sent");
  }
}

/**
 * Records a sign-up and sends its link, or tells an existing account's owner. `email` is already normalised
 * (EmailSchema); `origin` is where the links point (app/modules/hosts: PUBLIC_URL, else the served loopback origin the request came on).
 */
export async function requestSignup(
  services: Services,
  input: { email: string; password: string; redirectTo?: string },
  origin: string,
): Promise<void> {
  const { db } = services;
  const { email } = input;
  await assertPasswordAllowed(input.password, { email });
  const passwordHash = await hashPassword(input.password);
  if (await findUserByEmail(db, email)) {
    await sendAccountMail(
      services,
      email,
      "Someone tried to create an Atrium account with your address",
      [
        `Someone (maybe you) tried to create an Atrium account for ${email} at ${origin}.`,
        "",
        "You already have an account with this address. To use it, sign in here:",
        `${origin}/login`,
        "",
        "If this was not you, you can ignore this message: nothing was changed. If you cannot remember your",
        "password, ask the administrator of this Atrium server to reset it.",
      ].join("\n"),
    );
    return;
  }
  const link = issueLinkToken(SIGNUP_LINK_HOURS * 3_600_000);
  await db
    .insertInto("signup_requests")
    .values({
      id: newId(),
      email,
      password_hash: passwordHash,
      token_hash: link.tokenHash,
      redirect_to: safeRedirectTarget(input.redirectTo),
      expires_at: link.expiresAt,
      created_at: link.createdAt,
    })
    .execute();
  await sendAccountMail(
    services,
    email,
    "Finish creating your Atrium account",
    [
      `To finish creating your Atrium account for ${email}, open this link:`,
      `${origin}/signup/confirm?token=${link.token}`,
      "",
      `It works once, for ${SIGNUP_LINK_HOURS} hours. If you did not ask for an account, ignore this message.`,
    ].join("\n"),
  );
}

const expired = () => notFound("This link has expired or was already used. Sign up again to get a new one.");

const pendingByToken = (db: Db, token: string) =>
  unexpiredByToken(token, (tokenHash) =>
    db
      .selectFrom("signup_requests")
      .select(["id", "email", "password_hash", "redirect_to", "expires_at"])
      .where("token_hash", "=", tokenHash)
      .executeTakeFirst(),
  );

/** The address a link would create an account for, to show before the operator confirms. */
export async function signupOfToken(db: Db, token: string): Promise<{ email: string }> {
  const row = await pendingByToken(db, token);
  if (!row) throw expired();
  return { email: row.email };
}

/**
 * Follows a link: creates the account with the password chosen at sign-up, and forgets every pending
 * request for its address, in one transaction. Returns the account and where to send it.
 */
export async function confirmSignup(
  db: Db,
  token: string,
  meta: { ip?: string | null } = {},
): Promise<{ user: User; redirectTo: string }> {
  const row = await pendingByToken(db, token);
  if (!row) throw expired();
  try {
    const user = await db.transaction().execute(async (trx) => {
      // Deleting by the token's row first makes the link single-use even when two clicks race.
      const taken = await trx.deleteFrom("signup_requests").where("id", "=", row.id).executeTakeFirst();
      if (Number(taken.numDeletedRows) !== 1) throw expired();
      await trx.deleteFrom("signup_requests").where("email", "=", row.email).execute();
      return insertUser(trx, { email: row.email, passwordHash: row.password_hash }, meta);
    });
    return { user, redirectTo: row.redirect_to };
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict("An account with this email already exists. Sign in instead.");
    }
    throw error;
  }
}

/**
 * Housekeeping (the job runner's maintenance): sign-ups whose link expired unused, and account mail older
 * than a link's lifetime.
 */
export async function purgeExpiredSignups(db: Db): Promise<void> {
  await db.deleteFrom("signup_requests").where("expires_at", "<=", isoNow()).execute();
  await purgeAccountMail(db, new Date(now().getTime() - SIGNUP_LINK_HOURS * 3_600_000).toISOString());
}
