/**
 * The token API's side of chat (ADR 037): an integrator (API key, or OAuth access token with `read_data`) talks
 * about one workspace it is a member of, with the member's role and the account's plan. Which workspace: the one
 * a key is restricted to, or the request's `workspace` (slug or id), or the account's only one. Another
 * workspace — unknown, not a member, or not the key's — is the spec's 403, never a hint that it exists.
 */
import type { AppLoadContext } from "@remix-run/node";
import { forbidden, invalid } from "~/lib/errors";
import type { Integrator } from "~/modules/auth/bearer.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { findWorkspaceBySlug, workspacesOfUser } from "~/modules/tenancy/workspaces.server";
import { toolContextFor } from "./context.server";
import { conversationsOf, type ConversationsRepo } from "./conversations.server";
import type { Turn } from "./turn.server";
import type { ChatCaller, ChatTool, ToolContext } from "./tools";

export interface OperatorChat {
  context: ToolContext;
  conversations: ConversationsRepo;
}

/** The workspace an integrator's chat request is about, with its role there; 400 or 403 otherwise. */
async function workspaceFor(context: AppLoadContext, integrator: Integrator, ref: string | undefined) {
  const { db } = context.services;
  const mine = await workspacesOfUser(db, integrator.user.id);
  const restricted = integrator.credential.workspaceId;
  let chosen: (typeof mine)[number] | undefined;
  if (ref) {
    chosen = mine.find((w) => w.id === ref || w.slug === ref.toLowerCase());
    if (!chosen || (restricted && chosen.id !== restricted)) throw forbidden();
  } else if (restricted) {
    chosen = mine.find((w) => w.id === restricted);
    if (!chosen) throw forbidden();
  } else if (mine.length === 1) {
    chosen = mine[0];
  } else {
    const message =
      mine.length === 0
        ? "This account has no workspace to talk about"
        : `Say which workspace: ${mine.map((w) => w.slug).join(", ")}`;
    throw invalid(message, [{ field: "workspace", message }]);
  }
  // A suspended owner's workspace stops for every member's automation (ADR 003), chat included.
  const found = await findWorkspaceBySlug(db, chosen!.slug);
  if (!found?.ownerActive) throw forbidden();
  return chosen!;
}

/** The integrator's conversation context in the workspace `ref` names (or the only one it may mean). */
export async function operatorChat(
  request: Request,
  context: AppLoadContext,
  integrator: Integrator,
  ref: string | undefined,
): Promise<OperatorChat> {
  const { services } = context;
  const workspace = await workspaceFor(context, integrator, ref);
  const caller: ChatCaller = {
    kind: "operator",
    userId: integrator.user.id,
    role: workspace.role,
    tier: integrator.user.tier,
    credential: integrator.credential.kind,
  };
  return {
    context: await toolContextFor(request, context, workspace, caller),
    conversations: conversationsOf(services.db, workspace.id, "integrator", {
      kind: "user",
      userId: integrator.user.id,
    }),
  };
}

/** Whether an operator may run `tool`: their role, their plan's tier, and for a writing tool an API key. */
export function operatorMayRun(caller: Extract<ChatCaller, { kind: "operator" }>, tool: ChatTool): boolean {
  if (!tool.audience.includes("operator")) return false;
  if (!roleAtLeast(caller.role, tool.role ?? "viewer")) return false;
  if (tool.tiers && !tool.tiers.includes(caller.tier)) return false;
  return !(tool.writes && caller.credential !== "api_key");
}

/** A turn of the integrator's conversation: its tools, allowance and engine. */
export function operatorTurn(context: AppLoadContext, chat: OperatorChat): Turn {
  const { services } = context;
  const caller = chat.context.caller as Extract<ChatCaller, { kind: "operator" }>;
  return {
    context: chat.context,
    conversations: chat.conversations,
    tools: services.chat.all().filter((t) => t.audience.includes("operator")),
    permitted: (tool) => operatorMayRun(caller, tool),
    take: () => services.chatThrottle.takeOperatorMessage(caller.userId, caller.tier),
    model: services.chat.model,
    timeoutMs: services.env.AI_TIMEOUT_MS,
    headers: {},
    logError: (error) => context.request.logger.error({ err: error }, "chat answer failed"),
  };
}
