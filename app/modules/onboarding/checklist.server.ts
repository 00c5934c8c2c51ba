/**
 * The get-started checklist. Each item is ticked from the workspace's real state, never by a click, and
 * links to the page where it is done. Later capabilities append their own item here (branding set, first
 * page published, API key created) once their page exists: the list only links to pages that exist.
 */
import type { Db } from "~db/client";
import type { Tier } from "~db/schema";
import { apiKeysOf } from "~/modules/api-keys/api-keys.server";
import type { Workspace, WorkspaceRepo } from "~/modules/tenancy/workspaces.server";

export interface ChecklistItem {
  id: string;
  title: string;
  description: string;
  done: boolean;
  href: string;
  action: string;
}

export async function checklistFor(
  db: Db,
  access: { workspace: Pick<Workspace, "slug">; repo: WorkspaceRepo },
  operator: { id: string; tier: Tier },
): Promise<ChecklistItem[]> {
  const [members, activeKeys] = await Promise.all([access.repo.listMembers(), apiKeysOf(db, operator).activeCount()]);
  const { slug } = access.workspace;
  return [
    {
      id: "workspace",
      title: "Create your workspace",
      description: `Your business has a console and a public site at /${slug}.`,
      done: true,
      href: "/settings",
      action: "Review name and address",
    },
    {
      id: "team",
      title: "Invite a teammate",
      description: "Add someone who already has an Atrium account, as an admin, editor or viewer.",
      done: members.length > 1,
      href: "/settings#members",
      action: "Add a member",
    },
    {
      id: "api-key",
      title: "Connect your tools with an API key",
      description: "Integrations call Atrium's token API with a key of yours.",
      done: activeKeys > 0,
      href: "/settings/api-keys",
      action: "Generate a key",
    },
  ];
}
