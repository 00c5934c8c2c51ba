/**
 * A workspace's discovery settings (ADR 021): each page's search settings, the site's redirects, whether the
 * whole site is hidden from search engines, and llms.txt. One function set per workspace, `discoveryOf`, which
 * the console's pages and `/api/editor/discovery/seo*` both call: one implementation, one set of refusals.
 *
 * It reads `site_pages` (the sites module's table) for the list of pages and to check that a page belongs to the
 * workspace: a page's search settings live beside it, in `site_page_seo`, so that they apply at once without a
 * draft and a publish.
 */
import { sql } from "kysely";
import type { Db } from "~db/client";
import { likePattern } from "~db/like";
import { isUniqueViolation } from "~db/client";
import { isoNow } from "~/lib/clock.server";
import { conflict, invalid, isDomainError, notFound } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { writeAndPurge } from "~/modules/cache/purge.server";
import { cacheTags } from "~/modules/cache/tags";
import { discoverySettingsOf, type DiscoverySettings } from "./settings.server";
import { rebaseSiteHref } from "~/modules/sites/navigation.server";
import { isSitePath, normaliseSitePath, type PageSeoInput, type RedirectInput, type RedirectStatus } from "./rules";

export interface DiscoveryActor {
  userId: string | null;
  ip: string | null;
}

export interface PageSeo {
  title: string | null;
  description: string | null;
  canonical: string | null;
  noindex: boolean;
  locale: string | null;
  translationOf: string | null;
}

export const EMPTY_SEO: PageSeo = {
  title: null,
  description: null,
  canonical: null,
  noindex: false,
  locale: null,
  translationOf: null,
};

/** A page as Search appearance lists it: what search engines are shown, and what the page itself says. */
export interface PageSearchView {
  id: string;
  slug: string;
  isHome: boolean;
  published: boolean;
  /** The page's own title and description (its published copy, else its draft). */
  pageTitle: string;
  pageDescription: string;
  seo: PageSeo;
  /** The pages that translate this one (when it is an original). */
  translations: { id: string; title: string; locale: string | null }[];
}

export interface Redirect {
  id: string;
  from: string;
  to: string;
  status: RedirectStatus;
  createdAt: string;
  updatedAt: string;
}

/** How many redirects a chain may take before we call it a loop anyway: no visitor follows 20 hops. */
const MAX_CHAIN = 20;

type SeoRow = {
  title: string | null;
  description: string | null;
  canonical: string | null;
  noindex: number;
  locale: string | null;
  translation_of: string | null;
};

export function seoOf(row: SeoRow | undefined | null): PageSeo {
  if (!row) return EMPTY_SEO;
  return {
    title: row.title,
    description: row.description,
    canonical: row.canonical,
    noindex: row.noindex === 1,
    locale: row.locale,
    translationOf: row.translation_of,
  };
}

