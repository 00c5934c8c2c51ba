/**
 * Roles, shared by the server's checks and the console's rendering (no server-only imports here). The app
 * takes `Role` from here, the tenancy module that owns it; db/schema only states the column's type, which
 * this re-exports so the two cannot drift.
 */
import { ROLES, type Role } from "~db/schema";

export { ROLES, type Role };

/** What can be granted through the console; "owner" is whoever created the workspace. */
export const ASSIGNABLE_ROLES: readonly Role[] = ["admin", "editor", "viewer"];

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(minimum);
}
