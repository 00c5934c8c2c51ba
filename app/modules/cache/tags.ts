/**
 * The page cache's tags (DESIGN rule 7, issue 15, ADR 026): what a cached public answer shows, so that a change
 * purges exactly the answers that show it. One vocabulary for the in-process cache, the `Cache-Tag` header a CDN
 * purges by, the purge bus between nodes and the stale-page diagnosis. Plain data and functions (no server
 * imports): the diagnosis page renders the family map.
 *
 * A tag is `ws:{workspaceId}` (everything of a workspace: suspension, deletion, a new site address purge it) or
 * `ws:{workspaceId}:{kind}` or `ws:{workspaceId}:{kind}:{id}`.
 */

/** The kinds of thing a public answer shows. Later issues add theirs (product, collection, service, story …). */
export const TAG_KINDS = [
  /** The site's look: logo, colours, fonts, favicon, sharing image, theme.css. */
  "branding",
  /** The header and footer links. */
  "navigation",
  /** Business profile, policies, visibility, discovery settings, redirects: what every page's frame shows. */
  "settings",
  /** Host routing: a custom domain added, verified, made primary or removed changes every canonical address. */
  "domains",
  /** One page's content (`ws:{id}:page:{pageId}`). */
  "page",
  /** The list of pages (sitemap.xml, llms.txt): a page published, unpublished, renamed or deleted. */
  "pages",
  /** Uploaded files shown on public pages (`ws:{id}:media`, or `ws:{id}:media:{fileId}` for one file). */
  "media",
  /** One product's page (`ws:{id}:product:{productId}`). */
  "product",
  /** The shop's lists: /shop, its collections, the sitemap's products (a product added, removed, renamed). */
  "shop",
  /** The booking pages: /bookings and each service's times (a service, someone's hours, or a booking changed). */
  "bookings",
] as const;
export type TagKind = (typeof TAG_KINDS)[number];

export const cacheTags = {
  workspace: (workspaceId: string) => `ws:${workspaceId}`,
  of: (workspaceId: string, kind: TagKind, id?: string) =>
    `ws:${workspaceId}:${kind}${id === undefined ? "" : `:${id}`}`,
  branding: (workspaceId: string) => cacheTags.of(workspaceId, "branding"),
  navigation: (workspaceId: string) => cacheTags.of(workspaceId, "navigation"),
  settings: (workspaceId: string) => cacheTags.of(workspaceId, "settings"),
  domains: (workspaceId: string) => cacheTags.of(workspaceId, "domains"),
  page: (workspaceId: string, pageId: string) => cacheTags.of(workspaceId, "page", pageId),
  pages: (workspaceId: string) => cacheTags.of(workspaceId, "pages"),
  media: (workspaceId: string, fileId?: string) => cacheTags.of(workspaceId, "media", fileId),
  product: (workspaceId: string, productId: string) => cacheTags.of(workspaceId, "product", productId),
  shop: (workspaceId: string) => cacheTags.of(workspaceId, "shop"),
  bookings: (workspaceId: string) => cacheTags.of(workspaceId, "bookings"),
};

export interface ParsedTag {
  workspaceId: string;
  kind: TagKind | "workspace";
  id?: string;
}

export function parseTag(tag: string): ParsedTag | null {
  const [prefix, workspaceId, kind, ...rest] = tag.split(":");
  if (prefix !== "ws" || !workspaceId) return null;
  if (kind === undefined) return { workspaceId, kind: "workspace" };
  if (!(TAG_KINDS as readonly string[]).includes(kind)) return null;
  return { workspaceId, kind: kind as TagKind, id: rest.length ? rest.join(":") : undefined };
}

/**
 * The event families (`/api/webhooks/{family}`, app/modules/events) whose events purge each kind of tag: the
 * spec's "the owning console record is matched to the webhook family that should invalidate it", answered by
 * the stale-page diagnosis. `workspace`: the settings family's `visibility: public` (siteAccessOf, which purges
 * the whole site) and the domains family's check (a domain that starts or stops serving); besides, the console
 * and the CLI (suspension, deletion, a new address).
 */
export const FAMILIES_BY_TAG_KIND: Readonly<Record<TagKind | "workspace", readonly string[]>> = {
  workspace: ["settings", "domains"],
  branding: ["branding"],
  navigation: ["pages"],
  settings: ["settings"],
  domains: ["domains"],
  page: ["pages"],
  pages: ["pages"],
  media: ["media"],
  product: ["products"],
  shop: ["products"],
  bookings: ["bookings"],
};
