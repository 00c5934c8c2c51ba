/**
 * The editor's auth state (`/api/editor/session`): who is signed in and which workspace the console works
 * on. The desktop shell and editor surfaces read it; switching workspace goes through the same membership
 * check as the picker.
 */
import type { AppLoadContext } from "@remix-run/node";
import { notFound } from "~/lib/errors";
import { selectWorkspace, type OperatorSession } from "~/modules/auth/sessions.server";
import { workspaceOf } from "./workspaces.server";

export async function editorState(context: AppLoadContext, session: OperatorSession) {
  const { db } = context.services;
  const membership = session.selectedWorkspaceId
    ? await workspaceOf(db, session.selectedWorkspaceId).withRoleOf(session.user.id)
    : undefined;
  const workspace = membership?.workspace;
  return {
    user: { id: session.user.id, email: session.user.email, tier: session.user.tier },
    workspace: workspace
      ? { id: workspace.id, slug: workspace.slug, name: workspace.name, role: membership.role }
      : null,
  };
}

export async function switchWorkspace(context: AppLoadContext, session: OperatorSession, workspaceId: string) {
  const { db } = context.services;
  // Another workspace's id answers exactly like one that does not exist (no existence oracle).
  if (!(await workspaceOf(db, workspaceId).roleOf(session.user.id))) throw notFound("No such workspace");
  await selectWorkspace(db, session.id, workspaceId);
  return editorState(context, { ...session, selectedWorkspaceId: workspaceId });
}