const toRedirect = (row: {
  id: string;
  from_path: string;
  target: string;
  status: number;
  created_at: string;
  updated_at: string;
}): Redirect => ({
  id: row.id,
  from: row.from_path,
  to: row.target,
  status: row.status === 302 ? 302 : 301,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const parseContent = (json: string | null) =>
  json ? (JSON.parse(json) as { title: string; description: string }) : null;

const fromTaken = () =>
  conflict("There is already a redirect from this address", [
    { field: "from", message: "There is already a redirect from this address: edit that one instead" },
  ]);

export function discoveryOf(db: Db, workspaceId: string) {
  const audit = (trx: Db, actor: DiscoveryActor, action: string, detail: Record<string, unknown>) =>
    recordWorkspaceEvent(trx, workspaceId, { action, actorUserId: actor.userId, detail, ip: actor.ip });

  const pageRows = () =>
    db
      .selectFrom("site_pages")
      .leftJoin("site_page_seo", (join) =>
        join.onRef("site_page_seo.page_id", "=", "site_pages.id").on("site_page_seo.workspace_id", "=", workspaceId),
      )
      .select([
        "site_pages.id",
        "site_pages.slug",
        "site_pages.is_home",
        "site_pages.draft",
        "site_pages.published",
        "site_page_seo.title",
        "site_page_seo.description",
        "site_page_seo.canonical",
        "site_page_seo.noindex",
        "site_page_seo.locale",
        "site_page_seo.translation_of",
      ])
      .where("site_pages.workspace_id", "=", workspaceId);

  type Row = Awaited<ReturnType<ReturnType<typeof pageRows>["executeTakeFirstOrThrow"]>>;
  const viewOf = (row: Row, all: readonly Row[]): PageSearchView => {
    const content = parseContent(row.published) ?? parseContent(row.draft)!;
    return {
      id: row.id,
      slug: row.slug,
      isHome: row.is_home === 1,
      published: row.published !== null,
      pageTitle: content.title,
      pageDescription: content.description,
      seo: row.noindex === null ? EMPTY_SEO : seoOf(row as SeoRow),
      translations: all
        .filter((other) => other.translation_of === row.id)
        .map((other) => ({
          id: other.id,
          title: (parseContent(other.published) ?? parseContent(other.draft)!).title,
          locale: other.locale,
        })),
    };
  };

  /** One page with its search settings and its translations; another workspace's page is not found. */
  async function page(pageId: string): Promise<PageSearchView> {
    const rows = await pageRows()
      .where((eb) => eb.or([eb("site_pages.id", "=", pageId), eb("site_page_seo.translation_of", "=", pageId)]))
      .execute();
    const row = rows.find((r) => r.id === pageId);
    if (!row) throw notFound("No such page in this workspace");
    return viewOf(row, rows);
  }

  async function pageRowOrThrow(trx: Db, pageId: string) {
    const row = await trx
      .selectFrom("site_pages")
      .select(["id", "slug"])
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", pageId)
      .executeTakeFirst();
    if (!row) throw notFound("No such page in this workspace");
    return row;
  }

  /**
   * Refuses a redirect from `from` to `target` that would send a visitor round in a circle: following the
   * redirects from the target (with this one in place) must never come back to `from`. Only site paths are
   * followed: an absolute URL leaves the site's redirects. A target typed with the slug (`/{slug}/menu`) is the
   * site path it names, as the public side reads it (`redirectLocation`).
   */
  async function assertNoLoop(trx: Db, from: string, target: string, ignoreId: string | null) {
    const { slug } = await trx
      .selectFrom("workspaces")
      .select("slug")
      .where("id", "=", workspaceId)
      .executeTakeFirstOrThrow();
    const seen = new Set<string>();
    let next = target;
    for (let hop = 0; hop < MAX_CHAIN; hop++) {
      if (!isSitePath(next)) return;
      const path = normaliseSitePath(rebaseSiteHref(next, slug, ""));
      if (path === from) {
        const chain = [from, ...seen, from].join(" → ");
        throw invalid("This redirect would send visitors round in a circle", [
          {
            field: "to",
            message:
              hop === 0
                ? "A redirect cannot point to its own address"
                : `This would make a loop (${chain}): change where it goes, or remove one of the other redirects`,
          },
        ]);
      }
      if (seen.has(path)) return; // a loop among other redirects, not through this one: not this one's fault
      seen.add(path);
      let query = trx
        .selectFrom("site_redirects")
        .select("target")
        .where("workspace_id", "=", workspaceId)
        .where("from_path", "=", path);
      if (ignoreId) query = query.where("id", "!=", ignoreId);
      const step = await query.executeTakeFirst();
      if (!step) return;
      next = step.target;
    }
    throw invalid("This redirect would start a chain too long to follow", [
      {
        field: "to",
        message: `Visitors would pass through more than ${MAX_CHAIN} redirects: point it straight at the end`,
      },
    ]);
  }

  /** Writes one redirect inside `trx`, after the checks: it exists (an edit), its address is free, no loop. */
  async function writeIn(trx: Db, actor: DiscoveryActor, id: string | null, input: RedirectInput): Promise<Redirect> {
    const target = input.to;
    if (id) {
      const found = await trx
        .selectFrom("site_redirects")
        .select("id")
        .where("workspace_id", "=", workspaceId)
        .where("id", "=", id)
        .executeTakeFirst();
      if (!found) throw notFound("No such redirect in this workspace");
    }
    const clash = await trx
      .selectFrom("site_redirects")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .where("from_path", "=", input.from)
      .executeTakeFirst();
    if (clash && clash.id !== id) throw fromTaken();
    await assertNoLoop(trx, input.from, target, id);
    const at = isoNow();
    const redirectId = id ?? newId();
    if (id) {
      await trx
        .updateTable("site_redirects")
        .set({ from_path: input.from, target, status: input.status, updated_at: at })
        .where("workspace_id", "=", workspaceId)
        .where("id", "=", id)
        .execute();
    } else {
      await trx
        .insertInto("site_redirects")
        .values({
          id: redirectId,
          workspace_id: workspaceId,
          from_path: input.from,
          target,
          status: input.status,
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
    await audit(trx, actor, id ? "discovery.redirect.updated" : "discovery.redirect.created", {
      redirectId,
      from: input.from,
      to: target,
      status: input.status,
    });
    const row = await trx
      .selectFrom("site_redirects")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", redirectId)
      .executeTakeFirstOrThrow();
    return toRedirect(row);
  }

  async function writeRedirect(actor: DiscoveryActor, id: string | null, input: RedirectInput): Promise<Redirect> {
    try {
      return await writeAndPurge(db, (trx, purge) => {
        purge(...redirectTags);
        return writeIn(trx, actor, id, input);
      });
    } catch (error) {
      // Two saves at once from the same address: the unique index refuses the second.
      if (isUniqueViolation(error)) throw fromTaken();
      throw error;
    }
  }

  /**
   * A redirect answers only where no page does, and the cache keeps no redirect or 404 (ADR 026), so no cached
   * page shows one; the site's `settings` are purged all the same, as the tag vocabulary files redirects there
   * (a later cached "not found" page stays right).
   */
  const redirectTags = [cacheTags.settings(workspaceId)];

  async function upsertSite(
    trx: Db,
    set: Partial<{ noindex: number; llms_enabled: number; llms_summary: string }>,
  ): Promise<void> {
    const at = isoNow();
    await trx
      .insertInto("site_discovery")
      .values({
        workspace_id: workspaceId,
        noindex: 0,
        llms_enabled: 0,
        llms_summary: "",
        indexnow_enabled: 0,
        indexnow_key: null,
        updated_at: at,
        ...set,
      })
      .onConflict((oc) => oc.column("workspace_id").doUpdateSet({ ...set, updated_at: at }))
      .execute();
  }

  return {
    settings: (): Promise<DiscoverySettings> => discoverySettingsOf(db, workspaceId),

    /** The whole site hidden from search engines, or not. */
    async saveSite(actor: DiscoveryActor, input: { noindex: boolean }): Promise<DiscoverySettings> {
      // Every page's robots meta, robots.txt, the sitemap (`settings`, ADR 026).
      await writeAndPurge(db, async (trx, purge) => {
        purge(cacheTags.settings(workspaceId));
        await upsertSite(trx, { noindex: input.noindex ? 1 : 0 });
        await audit(trx, actor, "discovery.site.updated", { noindex: input.noindex });
      });
      return discoverySettingsOf(db, workspaceId);
    },

    async saveLlms(actor: DiscoveryActor, input: { enabled: boolean; summary: string }): Promise<DiscoverySettings> {
      // llms.txt (tagged `settings`).
      await writeAndPurge(db, async (trx, purge) => {
        purge(cacheTags.settings(workspaceId));
        await upsertSite(trx, { llms_enabled: input.enabled ? 1 : 0, llms_summary: input.summary });
        await audit(trx, actor, "discovery.llms.updated", { enabled: input.enabled });
      });
      return discoverySettingsOf(db, workspaceId);
    },

    /** Every page with its search settings, home first then by address. */
    async pages(): Promise<PageSearchView[]> {
      const rows = await pageRows().orderBy("site_pages.is_home", "desc").orderBy("site_pages.slug").execute();
      return rows.map((row) => viewOf(row, rows));
    },

    page,

    /**
     * Saves a page's search settings. A translation names its original, which is another page of this
     * workspace that translates nothing itself; a page others translate cannot become a translation (one level:
     * an original and its translations, as `hreflang` groups them). A translation says its language.
     */
    async savePage(actor: DiscoveryActor, pageId: string, input: PageSeoInput): Promise<PageSearchView> {
      await writeAndPurge(db, async (trx, purge) => {
        await pageRowOrThrow(trx, pageId);
        // The page's head, the sitemap and llms.txt, and the head of every page of its language group before
        // and after (their hreflang alternates name each other).
        const before = await trx
          .selectFrom("site_page_seo")
          .select("translation_of")
          .where("workspace_id", "=", workspaceId)
          .where("page_id", "=", pageId)
          .executeTakeFirst();
        purge(cacheTags.page(workspaceId, pageId), cacheTags.pages(workspaceId));
        const originals = [pageId, before?.translation_of, input.translationOf].filter((id): id is string => !!id);
        const group = await trx
          .selectFrom("site_page_seo")
          .select("page_id")
          .where("workspace_id", "=", workspaceId)
          .where("translation_of", "in", originals)
          .execute();
        purge(...[...originals, ...group.map((g) => g.page_id)].map((id) => cacheTags.page(workspaceId, id)));
        if (input.translationOf) {
          if (input.translationOf === pageId)
            throw invalid("A page cannot be a translation of itself", [
              { field: "translationOf", message: "Choose another page: a page cannot translate itself" },
            ]);
          const original = await trx
            .selectFrom("site_pages")
            .leftJoin("site_page_seo", "site_page_seo.page_id", "site_pages.id")
            .select(["site_pages.id", "site_page_seo.translation_of"])
            .where("site_pages.workspace_id", "=", workspaceId)
            .where("site_pages.id", "=", input.translationOf)
            .executeTakeFirst();
          if (!original)
            throw invalid("The original page is not a page of this site", [
              { field: "translationOf", message: "Choose one of this site's pages" },
            ]);
          if (original.translation_of)
            throw invalid("That page is itself a translation", [
              { field: "translationOf", message: "That page is itself a translation: choose the page it translates" },
            ]);
          const translated = await trx
            .selectFrom("site_page_seo")
            .select("page_id")
            .where("workspace_id", "=", workspaceId)
            .where("translation_of", "=", pageId)
            .executeTakeFirst();
          if (translated)
            throw invalid("Other pages translate this one", [
              {
                field: "translationOf",
                message: "Other pages are translations of this one, so it cannot be a translation itself",
              },
            ]);
          if (!input.locale)
            throw invalid("A translation says its language", [
              { field: "locale", message: "Give this translation's language, such as fr or de-CH" },
            ]);
        }
        const values = {
          title: input.title,
          description: input.description,
          canonical: input.canonical,
          noindex: input.noindex ? 1 : 0,
          locale: input.locale,
          translation_of: input.translationOf,
          updated_at: isoNow(),
        };
        await trx
          .insertInto("site_page_seo")
          .values({ page_id: pageId, workspace_id: workspaceId, ...values })
          .onConflict((oc) => oc.column("page_id").doUpdateSet(values))
          .execute();
        await audit(trx, actor, "discovery.page.updated", { pageId, noindex: input.noindex });
      });
      return page(pageId);
    },

    redirects: {
      /** A page of redirects, newest first, optionally those whose old or new address contains `search`. */
      async list(window: { size: number; offset: number; search?: string }) {
        let query = db.selectFrom("site_redirects").where("workspace_id", "=", workspaceId);
        const search = window.search?.trim();
        if (search) {
          const pattern = likePattern(search);
          query = query.where(
            sql<boolean>`(lower(from_path) like ${pattern} escape '\\' or lower(target) like ${pattern} escape '\\')`,
          );
        }
        const [rows, total] = await Promise.all([
          query
            .selectAll()
            .orderBy("created_at", "desc")
            .orderBy("id", "desc")
            .limit(window.size)
            .offset(window.offset)
            .execute(),
          query.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow(),
        ]);
        return { redirects: rows.map(toRedirect), total: Number(total.n) };
      },

      async get(id: string): Promise<Redirect> {
        const row = await db
          .selectFrom("site_redirects")
          .selectAll()
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", id)
          .executeTakeFirst();
        if (!row) throw notFound("No such redirect in this workspace");
        return toRedirect(row);
      },

      create: (actor: DiscoveryActor, input: RedirectInput) => writeRedirect(actor, null, input),

      /**
       * Adds many redirects at once (a move from another website), all or none: each line is checked as if added
       * alone after the lines before it (so a loop within the batch is refused too), and the first refusal
       * names its line and changes nothing.
       */
      async importMany(actor: DiscoveryActor, lines: readonly { line: number; input: RedirectInput }[]) {
        try {
          return await writeAndPurge(db, async (trx, purge) => {
            purge(...redirectTags);
            for (const { line, input } of lines) {
              try {
                await writeIn(trx, actor, null, input);
              } catch (error) {
                if (!isDomainError(error)) throw error;
                const why = error.detail.issues?.[0]?.message ?? error.message;
                throw invalid(`Line ${line}: ${why}`, [
                  { field: "lines", message: `Line ${line} (${input.from}): ${why}` },
                ]);
              }
            }
            return lines.length;
          });
        } catch (error) {
          if (isUniqueViolation(error)) throw fromTaken();
          throw error;
        }
      },
      update: (actor: DiscoveryActor, id: string, input: RedirectInput) => writeRedirect(actor, id, input),

      async remove(actor: DiscoveryActor, id: string): Promise<void> {
        await writeAndPurge(db, async (trx, purge) => {
          purge(...redirectTags);
          const row = await trx
            .deleteFrom("site_redirects")
            .where("workspace_id", "=", workspaceId)
            .where("id", "=", id)
            .returning(["from_path", "target"])
            .executeTakeFirst();
          if (!row) throw notFound("No such redirect in this workspace");
          await audit(trx, actor, "discovery.redirect.deleted", { redirectId: id, from: row.from_path });
        });
      },
    },
  };
}

export type DiscoveryRepo = ReturnType<typeof discoveryOf>;
