/**
 * Scoped manage tokens (ADR 029): a link sent by e-mail that lets its holder act on one record without an
 * account — view and reply to a ticket now; view or cancel an order, reschedule a booking with commerce and
 * scheduling, which issue them through `issueManageToken`. One record, one set of actions, stored as its
 * SHA-256 (DESIGN rule 4), expiring, revocable. The link lands on `/portal/callback`, which moves the token
 * into a cookie of its site (so it leaves the address bar and the history) and goes to the record's page.
 */
import { z } from "zod";
import type { Db } from "~db/client";
import { addDays, isoNow, now } from "~/lib/clock.server";
import { forbidden } from "~/lib/errors";
import { sha256Base64url } from "~/lib/hash.server";
import { newSecret } from "~/lib/ids.server";

export const MANAGE_ACTIONS = ["view", "reply", "close", "cancel", "reschedule"] as const;
export type ManageAction = (typeof MANAGE_ACTIONS)[number];
export type ManageSubject = "ticket" | "order" | "booking";

export interface ManageGrant {
  workspaceId: string;
  subjectType: ManageSubject;
  subjectId: string;
  actions: ManageAction[];
  email: string;
  expiresAt: string;
}

const Actions = z.array(z.enum(MANAGE_ACTIONS));

/** Issues a token for one record; answers the secret for the e-mail's link (shown nowhere else). */
export async function issueManageToken(
  db: Db,
  workspaceId: string,
  grant: { subjectType: ManageSubject; subjectId: string; actions: ManageAction[]; email: string; days: number },
): Promise<string> {
  const token = newSecret();
  const at = now();
  await db
    .insertInto("manage_tokens")
    .values({
      id: sha256Base64url(token),
      workspace_id: workspaceId,
      subject_type: grant.subjectType,
      subject_id: grant.subjectId,
      actions: JSON.stringify(grant.actions),
      email: grant.email.toLowerCase(),
      created_at: at.toISOString(),
      expires_at: addDays(at, grant.days).toISOString(),
      revoked_at: null,
      last_used_at: null,
    })
    .execute();
  return token;
}

/**
 * What a token grants, while it is live; undefined for an unknown, expired or revoked one. The token is the
 * credential, so it alone names its workspace; callers compare that with the site the request is for.
 */
export async function grantOfToken(db: Db, token: string): Promise<ManageGrant | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const row = await db
    .selectFrom("manage_tokens")
    .selectAll()
    .where("id", "=", sha256Base64url(token))
    .executeTakeFirst();
  if (!row || row.revoked_at !== null || row.expires_at <= isoNow()) return undefined;
  const actions = Actions.safeParse(JSON.parse(row.actions));
  return {
    workspaceId: row.workspace_id,
    subjectType: row.subject_type as ManageSubject,
    subjectId: row.subject_id,
    actions: actions.success ? actions.data : [],
    email: row.email,
    expiresAt: row.expires_at,
  };
}

/** Refuses an action the grant does not name (403: the holder is known, the act is not theirs). */
export function assertGrants(grant: ManageGrant, action: ManageAction): void {
  if (!grant.actions.includes(action)) throw forbidden("This link does not allow that");
}

/** Marks a token used (the console shows when a link was last opened). */
export async function touchManageToken(db: Db, token: string): Promise<void> {
  await db
    .updateTable("manage_tokens")
    .set({ last_used_at: isoNow() })
    .where("id", "=", sha256Base64url(token))
    .execute();
}

/** Revokes every live token of one record (the business's "revoke links", or the record is closed for good). */
export async function revokeManageTokens(
  db: Db,
  workspaceId: string,
  subjectType: ManageSubject,
  subjectId: string,
): Promise<number> {
  const result = await db
    .updateTable("manage_tokens")
    .set({ revoked_at: isoNow() })
    .where("workspace_id", "=", workspaceId)
    .where("subject_type", "=", subjectType)
    .where("subject_id", "=", subjectId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Housekeeping: tokens a month past their expiry or revocation. */
export async function purgeExpiredManageTokens(db: Db): Promise<void> {
  const before = addDays(now(), -30).toISOString();
  await db
    .deleteFrom("manage_tokens")
    .where((eb) => eb.or([eb("expires_at", "<", before), eb("revoked_at", "<", before)]))
    .execute();
}
