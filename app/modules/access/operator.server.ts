/**
 * The operator guards (ADR 005): first verification for operator pages and the console's internal APIs, in
 * one call (the spec's "operator session, selected workspace, membership, role"). Pages are redirected to
 * sign in or to the picker; API routes get the error contract's 401/403.
 */
import { redirect, type AppLoadContext } from "@remix-run/node";
import type { Role } from "~/modules/tenancy/roles";
import { defineGuard } from "~/lib/callers.server";
import { forbidden, unauthenticated } from "~/lib/errors";
import { assertSameOrigin } from "~/modules/auth/origin.server";
import { readSession, selectWorkspace, type OperatorSession } from "~/modules/auth/sessions.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { workspaceOf, workspacesOfUser, type Workspace, type WorkspaceRepo } from "~/modules/tenancy/workspaces.server";

type Mode = "page" | "api";

export interface WorkspaceAccess {
  session: OperatorSession;
  workspace: Workspace;
  role: Role;
  repo: WorkspaceRepo;
}

function signIn(request: Request, context: AppLoadContext, mode: Mode): never {
  if (mode === "api") throw unauthenticated("Sign in to the console first");
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  throw redirect(back === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(back)}`);
}

/** The signed-in operator (and the Origin check on unsafe methods). */
export const requireOperator = defineGuard(
  "operator",
  async function requireOperator(
    request: Request,
    context: AppLoadContext,
    mode: Mode = "page",
  ): Promise<OperatorSession> {
    assertSameOrigin(request, context);
    const session = await readSession(request, context);
    if (!session) {
      context.request.log.failure = "authorization";
      return signIn(request, context, mode);
    }
    return session;
  },
);

/** The operator, their selected workspace, their membership in it, and at least `minimum` role. */
export const requireWorkspace = defineGuard(
  "operator",
  async function requireWorkspace(
    request: Request,
    context: AppLoadContext,
    minimum: Role = "viewer",
    mode: Mode = "page",
  ): Promise<WorkspaceAccess> {
    const session = await requireOperator(request, context, mode);
    const { db } = context.services;
    const noWorkspace = () => {
      if (mode === "api") throw forbidden("Select a workspace in the console first");
      throw redirect("/");
    };
    if (!session.selectedWorkspaceId) return noWorkspace();
    const repo = workspaceOf(db, session.selectedWorkspaceId);
    const membership = await repo.withRoleOf(session.user.id);
    if (!membership) {
      await selectWorkspace(db, session.id, null);
      return noWorkspace();
    }
    if (!roleAtLeast(membership.role, minimum)) {
      throw forbidden();
    }
    return { session, ...membership, repo };
  },
);

const workspacesOfRequest = new WeakMap<object, ReturnType<typeof workspacesOfUser>>();

/**
 * The operator's workspaces with their roles, read once per HTTP request: the console layout and the page
 * inside it both need the list, and their loaders run in parallel.
 */
export function operatorWorkspaces(context: AppLoadContext, session: OperatorSession) {
  let list = workspacesOfRequest.get(context.request);
  if (!list) {
    list = workspacesOfUser(context.services.db, session.user.id);
    workspacesOfRequest.set(context.request, list);
  }
  return list;
}
