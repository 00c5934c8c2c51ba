/**
 * What refreshes a cached public answer, tag by tag (issue 15, item 4; ADR 026 "Diagnosis"): the event families
 * whose events purge the tag's kind (`FAMILIES_BY_TAG_KIND`, the cache's contract) and the console pages whose
 * saves purge it. The spec's "when a public route is stale, the owning console record is matched to the webhook
 * family that should invalidate it", answered by `/api/routing-test` and the console's "Page status". Plain data
 * (no server imports): the console page renders it.
 */
import { FAMILIES_BY_TAG_KIND, parseTag, type TagKind } from "~/modules/cache/tags";

export interface ConsolePageRef {
  path: string;
  label: string;
}

/**
 * The console pages that own each kind of tag: a save there purges it. Kept here, beside the diagnosis that
 * shows it, rather than in the cache's vocabulary: the cache does not know the console.
 */
export const CONSOLE_PAGES_BY_TAG_KIND: Readonly<Record<TagKind | "workspace", readonly ConsolePageRef[]>> = {
  workspace: [{ path: "/settings", label: "Workspace & members (the site's address)" }],
  branding: [{ path: "/website/branding", label: "Branding" }],
  navigation: [{ path: "/website/navigation", label: "Navigation" }],
  settings: [
    { path: "/website/profile", label: "Business profile" },
    { path: "/website/policies", label: "Policies" },
    { path: "/settings/site", label: "Site visibility" },
    { path: "/discovery", label: "Discovery" },
  ],
  domains: [{ path: "/settings/domains", label: "Domains" }],
  page: [{ path: "/website", label: "Pages" }],
  pages: [{ path: "/website", label: "Pages (publish, unpublish, rename, delete)" }],
  media: [{ path: "/website/media", label: "Media" }],
  product: [{ path: "/shop", label: "Shop (the product's editor)" }],
  shop: [{ path: "/shop", label: "Shop (products added, removed, renamed; collections)" }],
  bookings: [
    { path: "/scheduling/services", label: "Scheduling: services" },
    { path: "/scheduling/availability", label: "Scheduling: hours and days off" },
    { path: "/scheduling", label: "Scheduling: bookings made, moved or cancelled" },
  ],
};

/** A tag's kind in words, for a person: "Branding", "Navigation", "Page" … */
export const TAG_KIND_LABELS: Readonly<Record<TagKind | "workspace", string>> = {
  workspace: "The whole site",
  branding: "Branding",
  navigation: "Navigation",
  settings: "Site settings",
  domains: "Custom domains",
  page: "Page",
  pages: "The list of pages",
  media: "Media",
  product: "Product",
  shop: "The shop's lists",
  bookings: "The booking pages",
};

export interface TagRefresher {
  tag: string;
  kind: TagKind | "workspace";
  /** The page or file the tag names, when it names one. */
  id: string | null;
  /** In words: "Branding", "Page 'About us'", "File 'logo.png'". */
  label: string;
  /** `/api/webhooks/{family}` whose events purge it. */
  families: string[];
  /** Console pages whose saves purge it. */
  consolePages: ConsolePageRef[];
}

/**
 * For each tag: its kind, label and what purges it. `names` gives the titles of the pages and files tags name
 * (by id), when the caller looked them up; a tag outside the vocabulary is listed as it is, with nothing
 * known to purge it but its own name.
 */
export function refreshersOf(tags: readonly string[], names: ReadonlyMap<string, string> = new Map()): TagRefresher[] {
  return tags.map((tag): TagRefresher => {
    const parsed = parseTag(tag);
    if (!parsed) return { tag, kind: "workspace", id: null, label: tag, families: [], consolePages: [] };
    const { kind } = parsed;
    const id = parsed.id ?? null;
    const name = id ? names.get(id) : undefined;
    let label = TAG_KIND_LABELS[kind];
    if (kind === "page") label = name ? `Page '${name}'` : "A page";
    else if (kind === "media" && id) label = name ? `File '${name}'` : "A file";
    const consolePages =
      kind === "page" && id
        ? [{ path: `/website/pages/${id}`, label: name ? `The editor of '${name}'` : "The page's editor" }]
        : [...CONSOLE_PAGES_BY_TAG_KIND[kind]];
    return { tag, kind, id, label, families: [...FAMILIES_BY_TAG_KIND[kind]], consolePages };
  });
}
