/**
 * Invitations sent per inviter in a workspace, and per workspace: each one is an e-mail to an address the
 * inviter typed, so without a limit the members page would be a way to send mail to anyone in bulk. Fixed
 * numbers rather than settings: an admin who invites more than this in an hour is unusual enough to wait.
 */
import type { DatabaseHandle } from "~db/client";
import { rateLimited } from "~/lib/errors";
import { createCounter } from "./counter.server";

export const INVITES_PER_INVITER_PER_HOUR = 20;
export const INVITES_PER_WORKSPACE_PER_HOUR = 50;

export interface InviteThrottle {
  /** Takes one invitation from the inviter's and the workspace's allowance; throws the 429 when either is spent. */
  take(workspaceId: string, inviterUserId: string): Promise<void>;
}

export function createInviteThrottle(handle: DatabaseHandle): InviteThrottle {
  const byInviter = createCounter(handle, {
    keyPrefix: "invite-inviter",
    points: INVITES_PER_INVITER_PER_HOUR,
    durationSeconds: 3600,
  });
  const byWorkspace = createCounter(handle, {
    keyPrefix: "invite-workspace",
    points: INVITES_PER_WORKSPACE_PER_HOUR,
    durationSeconds: 3600,
  });
  return {
    async take(workspaceId, inviterUserId) {
      const states = await Promise.all([
        byInviter.consume(`${workspaceId}\n${inviterUserId}`),
        byWorkspace.consume(workspaceId),
      ]);
      const waitMs = Math.max(0, ...states.filter((s) => s.refused).map((s) => s.msBeforeNext));
      if (waitMs > 0) {
        const minutes = Math.ceil(waitMs / 60_000);
        throw rateLimited(
          waitMs / 1000,
          `Too many invitations. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
        );
      }
    },
  };
}
