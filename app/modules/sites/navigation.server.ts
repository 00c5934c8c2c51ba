/**
 * The site's header navigation and footer links (ADR 017): ordered rows, each naming one of the workspace's
 * pages (shown only while that page is published, at its current address) or an address of its own.
 * `siteNavigation` is what the public layout reads, in one query.
 */
import { atBase, type LinkBase } from "~/lib/link-base";
import type { Db } from "~db/client";
import { isoNow } from "~/lib/clock.server";
import { invalid, notFound } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { writeAndPurge } from "~/modules/cache/purge.server";
import { cacheTags } from "~/modules/cache/tags";
import {
  MAX_LINKS_PER_AREA,
  NavLabel,
  type NavArea,
  type NavLinkInput,
  type NavLinkView,
  type SiteLink,
} from "./navigation";
import { pagePath, type PageActor } from "./pages.server";

export { NAV_AREAS, NavLinkInput, type NavArea, type NavLinkView, type SiteLink } from "./navigation";

/**
 * An address of the operator's own that points into the site itself (`/{slug}/menu`, typed before the site had
 * a domain) under the page's link base, so it stays on the host the visitor uses (ADR 025). Anything else
 * (another path, an absolute URL) is left as written.
 */
export function rebaseSiteHref(href: string, slug: string, base: LinkBase): string {
  const prefix = `/${slug}`;
  if (!href.startsWith(prefix)) return href;
  const rest = href.slice(prefix.length);
  // `/{slug}menu` is another path, not one of this site's.
  if (rest !== "" && !/^[/?#]/.test(rest)) return href;
  return rest.startsWith("/") ? atBase(base, rest) : `${atBase(base)}${rest}`;
}

/**
 * The public layout's navigation: header and footer links, in order, hrefs under `base` (`/{site}/about`, or
 * `/about` on the site's own domain).
 */
export async function siteNavigation(
  db: Db,
  workspaceId: string,
  base: LinkBase,
): Promise<{ header: SiteLink[]; footer: SiteLink[] }> {
  const rows = await db
    .selectFrom("site_nav_links")
    .innerJoin("workspaces", "workspaces.id", "site_nav_links.workspace_id")
    .leftJoin("site_pages", (join) =>
      join
        .onRef("site_pages.id", "=", "site_nav_links.page_id")
        .onRef("site_pages.workspace_id", "=", "site_nav_links.workspace_id"),
    )
    .select([
      "site_nav_links.area",
      "site_nav_links.label",
      "site_nav_links.url",
      "site_nav_links.page_id",
      "site_pages.slug as page_slug",
      "site_pages.is_home",
      "site_pages.published_at",
      "workspaces.slug as site_slug",
    ])
    .where("site_nav_links.workspace_id", "=", workspaceId)
    .orderBy("site_nav_links.area")
    .orderBy("site_nav_links.position")
    .execute();
  const result = { header: [] as SiteLink[], footer: [] as SiteLink[] };
  for (const row of rows) {
    let href: string | null = row.url && rebaseSiteHref(row.url, row.site_slug, base);
    if (row.page_id) {
      if (!row.page_slug || !row.published_at) continue;
      href = pagePath(base, { slug: row.page_slug, isHome: row.is_home === 1 });
    }
    if (!href) continue;
    (row.area === "footer" ? result.footer : result.header).push({ label: row.label, href });
  }
  return result;
}

/** The console's side: list, add, rename, move and remove links; each change purges the site's navigation (ADR 026). */
export function navigationOf(db: Db, workspaceId: string) {
  const links = () => db.selectFrom("site_nav_links").where("site_nav_links.workspace_id", "=", workspaceId);

  async function linkOrThrow(id: string) {
    const row = await links().selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw notFound("No such link in this site's navigation");
    return row;
  }

  async function assertPage(pageId: string | null) {
    if (!pageId) return;
    const page = await db
      .selectFrom("site_pages")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", pageId)
      .executeTakeFirst();
    if (!page) throw invalid("Choose one of your pages", [{ field: "pageId", message: "Choose one of your pages" }]);
  }

  const audit = (trx: Db, actor: PageActor, action: string, detail: Record<string, unknown>) =>
    recordWorkspaceEvent(trx, workspaceId, { action, actorUserId: actor.userId, detail, ip: actor.ip });

  const self = {
    async list(): Promise<Record<NavArea, NavLinkView[]>> {
      const rows = await links()
        .leftJoin("site_pages", (join) =>
          join
            .onRef("site_pages.id", "=", "site_nav_links.page_id")
            .onRef("site_pages.workspace_id", "=", "site_nav_links.workspace_id"),
        )
        .select([
          "site_nav_links.id",
          "site_nav_links.area",
          "site_nav_links.position",
          "site_nav_links.label",
          "site_nav_links.page_id",
          "site_nav_links.url",
          "site_pages.published_at",
        ])
        .orderBy("site_nav_links.position")
        .orderBy("site_nav_links.id")
        .execute();
      const result: Record<NavArea, NavLinkView[]> = { header: [], footer: [] };
      for (const r of rows) {
        const area = r.area === "footer" ? "footer" : "header";
        result[area].push({
          id: r.id,
          area,
          position: r.position,
          label: r.label,
          pageId: r.page_id,
          url: r.url,
          pagePublished: r.page_id ? r.published_at !== null : null,
        });
      }
      return result;
    },

    async add(actor: PageActor, input: NavLinkInput): Promise<void> {
      await assertPage(input.pageId);
      await writeAndPurge(db, async (trx, purge) => {
        purge(cacheTags.navigation(workspaceId));
        const stats = await trx
          .selectFrom("site_nav_links")
          .select((eb) => [eb.fn.max("position").as("last"), eb.fn.countAll().as("n")])
          .where("workspace_id", "=", workspaceId)
          .where("area", "=", input.area)
          .executeTakeFirst();
        if (Number(stats?.n ?? 0) >= MAX_LINKS_PER_AREA)
          throw invalid(`The ${input.area} holds at most ${MAX_LINKS_PER_AREA} links: remove one first`);
        const id = newId();
        await trx
          .insertInto("site_nav_links")
          .values({
            id,
            workspace_id: workspaceId,
            area: input.area,
            position: Number(stats?.last ?? 0) + 1,
            label: input.label,
            page_id: input.pageId,
            url: input.url,
            created_at: isoNow(),
          })
          .execute();
        await audit(trx, actor, "navigation.link_added", { linkId: id, area: input.area });
      });
    },

    async rename(actor: PageActor, id: string, label: string): Promise<void> {
      const parsed = NavLabel.safeParse(label);
      if (!parsed.success) {
        const message = parsed.error.issues[0]?.message ?? "Enter the link's text";
        throw invalid(message, [{ field: `label.${id}`, message }]);
      }
      await linkOrThrow(id);
      await writeAndPurge(db, async (trx, purge) => {
        purge(cacheTags.navigation(workspaceId));
        await trx
          .updateTable("site_nav_links")
          .set({ label: parsed.data })
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", id)
          .execute();
        await audit(trx, actor, "navigation.link_renamed", { linkId: id });
      });
    },

    /** Swaps the link with its neighbour above (`-1`) or below (`1`) in its area. */
    async move(actor: PageActor, id: string, direction: -1 | 1): Promise<void> {
      const link = await linkOrThrow(id);
      const siblings = await links()
        .select(["id", "position"])
        .where("area", "=", link.area)
        .orderBy("position")
        .orderBy("id")
        .execute();
      const index = siblings.findIndex((s) => s.id === id);
      const other = siblings[index + direction];
      if (!other) return;
      const order = siblings.map((s) => s.id);
      [order[index], order[index + direction]] = [order[index + direction]!, order[index]!];
      await writeAndPurge(db, async (trx, purge) => {
        purge(cacheTags.navigation(workspaceId));
        // Renumber the whole area: positions stay 1..n whatever earlier edits left.
        for (const [i, linkId] of order.entries()) {
          await trx
            .updateTable("site_nav_links")
            .set({ position: i + 1 })
            .where("workspace_id", "=", workspaceId)
            .where("id", "=", linkId)
            .execute();
        }
        await audit(trx, actor, "navigation.link_moved", { linkId: id, direction });
      });
    },

    async remove(actor: PageActor, id: string): Promise<void> {
      await linkOrThrow(id);
      await writeAndPurge(db, async (trx, purge) => {
        purge(cacheTags.navigation(workspaceId));
        await trx.deleteFrom("site_nav_links").where("workspace_id", "=", workspaceId).where("id", "=", id).execute();
        await audit(trx, actor, "navigation.link_removed", { linkId: id });
      });
    },
  };
  return self;
}
