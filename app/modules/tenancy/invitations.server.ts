/**
 * Invitations to a workspace (ADR 003). Adding a member by e-mail sends an invitation, whether or not an
 * account uses the address, and answers the same either way ("Invitation sent to …"): the members page must
 * not tell an admin who has an account on this server. The link's token is stored as a SHA-256 (DESIGN rule
 * 4), works once, and expires after INVITATION_DAYS; inviting the same address again replaces it.
 */
import type { Db } from "~db/client";
import { isUniqueViolation } from "~db/client";
import { isoNow } from "~/lib/clock.server";
import { conflict, forbidden, invalid, notFound } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { issueLinkToken, unexpiredByToken } from "~/lib/link-tokens.server";
import { withTokensHidden, type Mailer } from "~/modules/mail/mail.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import type { InviteThrottle } from "~/modules/rate-limit/invite-throttle.server";
import { ASSIGNABLE_ROLES, type Role } from "./roles";

export const INVITATION_DAYS = 7;

export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  expiresAt: string;
}

/** One workspace's invitations; `actorUserId` is who acts, for the audit trail. */
export function invitationsOf(db: Db, workspaceId: string) {
  const rows = () =>
    db.selectFrom("workspace_invitations").where("workspace_invitations.workspace_id", "=", workspaceId);

  return {
    /** Records the invitation (replacing a pending one for the address) and returns the token to send. */
    async create(actorUserId: string, input: { email: string; role: Role }): Promise<{ token: string }> {
      if (!ASSIGNABLE_ROLES.includes(input.role))
        throw invalid("Choose a role", [{ field: "role", message: "Choose admin, editor or viewer" }]);
      // Members are listed on the same page, so this answer tells the admin nothing they cannot see.
      const member = await db
        .selectFrom("workspace_members")
        .innerJoin("users", "users.id", "workspace_members.user_id")
        .select("users.id")
        .where("workspace_members.workspace_id", "=", workspaceId)
        .where("users.email", "=", input.email)
        .executeTakeFirst();
      if (member) throw conflict("Already a member", [{ field: "email", message: "This person is already a member" }]);
      const link = issueLinkToken(INVITATION_DAYS * 86_400_000);
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom("workspace_invitations")
          .where("workspace_id", "=", workspaceId)
          .where("email", "=", input.email)
          .execute();
        const id = newId();
        await trx
          .insertInto("workspace_invitations")
          .values({
            id,
            workspace_id: workspaceId,
            email: input.email,
            role: input.role,
            token_hash: link.tokenHash,
            invited_by_user_id: actorUserId,
            expires_at: link.expiresAt,
            created_at: link.createdAt,
          })
          .execute();
        // The invitation's id, not the address: deleting an account leaves no row naming its e-mail.
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "member.invited",
          actorUserId,
          detail: { invitation: id, role: input.role },
        });
      });
      return { token: link.token };
    },

    /** Invitations not yet accepted, revoked or expired, newest first. */
    pending: (): Promise<PendingInvitation[]> =>
      rows()
        .leftJoin("users", "users.id", "workspace_invitations.invited_by_user_id")
        .select([
          "workspace_invitations.id",
          "workspace_invitations.email",
          "workspace_invitations.role",
          "users.email as invitedBy",
          "workspace_invitations.expires_at as expiresAt",
        ])
        .where("workspace_invitations.expires_at", ">", isoNow())
        .orderBy("workspace_invitations.created_at", "desc")
        .execute(),

    async revoke(actorUserId: string, invitationId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const row = await trx
          .deleteFrom("workspace_invitations")
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", invitationId)
          .returning(["id", "role"])
          .executeTakeFirst();
        if (!row) throw notFound("That invitation was not found; it may have been accepted or revoked already");
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "member.invitation_revoked",
          actorUserId,
          detail: { invitation: row.id, role: row.role },
        });
      });
    },
  };
}

/**
 * Invites `email` to the workspace and e-mails the link; throttled per inviter, workspace and recipient. The answer
 * does not depend on whether an account uses the address.
 */
