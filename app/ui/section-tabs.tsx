/**
 * The tabs of a console area with several pages (Discovery: pages, redirects, llms.txt, IndexNow): links, not
 * ARIA tabs, since each is a page of its own with its own address. The current one is marked for assistive
 * technology by NavLink's `aria-current="page"`.
 */
import { NavLink } from "@remix-run/react";

export interface SectionTab {
  label: string;
  to: string;
  /** Current only on this exact path (the area's index), not on the paths below it. */
  end?: boolean;
}

export function SectionTabs({ label, tabs }: { label: string; tabs: readonly SectionTab[] }) {
  return (
    <nav className="section-tabs" aria-label={label}>
      <ul>
        {tabs.map((tab) => (
          <li key={tab.to}>
            <NavLink to={tab.to} end={tab.end} prefetch="intent">
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The Discovery area's pages, in the order its tab bar shows them. */
export const DISCOVERY_TABS: readonly SectionTab[] = [
  { label: "Search appearance", to: "/discovery", end: true },
  { label: "Redirects", to: "/discovery/redirects" },
  { label: "llms.txt", to: "/discovery/llms" },
  { label: "IndexNow", to: "/discovery/indexnow" },
];
