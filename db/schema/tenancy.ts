/**
 * Owned by `app/modules/tenancy` (workspaces, their members and invitations). `workspaces` and
 * `workspace_members` created in 0001-foundation, `workspace_invitations` in 0013-tenancy-invitations,
 * `workspace_previous_slugs` in 0020-tenancy-previous-slugs.
 */
import type { Selectable } from "kysely";

export type Role = "owner" | "admin" | "editor" | "viewer";
/** Ordered from least to most privileged: a role satisfies every role at or before it. */
export const ROLES: readonly Role[] = ["viewer", "editor", "admin", "owner"];

export interface WorkspacesTable {
  id: string;
  owner_user_id: string;
  slug: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface WorkspaceMembersTable {
  workspace_id: string;
  user_id: string;
  role: Role;
  created_at: string;
}

/** An e-mailed invitation to join a workspace, pending until accepted, revoked or expired. */
export interface WorkspaceInvitationsTable {
  id: string;
  workspace_id: string;
  /** Lower-cased; one pending invitation per address and workspace. */
  email: string;
  role: Role;
  /** SHA-256 (base64url) of the link's token; the token itself is only in the e-mail. */
  token_hash: string;
  invited_by_user_id: string | null;
  expires_at: string;
  created_at: string;
}

/** A former site address: answers 301 to the workspace's current one, and is reserved, until `expires_at`. */
export interface WorkspacePreviousSlugsTable {
  slug: string;
  workspace_id: string;
  moved_at: string;
  expires_at: string;
}

export interface TenancyTables {
  workspaces: WorkspacesTable;
  workspace_members: WorkspaceMembersTable;
  workspace_invitations: WorkspaceInvitationsTable;
  workspace_previous_slugs: WorkspacePreviousSlugsTable;
}

export type WorkspaceRow = Selectable<WorkspacesTable>;
