/**
 * Invitations, and the workspaces they are sent from (ADR 003). Each invitation is an e-mail to an address
 * the inviter typed, naming a workspace whose name the inviter chose, so without limits the members page
 * would send anyone's mail in bulk. The counters are keyed so that more workspaces buy no more mail:
 * - per inviter, across every workspace they belong to;
 * - per workspace, for a workspace with many admins;
 * - per recipient, across the whole deployment, so that no inbox receives invitations in a stream whoever
 *   sends them. The trade-off: a workspace can learn that an address was invited elsewhere in the hour;
 * - and new workspaces per user, so a workspace's own allowance cannot be multiplied either (the plans also
 *   cap how many a user owns: app/modules/plans/tiers.ts).
 * Fixed numbers rather than settings: an admin who invites more than this in an hour is unusual enough to wait.
 */
import type { DatabaseHandle } from "~db/client";
import { createCounter, refuseIfSpent } from "./counter.server";

export const INVITES_PER_INVITER_PER_HOUR = 20;
export const INVITES_PER_WORKSPACE_PER_HOUR = 50;
export const INVITES_PER_RECIPIENT_PER_HOUR = 3;
export const WORKSPACES_PER_USER_PER_HOUR = 5;

export interface InviteThrottle {
  /** Takes one invitation from the inviter's, the workspace's and the recipient's allowance; 429 when spent. */
  take(workspaceId: string, inviterUserId: string, email: string): Promise<void>;
  /** Takes one new workspace from the user's allowance; 429 when spent. */
  takeWorkspace(userId: string): Promise<void>;
  /** Drops the counters of a deleted account: its own, and those of invitations to its address. */
  forget(userId: string, email: string): Promise<void>;
}

const keyOf = (email: string) => email.trim().toLowerCase();

export function createInviteThrottle(handle: DatabaseHandle): InviteThrottle {
  const hourly = (keyPrefix: string, points: number) =>
    createCounter(handle, { keyPrefix, points, durationSeconds: 3600 });
  // "invite-user", not the earlier "invite-inviter": those rows were keyed per workspace and inviter.
  const byInviter = hourly("invite-user", INVITES_PER_INVITER_PER_HOUR);
  const byWorkspace = hourly("invite-workspace", INVITES_PER_WORKSPACE_PER_HOUR);
  const byRecipient = hourly("invite-recipient", INVITES_PER_RECIPIENT_PER_HOUR);
  const workspacesByUser = hourly("workspace-create", WORKSPACES_PER_USER_PER_HOUR);
  return {
    async take(workspaceId, inviterUserId, email) {
      const states = await Promise.all([
        byInviter.consume(inviterUserId),
        byWorkspace.consume(workspaceId),
        byRecipient.consume(keyOf(email)),
      ]);
      refuseIfSpent(states, "invitations");
    },
    async takeWorkspace(userId) {
      refuseIfSpent([await workspacesByUser.consume(userId)], "new workspaces");
    },
    async forget(userId, email) {
      await Promise.all([byInviter.delete(userId), workspacesByUser.delete(userId), byRecipient.delete(keyOf(email))]);
    },
  };
}