export async function inviteMember(
  services: { db: Db; mailer: Mailer; inviteThrottle: InviteThrottle },
  workspace: { id: string; name: string },
  inviterUserId: string,
  input: { email: string; role: Role },
  origin: string,
): Promise<void> {
  await services.inviteThrottle.take(workspace.id, inviterUserId, input.email);
  const { token } = await invitationsOf(services.db, workspace.id).create(inviterUserId, input);
  const article = input.role === "admin" ? "an" : "a";
  // The mail names the workspace, not the inviter: it stays in the workspace's outbox, and must not keep the
  // address of an inviter who later deletes their account.
  const text = [
    `You are invited to join ${workspace.name} on Atrium as ${article} ${input.role}.`,
    "",
    "To accept, open this link (you can sign in, or create an account with this address, on the way):",
    `${origin}/invitations?token=${token}`,
    "",
    `It works once, for ${INVITATION_DAYS} days. If you did not expect it, ignore this message.`,
  ].join("\n");
  // The workspace's outbox and the mail table keep the message without the token: the link is a credential.
  await services.mailer.send({
    workspaceId: workspace.id,
    to: input.email,
    subject: `You are invited to ${workspace.name} on Atrium`,
    text,
    storedText: withTokensHidden(text),
  });
}

const gone = () => notFound("This invitation has expired, was revoked, or was already used. Ask for a new one.");

/**
 * The invitation a link names. The token is the secret that names it, as an OAuth code names its grant, so
 * this is the one lookup not scoped by workspace.
 */
const byToken = (db: Db, token: string) =>
  unexpiredByToken(token, (tokenHash) =>
    db
      .selectFrom("workspace_invitations as i")
      .innerJoin("workspaces as w", "w.id", "i.workspace_id")
      .select(["i.id", "i.workspace_id as workspaceId", "w.name as workspaceName", "i.email", "i.role", "i.expires_at"])
      .where("i.token_hash", "=", tokenHash)
      .executeTakeFirst(),
  );

/** What the accept page shows: the workspace, the role, and the address the invitation is for. */
export async function invitationOfToken(db: Db, token: string) {
  const row = await byToken(db, token);
  if (!row) throw gone();
  return { workspaceName: row.workspaceName, email: row.email, role: row.role };
}

/**
 * Accepts the invitation as the signed-in `user`, whose address must be the invited one: a forwarded link
 * does not let another account in. Membership, the invitation's removal and the audit event are one
 * transaction; the link cannot be used twice.
 */
export async function acceptInvitation(
  db: Db,
  token: string,
  user: { id: string; email: string },
): Promise<{ workspaceId: string }> {
  const row = await byToken(db, token);
  if (!row) throw gone();
  if (row.email !== user.email.toLowerCase()) {
    throw forbidden(`This invitation is for ${row.email}. Sign in with that address to accept it.`);
  }
  try {
    await db.transaction().execute(async (trx) => {
      const taken = await trx.deleteFrom("workspace_invitations").where("id", "=", row.id).executeTakeFirst();
      if (Number(taken.numDeletedRows) !== 1) throw gone();
      await trx
        .insertInto("workspace_members")
        .values({ workspace_id: row.workspaceId, user_id: user.id, role: row.role, created_at: isoNow() })
        .execute();
      await recordWorkspaceEvent(trx, row.workspaceId, {
        action: "member.added",
        actorUserId: user.id,
        targetUserId: user.id,
        detail: { role: row.role, invitation: row.id },
      });
    });
  } catch (error) {
    // Already a member (added another way meanwhile): the invitation has nothing left to do.
    if (!isUniqueViolation(error)) throw error;
    await db.deleteFrom("workspace_invitations").where("id", "=", row.id).execute();
  }
  return { workspaceId: row.workspaceId };
}

/** Housekeeping (the job runner's maintenance): invitations that expired unaccepted. */
export async function purgeExpiredInvitations(db: Db): Promise<void> {
  await db.deleteFrom("workspace_invitations").where("expires_at", "<=", isoNow()).execute();
}
