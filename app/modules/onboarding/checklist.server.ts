/**
 * The get-started checklist. Each item is ticked from the workspace's real state, never by a click, and
 * links to the page where it is done. Later capabilities append their own item here (branding set, first
 * page published, API key created) once their page exists: the list only links to pages that exist.
 */
import type { WorkspaceRepo } from "~/modules/tenancy/workspaces.server";

export interface ChecklistItem {
  id: string;
  title: string;
  description: string;
  done: boolean;
  href: string;
  action: string;
}

export async function checklistFor(repo: WorkspaceRepo): Promise<ChecklistItem[]> {
  const [workspace, members] = await Promise.all([repo.get(), repo.listMembers()]);
  const slug = workspace?.slug ?? "";
  return [
    {
      id: "workspace",
      title: "Create your workspace",
      description: `Your business has a console and a public site at /${slug}.`,
      done: workspace !== undefined,
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
  ];
}
