/**
 * The get-started checklist. Each item is ticked from the workspace's real state, never by a click, and
 * links to the page where it is done. Later capabilities append their own item here once their page exists:
 * the list only links to pages that exist.
 */
import { schedulingSetup } from "~/modules/scheduling/setup.server";
import type { Db } from "~db/client";
import type { Tier } from "~db/schema";
import { apiKeysOf } from "~/modules/api-keys/api-keys.server";
import { shopReadiness } from "~/modules/commerce/readiness.server";
import { type Branding, brandingOf, DEFAULT_BRANDING } from "~/modules/sites/branding.server";
import { pagesOf, publishedPage } from "~/modules/sites/pages.server";
import type { Workspace, WorkspaceRepo } from "~/modules/tenancy/workspaces.server";

export interface ChecklistItem {
  id: string;
  title: string;
  description: string;
  done: boolean;
  href: string;
  action: string;
}

/**
 * Whether the site no longer wears the default look: a logo, favicon or social image, or colours, fonts or
 * corners of its own. Not "a branding row exists": starting a brand import makes one with the defaults, and an
 * import that fails or finds nothing must not tick the step.
 */
function hasOwnLook(branding: Branding): boolean {
  const d = DEFAULT_BRANDING;
  return (
    branding.logoId !== null ||
    branding.faviconId !== null ||
    branding.socialImageId !== null ||
    (Object.keys(d.colors) as (keyof Branding["colors"])[]).some((k) => branding.colors[k] !== d.colors[k]) ||
    branding.headingFont !== d.headingFont ||
    branding.bodyFont !== d.bodyFont ||
    branding.corners !== d.corners
  );
}

export async function checklistFor(
  db: Db,
  access: { workspace: Pick<Workspace, "id" | "slug">; repo: WorkspaceRepo },
  operator: { id: string; tier: Tier },
): Promise<ChecklistItem[]> {
  const { id, slug } = access.workspace;
  const [members, activeKeys, branding, pages, home, shop, scheduling] = await Promise.all([
    access.repo.listMembers(),
    apiKeysOf(db, operator).activeCount(),
    brandingOf(db, id).get(),
    pagesOf(db, id).count(),
    publishedPage(db, id, { home: true }),
    shopReadiness(db, id),
    schedulingSetup(db, id),
  ]);
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
      id: "brand",
      title: "Make the site look like your business",
      description: "Add your logo and colours, or import them from the website you have today.",
      done: hasOwnLook(branding),
      href: "/website/branding",
      action: "Set up your brand",
    },
    {
      id: "first-page",
      title: "Build your first page",
      description: "Start with a home page: a headline, a few words about you, photos and a way to get in touch.",
      done: pages > 0,
      href: pages > 0 ? "/website" : "/website/pages/new",
      action: pages > 0 ? "See your pages" : "Create a page",
    },
    {
      id: "publish",
      title: "Publish your site",
      description: `Publish your home page, and visitors to /${slug} see your site instead of a welcome that says it is on its way.`,
      done: home !== null,
      href: "/website",
      action: "Publish a home page",
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
    // The shop's readiness (ADR 030): the same items the Shop page shows.
    ...shop,
    // Bookings (ADR 036): who is booked and when, and a service to book.
    ...scheduling,
  ];
}
