/**
 * E-mailed challenges (ADR 029): a six-digit code and a one-time link, sent together, either of which proves
 * the holder reads the address — to sign in, or to move an account to a new address. Both are stored hashed
 * (DESIGN rule 4), work once, for 15 minutes, and a challenge stops working after 5 wrong codes. Asking again
 * retires the address's earlier challenges, so an attacker never has more than one set of 5 guesses open.
 *
 * The state lives in the database, not in a cookie: a wrong guess is counted where replaying an old cookie
 * cannot reset it, and the link works in any browser, not only the one that asked (why not remix-auth-totp).
 */
import { randomInt, timingSafeEqual } from "node:crypto";
import type { Db } from "~db/client";
import { isoNow, now } from "~/lib/clock.server";
import { unauthenticated } from "~/lib/errors";
import { sha256Base64url } from "~/lib/hash.server";
import { newId, newSecret } from "~/lib/ids.server";
import { CHALLENGE_MINUTES, MAX_CODE_ATTEMPTS } from "./limits";

export type ChallengePurpose = "sign-in" | "email-change";

export interface IssuedChallenge {
  id: string;
  /** Six digits, for the e-mail only. */
  code: string;
  /** The link's secret, for the e-mail only. */
  linkToken: string;
}

/** What a spent challenge proved. */
export interface ProvenChallenge {
  workspaceId: string;
  email: string;
  purpose: ChallengePurpose;
  customerId: string | null;
  redirectTo: string | null;
}

export const EXPIRED = "This code has expired or was already used. Ask for a new one.";
const LINK_EXPIRED = "This link has expired or was already used. Ask for a new one.";

const codeHashOf = (id: string, code: string) => sha256Base64url(`${id}:${code}`);
const sameHash = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export function challengesOf(db: Db, workspaceId: string) {
  const rows = () => db.selectFrom("customer_challenges").where("workspace_id", "=", workspaceId);

  return {
    async issue(input: {
      email: string;
      purpose: ChallengePurpose;
      customerId?: string;
      redirectTo?: string | null;
    }): Promise<IssuedChallenge> {
      const id = newId();
      const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
      const linkToken = newSecret();
      const at = now();
      const email = input.email.trim().toLowerCase();
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("customer_challenges")
          .set({ used_at: at.toISOString() })
          .where("workspace_id", "=", workspaceId)
          .where("email", "=", email)
          .where("purpose", "=", input.purpose)
          .where("used_at", "is", null)
          .execute();
        await trx
          .insertInto("customer_challenges")
          .values({
            id,
            workspace_id: workspaceId,
            email,
            purpose: input.purpose,
            customer_id: input.customerId ?? null,
            code_hash: codeHashOf(id, code),
            link_hash: sha256Base64url(linkToken),
            attempts: 0,
            redirect_to: input.redirectTo ?? null,
            created_at: at.toISOString(),
            expires_at: new Date(at.getTime() + CHALLENGE_MINUTES * 60_000).toISOString(),
            used_at: null,
          })
          .execute();
      });
      return { id, code, linkToken };
    },

    /**
     * Spends the challenge `id` with `code`. A wrong code is counted (and says how many tries are left); the
     * right one works once. Refusals are `unauthenticated`, in words a visitor can act on.
     */
    async verifyCode(id: string, code: string): Promise<ProvenChallenge> {
      const row = await rows().selectAll().where("id", "=", id).executeTakeFirst();
      const at = isoNow();
      if (!row || row.used_at !== null || row.expires_at <= at || row.attempts >= MAX_CODE_ATTEMPTS) {
        throw unauthenticated(EXPIRED);
      }
      if (
        !/^\d{6}$/.test(code.replace(/\s/g, "")) ||
        !sameHash(codeHashOf(id, code.replace(/\s/g, "")), row.code_hash)
      ) {
        // Counted in the database with a guard, so concurrent guesses cannot share one attempt.
        await db
          .updateTable("customer_challenges")
          .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", id)
          .where("used_at", "is", null)
          .execute();
        const left = MAX_CODE_ATTEMPTS - row.attempts - 1;
        throw unauthenticated(
          left > 0
            ? `That code is not right. Check the e-mail and try again (${left} ${left === 1 ? "try" : "tries"} left).`
            : "That code is not right, and this one no longer works. Ask for a new code.",
        );
      }
      return spend(db, workspaceId, row.id, at, EXPIRED);
    },
  };
}

/** Marks a challenge used, once: of two concurrent uses only one wins. */
async function spend(db: Db, workspaceId: string, id: string, at: string, refusal: string): Promise<ProvenChallenge> {
  const result = await db
    .updateTable("customer_challenges")
    .set({ used_at: at })
    .where("workspace_id", "=", workspaceId)
    .where("id", "=", id)
    .where("used_at", "is", null)
    .where("expires_at", ">", at)
    .where("attempts", "<", MAX_CODE_ATTEMPTS)
    .returningAll()
    .executeTakeFirst();
  if (!result) throw unauthenticated(refusal);
  return {
    workspaceId: result.workspace_id,
    email: result.email,
    purpose: result.purpose as ChallengePurpose,
    customerId: result.customer_id,
    redirectTo: result.redirect_to,
  };
}

/**
 * The challenge behind an e-mailed link, while it can still be used: what the link's page shows before the
 * visitor confirms. The token is the credential, so it alone finds its workspace (as an API key does).
 */
export async function challengeOfLink(
  db: Db,
  token: string,
): Promise<
  { id: string; workspaceId: string; email: string; purpose: ChallengePurpose; redirectTo: string | null } | undefined
> {
  if (!token) return undefined;
  const row = await db
    .selectFrom("customer_challenges")
    .select(["id", "workspace_id", "email", "purpose", "redirect_to", "used_at", "expires_at", "attempts"])
    .where("link_hash", "=", sha256Base64url(token))
    .executeTakeFirst();
  if (!row || row.used_at !== null || row.expires_at <= isoNow() || row.attempts >= MAX_CODE_ATTEMPTS) return undefined;
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    email: row.email,
    purpose: row.purpose as ChallengePurpose,
    redirectTo: row.redirect_to,
  };
}

/** Spends the challenge behind an e-mailed link. */
export async function spendLink(db: Db, token: string): Promise<ProvenChallenge> {
  const found = await challengeOfLink(db, token);
  if (!found) throw unauthenticated(LINK_EXPIRED);
  return spend(db, found.workspaceId, found.id, isoNow(), LINK_EXPIRED);
}

/** Housekeeping: challenges a day past their expiry are of no use to anyone. */
export async function purgeExpiredChallenges(db: Db): Promise<void> {
  const before = new Date(now().getTime() - 86_400_000).toISOString();
  await db.deleteFrom("customer_challenges").where("expires_at", "<", before).execute();
}
