/** Owned by `app/modules/tenancy` (workspaces and their members). Created in 0001-foundation. */
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

export interface TenancyTables {
  workspaces: WorkspacesTable;
  workspace_members: WorkspaceMembersTable;
}

export type WorkspaceRow = Selectable<WorkspacesTable>;
