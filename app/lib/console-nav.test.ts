/** The sidebar's rules (ADR 015): workspace pages need a selected workspace and the role each entry names. */
import { describe, expect, it } from "vitest";
import { CONSOLE_NAV, visibleSections, type ConsoleSection } from "./console-nav";
import { CONSOLE_SEGMENTS } from "./console-pages";
import { consoleNotFoundRoutes } from "~/console/not-found-routes";

const labels = (sections: ConsoleSection[]) => sections.flatMap((s) => s.entries.map((e) => e.label));

describe("visibleSections", () => {
  it("shows only the account's pages without a selected workspace, and drops sections left empty", () => {
    const sections = visibleSections(null);
    expect(labels(sections)).toEqual(["Workspaces", "API keys", "OAuth apps", "Connected apps"]);
    expect(sections.map((s) => s.label)).not.toContain("Automation");
  });

  it("shows a workspace's viewer every page that needs no higher role, and its owner every page", () => {
    const all = CONSOLE_NAV.flatMap((s) => s.entries);
    expect(labels(visibleSections("viewer"))).toEqual(
      all.filter((e) => (e.role ?? "viewer") === "viewer").map((e) => e.label),
    );
    expect(labels(visibleSections("owner"))).toEqual(all.map((e) => e.label));
  });

  it("hides an entry from a role below the one it declares", () => {
    const nav: ConsoleSection[] = [
      {
        label: "Website",
        entries: [
          { label: "Pages", to: "/website", scope: "workspace", role: "editor" },
          { label: "Domains", to: "/website/domains", scope: "workspace", role: "admin" },
        ],
      },
    ];
    expect(labels(visibleSections("viewer", nav))).toEqual([]);
    expect(labels(visibleSections("editor", nav))).toEqual(["Pages"]);
    expect(labels(visibleSections("owner", nav))).toEqual(["Pages", "Domains"]);
  });

  it("links only to console paths: the home page or one under a console segment", () => {
    for (const entry of CONSOLE_NAV.flatMap((s) => s.entries)) {
      const first = entry.to.split("/")[1] ?? "";
      expect(entry.to === "/" || (CONSOLE_SEGMENTS as readonly string[]).includes(first), entry.to).toBe(true);
    }
  });
});

describe("the console's 404 routes", () => {
  it("cover every console segment, inside the console layout", () => {
    const routes = Object.values(consoleNotFoundRoutes());
    expect(routes.map((r) => r.path).sort()).toEqual(CONSOLE_SEGMENTS.map((s) => `${s}/*`).sort());
    for (const route of routes) expect(route.parentId).toBe("routes/_console");
  });
});
