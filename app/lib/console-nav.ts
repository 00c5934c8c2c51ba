/**
 * The console's sidebar, as data: one place where a module adds its section (ADR 015, docs/adding-a-module.md).
 * Only pages that exist are listed — a section appears with the issue that builds its first page, so the
 * sidebar has no dead links; a console path not built yet answers the console's 404 (app/console-not-found.tsx).
 * Plain data (no server imports): the shell renders it, and a unit test checks its rules.
 */
import { roleAtLeast, type Role } from "~/modules/tenancy/roles";

export interface ConsoleEntry {
  label: string;
  to: string;
  /** Marked current only on this exact path (an index such as `/settings`), not on the paths below it. */
  end?: boolean;
  /**
   * "workspace": the page works on the selected workspace, so it is hidden until one is selected.
   * "account": the page belongs to the signed-in operator and is always shown.
   */
  scope: "workspace" | "account";
  /** The least role the page's loader requires of the operator in the selected workspace (viewer if absent). */
  role?: Role;
}

export interface ConsoleSection {
  /** Shown above the section's entries; the first section (Home) has none. */
  label?: string;
  entries: readonly ConsoleEntry[];
}

/**
 * In the order the sidebar shows them: Home first, then the business's areas (Website, Customers, Inbox, Shop,
 * Scheduling, … as their issues land, each before Automation), Settings last.
 */
export const CONSOLE_NAV: readonly ConsoleSection[] = [
  {
    entries: [
      { label: "Workspaces", to: "/", end: true, scope: "account" },
      { label: "Get started", to: "/get-started", scope: "workspace" },
    ],
  },
  {
    label: "Website",
    entries: [
      { label: "Pages", to: "/website", end: true, scope: "workspace" },
      { label: "Branding", to: "/website/branding", scope: "workspace", role: "admin" },
      { label: "Media", to: "/website/media", scope: "workspace" },
      { label: "Business profile", to: "/website/profile", scope: "workspace", role: "admin" },
      { label: "Policies", to: "/website/policies", scope: "workspace" },
      { label: "Discovery", to: "/discovery", scope: "workspace" },
    ],
  },
  {
    label: "Customers",
    entries: [
      { label: "Customers", to: "/customers", end: true, scope: "workspace" },
      { label: "Inbox", to: "/inbox", scope: "workspace" },
    ],
  },
  {
    label: "Shop",
    entries: [
      { label: "Products", to: "/shop", end: true, scope: "workspace" },
      { label: "Orders", to: "/shop/orders", scope: "workspace" },
      { label: "Shipping", to: "/shipping", scope: "workspace" },
    ],
  },
  {
    label: "Scheduling",
    entries: [
      { label: "Calendar", to: "/scheduling", end: true, scope: "workspace" },
      { label: "Bookings", to: "/scheduling/bookings", scope: "workspace" },
      { label: "Services", to: "/scheduling/services", scope: "workspace" },
      { label: "Availability", to: "/scheduling/availability", scope: "workspace" },
    ],
  },
  {
    label: "Automation",
    entries: [{ label: "SOPs", to: "/settings/sops", scope: "workspace" }],
  },
  {
    label: "Settings",
    entries: [
      { label: "Workspace & members", to: "/settings", end: true, scope: "workspace" },
      { label: "Outbox", to: "/settings/outbox", scope: "workspace" },
      { label: "Site visibility", to: "/settings/site", scope: "workspace", role: "admin" },
      { label: "Domains", to: "/settings/domains", scope: "workspace", role: "admin" },
      { label: "Event receivers", to: "/settings/webhooks", scope: "workspace", role: "admin" },
      { label: "Payments", to: "/settings/integrations/payments", scope: "workspace", role: "admin" },
      { label: "Shipping labels", to: "/settings/integrations/shipping", scope: "workspace", role: "admin" },
      { label: "Page status", to: "/settings/page-status", scope: "workspace" },
      { label: "API keys", to: "/settings/api-keys", scope: "account" },
      { label: "OAuth apps", to: "/settings/integrations/oauth-apps", scope: "account" },
      { label: "Connected apps", to: "/settings/integrations/connected-apps", scope: "account" },
    ],
  },
];

/** The account menu, apart from the sidebar's sections (plus "Sign out", a form, not a link). */
export const ACCOUNT_NAV: readonly ConsoleEntry[] = [{ label: "Account", to: "/settings/account", scope: "account" }];

/**
 * The sections an operator sees: without a selected workspace only the account's pages; with one, the pages
 * their role there opens. A section left with no entry is not shown at all.
 */
export function visibleSections(role: Role | null, nav: readonly ConsoleSection[] = CONSOLE_NAV): ConsoleSection[] {
  return nav
    .map((section) => ({
      ...section,
      entries: section.entries.filter((entry) =>
        entry.scope === "account" ? true : role !== null && roleAtLeast(role, entry.role ?? "viewer"),
      ),
    }))
    .filter((section) => section.entries.length > 0);
}
