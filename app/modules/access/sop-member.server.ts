/**
 * First verification of the operator routes under /api/sops (ADR 005): a bearer credential through the
 * token API's verifier chain (API keys now, OAuth tokens later: no second chain), or else the console
 * session with its Origin check. Then membership in the SOP's workspace: none is a 404 (another workspace's
 * record), too low a role a 403.
 */
import type { AppLoadContext } from "@remix-run/node";
import type { Role } from "~/modules/tenancy/roles";
import { defineGuard } from "~/lib/callers.server";
import { forbidden, notFound } from "~/lib/errors";
import type { Actor } from "~/modules/audit/audit.server";
import { runsOf, type RunsRepo } from "~/modules/sops/sop-runs.server";
import { triggersOf, type TriggersRepo } from "~/modules/sops/sop-triggers.server";
import { sopsOf, workspaceOfSop, type SopsRepo } from "~/modules/sops/sops.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { workspaceOf } from "~/modules/tenancy/workspaces.server";
import { authenticateIntegrator } from "./integrator.server";
import { requireOperator } from "./operator.server";

/** The caller, and the SOP module's repositories built for the SOP's workspace. */
export interface SopAccess {
  userId: string;
  role: Role;
  workspaceId: string;
  /** Who acts, for the audit events the repositories record. */
  actor: Actor;
  sops: SopsRepo;
  triggers: TriggersRepo;
  runs: RunsRepo;
}

export const requireSopAccess = defineGuard(
  "operator",
  async function requireSopAccess(
    request: Request,
    context: AppLoadContext,
    sopId: string,
    minimum: Role,
  ): Promise<SopAccess> {
    const { db, secrets } = context.services;
    let userId: string;
    let onlyWorkspace: string | null = null;
    const bearer = request.headers.has("authorization");
    if (bearer) {
      // OAuth tokens may read (read_data); managing SOPs (rotation) is an operator's act, with an API key.
      const integrator = await authenticateIntegrator(request, context, minimum === "viewer" ? "read_data" : undefined);
      userId = integrator.user.id;
      onlyWorkspace = integrator.credential.workspaceId;
    } else {
      userId = (await requireOperator(request, context, "api")).user.id;
    }
    const found = await workspaceOfSop(db, sopId);
    const workspaceId = found?.workspaceId;
    const role =
      workspaceId && (!onlyWorkspace || onlyWorkspace === workspaceId)
        ? await workspaceOf(db, workspaceId).roleOf(userId)
        : undefined;
    if (!found || !workspaceId || !role) throw notFound("No such SOP in your workspaces");
    // A suspended owner's workspace stops for every member's automation (the token API's 403), while its
    // members keep the console, to see what stopped (ADR 003).
    if (bearer && !found.ownerActive) throw forbidden();
    if (!roleAtLeast(role, minimum)) throw forbidden(`This needs the ${minimum} role in the SOP's workspace`);
    return {
      userId,
      role,
      workspaceId,
      actor: { userId, ip: context.request.ip },
      sops: sopsOf(db, workspaceId, secrets),
      triggers: triggersOf(db, workspaceId, secrets),
      runs: runsOf(db, workspaceId),
    };
  },
);
