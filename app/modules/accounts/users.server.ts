/**
 * Operator accounts. Emails are stored lower-cased (the schema checks it), so uniqueness is
 * case-insensitive on both dialects.
 */
import { z } from "zod";
import { isUniqueViolation, type Db } from "~db/client";
import { TIERS, type Tier, type UserRow, type UserStatus } from "~db/schema";
import { isoNow } from "~/lib/clock.server";
import { DomainError, conflict, invalid, validate } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { hashPassword } from "~/modules/auth/password.server";
import type { AppServices } from "~/lib/context";
import { recordAccountEvent } from "~/modules/audit/audit.server";
import { writeAndPurge } from "~/modules/cache/purge.server";
import { cacheTags } from "~/modules/cache/tags";
import { queueBlobSweepForOwner } from "~/modules/files/files.server";
import { rateLimitsOf, type RateLimits } from "~/modules/plans/tiers";
import { CANCELLED_BY_SUSPENSION, runsOf } from "~/modules/sops/sop-runs.server";
import {
  PASSWORD_MAX,
  PASSWORD_MESSAGES,
  PASSWORD_MIN,
  commonPasswords,
  passwordProblem,
  type PasswordContext,
} from "./password-policy";

export const EmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, "Use at most 254 characters")
  .pipe(z.email("Enter a valid email address"));

/** The length rule, for forms; `assertPasswordAllowed` applies the whole policy (the list, patterns, context). */
export const PasswordSchema = z
  .string()
  .min(PASSWORD_MIN, PASSWORD_MESSAGES.short)
  .max(PASSWORD_MAX, PASSWORD_MESSAGES.long);

/** Refuses a password the policy (password-policy.ts) refuses, as a field error on `password`. */
export async function assertPasswordAllowed(password: string, context: PasswordContext): Promise<void> {
  const problem = passwordProblem(password, context, await commonPasswords());
  if (problem) throw invalid(PASSWORD_MESSAGES[problem], [{ field: "password", message: PASSWORD_MESSAGES[problem] }]);
}

export const TierSchema = z.enum(TIERS as [Tier, ...Tier[]]);

export type User = Pick<UserRow, "id" | "email" | "tier" | "status" | "created_at">;

const PUBLIC_COLUMNS = ["id", "email", "tier", "status", "created_at"] as const;

export class AccountNotFoundError extends DomainError {
  constructor(email: string) {
    super("not-found", `No account with the email ${email}`);
  }
}

/** Creates an account directly (the CLI, the demo, tests); the sign-up form goes through signups.server.ts. */
export async function createUser(
  db: Db,
  input: { email: string; password: string; tier?: Tier },
  meta: { ip?: string | null } = {},
): Promise<User> {
  const email = validate(EmailSchema, input.email, "email");
  await assertPasswordAllowed(input.password, { email });
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction().execute((trx) => insertUser(trx, { email, passwordHash, tier: input.tier }, meta));
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict("An account with this email already exists", [
        { field: "email", message: "An account with this email already exists" },
      ]);
    }
    throw error;
  }
}

/** The account row and its `account.created` event; run inside the caller's transaction. */
export async function insertUser(
  trx: Db,
  input: { email: string; passwordHash: string; tier?: Tier },
  meta: { ip?: string | null } = {},
): Promise<User> {
  const now = isoNow();
  const user = {
    id: newId(),
    email: input.email,
    password_hash: input.passwordHash,
    tier: input.tier ?? "free",
    status: "active" as const,
    created_at: now,
    updated_at: now,
  };
  await trx.insertInto("users").values(user).execute();
  await recordAccountEvent(trx, user.id, { action: "account.created", actorUserId: user.id, ip: meta.ip });
  return { id: user.id, email: user.email, tier: user.tier, status: user.status, created_at: now };
}

export function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  return db
    .selectFrom("users")
    .select(PUBLIC_COLUMNS)
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
}

export function findCredentials(db: Db, email: string) {
  return db
    .selectFrom("users")
    .select([...PUBLIC_COLUMNS, "password_hash"])
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
}

async function requireByEmail(db: Db, email: string): Promise<User> {
  const user = await findUserByEmail(db, email);
  if (!user) throw new AccountNotFoundError(email);
  return user;
}

export async function setTier(db: Db, email: string, tier: Tier): Promise<User> {
  const user = await requireByEmail(db, email);
  await db.updateTable("users").set({ tier, updated_at: isoNow() }).where("id", "=", user.id).execute();
  return { ...user, tier };
}

/**
 * Suspending stops the account and the workspaces it owns, in the transaction that changes its status: every
 * session ends, and the workspaces' unfinished SOP runs and unsent completion notices are cancelled (kept, with
 * the reason, for the console). From then on the guards refuse the workspaces' triggers and public site, and
 * the job runner checks before each step (ADR 010). Reactivating lets new triggers in again; what was
 * cancelled stays cancelled — an operator re-runs it knowingly, rather than have stale work fire on undo.
 * `cancelledRuns`: how many runs the suspension cancelled.
 */
export async function setStatus(db: Db, email: string, status: UserStatus): Promise<User & { cancelledRuns: number }> {
  const user = await requireByEmail(db, email);
  const cancelledRuns = await writeAndPurge(db, async (trx, purge) => {
    await trx.updateTable("users").set({ status, updated_at: isoNow() }).where("id", "=", user.id).execute();
    const owned = await trx.selectFrom("workspaces").select("id").where("owner_user_id", "=", user.id).execute();
    // Every site it owns turns into the neutral 503, or back (ADR 026): their workspaces' tags.
    purge(...owned.map((workspace) => cacheTags.workspace(workspace.id)));
    let cancelled = 0;
    if (status === "suspended") {
      await trx.deleteFrom("sessions").where("user_id", "=", user.id).execute();
      for (const workspace of owned) {
        cancelled += await runsOf(trx, workspace.id).cancelUnfinished(CANCELLED_BY_SUSPENSION);
      }
    }
    await recordAccountEvent(trx, user.id, { action: `account.${status}`, actorUserId: null });
    return cancelled;
  });
  return { ...user, status, cancelledRuns };
}

/**
 * Deletes the account and everything it owns, in one transaction: its workspaces (and every tenant row
 * under them, by ON DELETE CASCADE), its memberships elsewhere, sessions and account events. Workspace
 * events it authored elsewhere keep their history with the actor set to null. What is kept by address rather
 * than by account goes too: its account mail (sign-up links and notes, which belong to no workspace), pending
 * sign-ups and invitations. Mail a workspace sent to the address stays: it is that workspace's record (a
 * customer may share the address), and an invitation's stored copy holds no token.
 */
export async function deleteUser(db: Db, userId: string): Promise<void> {
  await writeAndPurge(db, async (trx, purge) => {
    const row = await trx.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirst();
    // Its sites go with its workspaces (ADR 026).
    const owned = await trx.selectFrom("workspaces").select("id").where("owner_user_id", "=", userId).execute();
    purge(...owned.map((workspace) => cacheTags.workspace(workspace.id)));
    // Their files' bytes go after the rows, by a job that spares blobs another workspace shares.
    await queueBlobSweepForOwner(trx, userId);
    // Explicit before the user row, so the order of cascades never depends on the dialect.
    await trx.deleteFrom("workspaces").where("owner_user_id", "=", userId).execute();
    await trx.deleteFrom("users").where("id", "=", userId).execute();
    if (!row) return;
    await trx
      .deleteFrom("mail_messages")
      .where("workspace_id", "is", null)
      .where("to_address", "=", row.email)
      .execute();
    await trx.deleteFrom("signup_requests").where("email", "=", row.email).execute();
    await trx.deleteFrom("workspace_invitations").where("email", "=", row.email).execute();
  });
}

/**
 * Deletes the account (its keys' rate windows go with the keys, by cascade), then forgets its sign-in and
 * invitation throttle counters, which are kept under a hash of the email or id rather than a foreign key.
 */
export async function deleteAccount(
  services: Pick<AppServices, "db" | "authThrottle" | "inviteThrottle"> &
    Partial<Pick<AppServices, "siteDomains" | "workspaceFarewells">>,
  user: Pick<User, "id" | "email">,
) {
  // Its workspaces take their leave of the providers they connected first (the modules' farewells); the CLI,
  // which starts no modules, has none to run, and says so.
  const owned = await services.db.selectFrom("workspaces").select("id").where("owner_user_id", "=", user.id).execute();
  for (const workspace of owned) await services.workspaceFarewells?.run(workspace.id);
  await deleteUser(services.db, user.id);
  // Its workspaces' custom domains stop serving here at once (the CLI has no registry: other nodes, and a
  // server beside the CLI, drop them at their next reload, DOMAINS_REFRESH_MS).
  services.siteDomains?.invalidate();
  await Promise.all([services.authThrottle.forget(user.email), services.inviteThrottle.forget(user.id, user.email)]);
}

/** The account's token-API limits: its tier's, or an Enterprise account's own. */
export async function findRateLimits(db: Db, userId: string): Promise<RateLimits> {
  const row = await db
    .selectFrom("users")
    .select(["tier", "rate_limit_per_hour", "rate_limit_burst"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return rateLimitsOf(row);
}

/** Sets an Enterprise account's own limits (other tiers use their plan's). */
export async function setRateLimits(db: Db, email: string, limits: RateLimits): Promise<User> {
  const user = await requireByEmail(db, email);
  if (user.tier !== "enterprise") {
    throw invalid(`${user.email} is on the ${user.tier} tier; custom limits are for enterprise accounts`);
  }
  await db
    .updateTable("users")
    .set({ rate_limit_per_hour: limits.perHour, rate_limit_burst: limits.burst, updated_at: isoNow() })
    .where("id", "=", user.id)
    .execute();
  return user;
}
