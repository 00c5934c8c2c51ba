/**
 * A workspace's website pages (ADR 017). Each page has a draft (what the console edits) and, once published,
 * the copy the public sees; both are `PageContent` JSON whose Markdown was rendered to sanitised HTML when it
 * was saved, so a public request reads one row and renders no Markdown. Every save, publish and restore is a
 * numbered revision the operator can restore. One page of a workspace may be its home page (`/{site}`).
 *
 * The console's forms and the editor API call these same functions: one implementation.
 */
import { atBase, slugBase, type LinkBase } from "~/lib/link-base";
import type { Db } from "~db/client";
import { isUniqueViolation } from "~db/client";
import type { SitePagesTable } from "~db/schema";
import { isoNow } from "~/lib/clock.server";
import { conflict, invalid, notFound, type FieldIssue } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { writeAndPurge } from "~/modules/cache/purge.server";
import { cacheTags } from "~/modules/cache/tags";
import { queueIndexNow } from "~/modules/discovery/indexnow.server";
import { mediaOf, mediaSrc, mediaSrcSet, toMediaItem, type MediaItem } from "~/modules/files/media.server";
import {
  KEPT_REVISIONS,
  imageIdsOf,
  slugify,
  type BlockInput,
  type NewPageInput,
  type PageContent,
  type PageDraftInput,
  type PublicImage,
  type PublicImages,
  type RenderedBlock,
} from "./blocks";
import { renderMarkdown } from "./markdown.server";
import { MAX_LINKS_PER_AREA } from "./navigation";

export { KEPT_REVISIONS };
import { isReservedPageSlug } from "./reserved-slugs";

/** Who acts: an operator, or nobody (the demo's seed). */
export interface PageActor {
  userId: string | null;
  ip: string | null;
}

export type PageStatus = "draft" | "published";

export interface PageSummary {
  id: string;
  slug: string;
  title: string;
  isHome: boolean;
  status: PageStatus;
  /** Published, and the draft has changes the public does not see yet. */
  hasChanges: boolean;
  publishedAt: string | null;
  updatedAt: string;
}

export interface PageView extends PageSummary {
  description: string;
  createdAt: string;
  draft: PageContent;
  published: PageContent | null;
}

export interface RevisionView {
  id: string;
  number: number;
  kind: "created" | "saved" | "published" | "restored";
  title: string;
  slug: string;
  authorEmail: string | null;
  createdAt: string;
}

/** Renders a draft's Markdown (rich text, FAQ answers) to sanitised HTML: at save, and for the preview. */
export function renderDraft(input: Pick<PageDraftInput, "title" | "description" | "blocks">): PageContent {
  return {
    title: input.title,
    description: input.description,
    blocks: input.blocks.map((block): RenderedBlock => {
      if (block.type === "richText") return { ...block, html: renderMarkdown(block.markdown) };
      if (block.type === "faq")
        return { ...block, items: block.items.map((item) => ({ ...item, answerHtml: renderMarkdown(item.answer) })) };
      return block;
    }),
  };
}

/** The blocks as the editor shows them again: the input, without the rendered HTML. */
export function editableBlocks(content: PageContent): BlockInput[] {
  return content.blocks.map((block) => {
    if (block.type === "richText") return { type: block.type, markdown: block.markdown };
    if (block.type === "faq")
      return {
        type: block.type,
        heading: block.heading,
        items: block.items.map(({ question, answer }) => ({ question, answer })),
      };
    return block;
  });
}

function assertSlugAllowed(slug: string) {
  if (isReservedPageSlug(slug))
    throw invalid(`“${slug}” is kept for the site's own pages`, [
      {
        field: "slug",
        message: `“${slug}” is kept for the site's own pages (shop, contact, policies…): choose another`,
      },
    ]);
}

const slugTaken = () =>
  conflict("Another page already uses this address", [
    { field: "slug", message: "Another page of this site already uses this address" },
  ]);

/** A unique violation of the address index (another page has the slug), not of the home or revision indexes. */
function isSlugTaken(error: unknown): boolean {
  if (!isUniqueViolation(error)) return false;
  const { constraint, message } = error as { constraint?: unknown; message?: unknown };
  return constraint === "site_pages_workspace_slug" || String(message ?? "").includes("site_pages.slug");
}

type Purge = (...tags: string[]) => void;

/**
 * Runs `write` in one transaction, which purges the public pages it names when it commits (ADR 026). Two
 * writes at once can both read "no home page yet" or the same last revision number, and the database's unique
 * indexes refuse the second: it runs again (it then reads what the first wrote) rather than failing. A taken
 * address is the operator's to fix: a 409 on the slug field.
 */
async function writeWithRetry(db: Db, write: (trx: Db, purge: Purge) => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await writeAndPurge(db, write);
      return;
    } catch (error) {
      if (isSlugTaken(error)) throw slugTaken();
      if (isUniqueViolation(error) && attempt < 3) continue;
      throw error;
    }
  }
}

const parse = (json: string): PageContent => JSON.parse(json) as PageContent;

type PageRow = SitePagesTable;

function summaryOf(row: PageRow): PageSummary {
  const draft = parse(row.draft);
  return {
    id: row.id,
    slug: row.slug,
    title: draft.title,
    isHome: row.is_home === 1,
    status: row.published === null ? "draft" : "published",
    hasChanges: row.published !== null && row.has_changes === 1,
    publishedAt: row.published_at,
    updatedAt: row.updated_at,
  };
}

function viewOf(row: PageRow): PageView {
  const draft = parse(row.draft);
  return {
    ...summaryOf(row),
    description: draft.description,
    createdAt: row.created_at,
    draft,
    published: row.published === null ? null : parse(row.published),
  };
}

export function pagesOf(db: Db, workspaceId: string) {
  const rows = () => db.selectFrom("site_pages").where("site_pages.workspace_id", "=", workspaceId);

  async function rowOrThrow(id: string, trx: Db = db): Promise<PageRow> {
    const row = await trx
      .selectFrom("site_pages")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) throw notFound("No such page in this workspace");
    return row;
  }

  /** Every image a draft shows must be one of this workspace's files. */
  async function assertImages(blocks: readonly BlockInput[]) {
    const found = await mediaOf(db, workspaceId).byIds(imageIdsOf(blocks));
    const issues: FieldIssue[] = [];
    blocks.forEach((block, i) => {
      if ((block.type === "hero" || block.type === "image") && block.imageId && !found.has(block.imageId))
        issues.push({ field: `blocks.${i}.imageId`, message: "Choose an image from your media library" });
      if (block.type === "gallery" && block.imageIds.some((id) => !found.has(id)))
        issues.push({ field: `blocks.${i}.imageIds`, message: "Choose images from your media library" });
    });
    if (issues.length) throw invalid("Some images are not in your media library", issues);
  }

  async function addRevision(
    trx: Db,
    page: { id: string; slug: string },
    kind: RevisionView["kind"],
    content: string,
    actor: PageActor,
  ) {
    const last = await trx
      .selectFrom("site_page_revisions")
      .select((eb) => eb.fn.max("number").as("number"))
      .where("workspace_id", "=", workspaceId)
      .where("page_id", "=", page.id)
      .executeTakeFirst();
    const number = Number(last?.number ?? 0) + 1;
    await trx
      .insertInto("site_page_revisions")
      .values({
        id: newId(),
        workspace_id: workspaceId,
        page_id: page.id,
        number,
        kind,
        content,
        slug: page.slug,
        author_user_id: actor.userId,
        created_at: isoNow(),
      })
      .execute();
    await trx
      .deleteFrom("site_page_revisions")
      .where("workspace_id", "=", workspaceId)
      .where("page_id", "=", page.id)
      .where("number", "<=", number - KEPT_REVISIONS)
      .execute();
  }

  async function audit(trx: Db, actor: PageActor, action: string, detail: Record<string, unknown>) {
    await recordWorkspaceEvent(trx, workspaceId, { action, actorUserId: actor.userId, detail, ip: actor.ip });
  }

  /**
   * What the public site shows of a page, purged when it changes (ADR 026): the page itself; the lists of
   * pages (sitemap.xml, llms.txt, the home address) and the navigation (a link shows a page at its address,
   * while it is published) when its address or publication changes.
   */
  const pageTags = (id: string, listed: boolean) => [
    cacheTags.page(workspaceId, id),
    ...(listed ? [cacheTags.pages(workspaceId), cacheTags.navigation(workspaceId)] : []),
  ];

  /**
   * Stores `input` as the draft (and a "saved" revision) inside `trx`. The public copy is untouched, but the
   * address is the page's at once: a published page's new slug purges it and the lists that link it.
   */
  async function writeDraft(
    trx: Db,
    purge: Purge,
    actor: PageActor,
    row: PageRow,
    input: PageDraftInput,
    kind: "saved" | "restored",
  ) {
    if (row.published !== null && row.slug !== input.slug) purge(...pageTags(row.id, true));
    const draft = JSON.stringify(renderDraft(input));
    const at = isoNow();
    await trx
      .updateTable("site_pages")
      .set({
        slug: input.slug,
        draft,
        has_changes: row.published !== null && row.published !== draft ? 1 : 0,
        updated_at: at,
      })
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", row.id)
      .execute();
    await addRevision(trx, { id: row.id, slug: input.slug }, kind, draft, actor);
  }

  async function checkDraft(input: PageDraftInput) {
    assertSlugAllowed(input.slug);
    await assertImages(input.blocks);
  }

  const self = {
    async list(window: { size: number; offset: number }): Promise<PageSummary[]> {
      const found = await rows()
        .selectAll()
        .orderBy("is_home", "desc")
        .orderBy("created_at")
        .orderBy("id")
        .limit(window.size)
        .offset(window.offset)
        .execute();
      return found.map(summaryOf);
    },

    async count(): Promise<number> {
      const row = await rows()
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** Every page's id, title and slug (for pickers such as the navigation's), newest last. */
    async options(): Promise<{ id: string; title: string; slug: string; isHome: boolean; status: PageStatus }[]> {
      const found = await rows().selectAll().orderBy("is_home", "desc").orderBy("created_at").limit(500).execute();
      return found.map((r) => {
        const s = summaryOf(r);
        return { id: s.id, title: s.title, slug: s.slug, isHome: s.isHome, status: s.status };
      });
    },

    get: async (id: string): Promise<PageView> => viewOf(await rowOrThrow(id)),

    /**
     * A new page with an empty draft. The workspace's first page becomes its home page; `inNavigation`
     * (default yes) adds it at the end of the header navigation.
     */
    async create(actor: PageActor, input: NewPageInput, blocks: BlockInput[] = []): Promise<PageView> {
      const slug = input.slug || slugify(input.title);
      if (!slug)
        throw invalid("Choose the page's address", [
          { field: "slug", message: "Enter the page's address, like our-story" },
        ]);
      await checkDraft({ title: input.title, slug, description: input.description, blocks });
      const id = newId();
      const at = isoNow();
      const draft = JSON.stringify(renderDraft({ title: input.title, description: input.description, blocks }));
      // Nothing public yet: a draft is not shown, nor its navigation link (shown once the page is published).
      await writeWithRetry(db, async (trx) => {
        const hasHome = await trx
          .selectFrom("site_pages")
          .select("id")
          .where("workspace_id", "=", workspaceId)
          .where("is_home", "=", 1)
          .executeTakeFirst();
        await trx
          .insertInto("site_pages")
          .values({
            id,
            workspace_id: workspaceId,
            slug,
            is_home: hasHome ? 0 : 1,
            draft,
            published: null,
            published_at: null,
            has_changes: 0,
            created_at: at,
            updated_at: at,
          })
          .execute();
        await addRevision(trx, { id, slug }, "created", draft, actor);
        const last =
          (input.inNavigation ?? true)
            ? await trx
                .selectFrom("site_nav_links")
                .select((eb) => [eb.fn.max("position").as("position"), eb.fn.countAll().as("n")])
                .where("workspace_id", "=", workspaceId)
                .where("area", "=", "header")
                .executeTakeFirst()
            : undefined;
        // A full menu (as the navigation page keeps it) takes no more: the page is made, its link is not.
        if (last && Number(last.n) < MAX_LINKS_PER_AREA) {
          await trx
            .insertInto("site_nav_links")
            .values({
              id: newId(),
              workspace_id: workspaceId,
              area: "header",
              position: Number(last?.position ?? 0) + 1,
              label: hasHome ? input.title.slice(0, 40) : "Home",
              page_id: id,
              url: null,
              created_at: at,
            })
            .execute();
        }
        await audit(trx, actor, "page.created", { pageId: id, slug });
      });
      return self.get(id);
    },

    /** Saves the draft (the public copy is untouched until publish). */
    async saveDraft(actor: PageActor, id: string, input: PageDraftInput): Promise<PageView> {
      await checkDraft(input);
      await writeWithRetry(db, async (trx, purge) => {
        await writeDraft(trx, purge, actor, await rowOrThrow(id, trx), input, "saved");
      });
      return self.get(id);
    },

    /** Publishes the draft (saving `input` first when given, in the same transaction). */
    async publish(actor: PageActor, id: string, input?: PageDraftInput): Promise<PageView> {
      if (input) await checkDraft(input);
      await writeWithRetry(db, async (trx, purge) => {
        let row = await rowOrThrow(id, trx);
        if (input) {
          await writeDraft(trx, purge, actor, row, input, "saved");
          row = await rowOrThrow(id, trx);
        }
        // Its content; the lists (the sitemap's date, llms.txt's titles, the navigation) on every publish.
        purge(...pageTags(id, true));
        const at = isoNow();
        await trx
          .updateTable("site_pages")
          .set({ published: row.draft, published_at: at, has_changes: 0, updated_at: at })
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", id)
          .execute();
        await addRevision(trx, row, "published", row.draft, actor);
        await audit(trx, actor, "page.published", { pageId: id, slug: row.slug });
        await queueIndexNow(trx, workspaceId, [pageSitePath({ slug: row.slug, isHome: row.is_home === 1 })]);
      });
      return self.get(id);
    },

    /** Takes the page off the public site (404 from the next request); the draft stays. */
    async unpublish(actor: PageActor, id: string): Promise<PageView> {
      await writeAndPurge(db, async (trx, purge) => {
        const row = await rowOrThrow(id, trx);
        if (row.published !== null) purge(...pageTags(id, true));
        await trx
          .updateTable("site_pages")
          .set({ published: null, published_at: null, has_changes: 0, updated_at: isoNow() })
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", id)
          .execute();
        await audit(trx, actor, "page.unpublished", { pageId: id, slug: row.slug });
        // Search engines recrawl it and drop it (it answers 404 now).
        if (row.published !== null)
          await queueIndexNow(trx, workspaceId, [pageSitePath({ slug: row.slug, isHome: row.is_home === 1 })]);
      });
      return self.get(id);
    },

    /**
     * Deletes the page, its revisions and its navigation links. The home page goes only as the last page: while
     * others remain, deleting it would leave `/{site}` on the "on its way" welcome with pages published.
     */
    async remove(actor: PageActor, id: string): Promise<void> {
      await writeAndPurge(db, async (trx, purge) => {
        const row = await rowOrThrow(id, trx);
        if (row.published !== null) purge(...pageTags(id, true));
        // The site's address would lose its page while others remain: the operator chooses the next home first.
        if (row.is_home === 1) {
          const other = await trx
            .selectFrom("site_pages")
            .select("id")
            .where("workspace_id", "=", workspaceId)
            .where("id", "!=", id)
            .executeTakeFirst();
          if (other)
            throw conflict("This is your home page: make another page the home page first, then delete this one.");
        }
        await trx
          .deleteFrom("site_nav_links")
          .where("workspace_id", "=", workspaceId)
          .where("page_id", "=", id)
          .execute();
        await trx
          .deleteFrom("site_page_revisions")
          .where("workspace_id", "=", workspaceId)
          .where("page_id", "=", id)
          .execute();
        await trx.deleteFrom("site_pages").where("workspace_id", "=", workspaceId).where("id", "=", id).execute();
        await audit(trx, actor, "page.deleted", { pageId: id, slug: row.slug });
      });
    },

    /** Makes `id` the page at `/{site}` (the previous home page becomes an ordinary page at its slug). */
    async makeHome(actor: PageActor, id: string): Promise<PageView> {
      await writeWithRetry(db, async (trx, purge) => {
        const row = await rowOrThrow(id, trx);
        if (row.is_home === 1) return;
        const former = await trx
          .selectFrom("site_pages")
          .selectAll()
          .where("workspace_id", "=", workspaceId)
          .where("is_home", "=", 1)
          .executeTakeFirst();
        // The workspace's first page got a menu link called "Home": once it stops being the home page, that
        // link would say "Home" and lead elsewhere. It takes the page's own title instead.
        if (former)
          await trx
            .updateTable("site_nav_links")
            .set({ label: parse(former.published ?? former.draft).title.slice(0, 40) })
            .where("workspace_id", "=", workspaceId)
            .where("page_id", "=", former.id)
            .where("label", "=", "Home")
            .execute();
        // Clear first: the partial unique index allows one home page at any moment.
        await trx
          .updateTable("site_pages")
          .set({ is_home: 0 })
          .where("workspace_id", "=", workspaceId)
          .where("is_home", "=", 1)
          .execute();
        await trx
          .updateTable("site_pages")
          .set({ is_home: 1, updated_at: isoNow() })
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", id)
          .execute();
        await audit(trx, actor, "page.home_changed", { pageId: id, slug: row.slug });
        // Both pages change address (the site's address shows another page), and the menu's links with them.
        purge(...pageTags(id, true), ...(former ? pageTags(former.id, true) : []));
        // The site's address shows another page, and both pages' own addresses changed meaning.
        if (row.published !== null || former?.published)
          await queueIndexNow(trx, workspaceId, [
            "",
            `/${row.slug}`,
            ...(former?.published ? [`/${former.slug}`] : []),
          ]);
      });
      return self.get(id);
    },

    async revisions(id: string, window: { size: number; offset: number }) {
      await rowOrThrow(id);
      const base = db
        .selectFrom("site_page_revisions")
        .where("site_page_revisions.workspace_id", "=", workspaceId)
        .where("site_page_revisions.page_id", "=", id);
      const [found, total] = await Promise.all([
        base
          .leftJoin("users", "users.id", "site_page_revisions.author_user_id")
          .select([
            "site_page_revisions.id",
            "site_page_revisions.number",
            "site_page_revisions.kind",
            "site_page_revisions.content",
            "site_page_revisions.slug",
            "site_page_revisions.created_at",
            "users.email",
          ])
          .orderBy("site_page_revisions.number", "desc")
          .limit(window.size)
          .offset(window.offset)
          .execute(),
        base.select((eb) => eb.fn.countAll().as("n")).executeTakeFirst(),
      ]);
      return {
        total: Number(total?.n ?? 0),
        revisions: found.map((r): RevisionView => ({
          id: r.id,
          number: r.number,
          kind: r.kind as RevisionView["kind"],
          title: parse(r.content).title,
          slug: r.slug,
          authorEmail: r.email ?? null,
          createdAt: r.created_at,
        })),
      };
    },

    /** One revision's content (for its preview). */
    async revision(id: string, revisionId: string): Promise<{ number: number; content: PageContent }> {
      const row = await db
        .selectFrom("site_page_revisions")
        .select(["number", "content"])
        .where("workspace_id", "=", workspaceId)
        .where("page_id", "=", id)
        .where("id", "=", revisionId)
        .executeTakeFirst();
      if (!row) throw notFound("No such revision of this page");
      return { number: row.number, content: parse(row.content) };
    },

    /**
     * Makes an earlier revision the draft again (a new "restored" revision); the public copy changes when the
     * operator publishes. The page keeps its current address: a revision's slug is history, not a redirect.
     */
    async restore(actor: PageActor, id: string, revisionId: string): Promise<PageView> {
      const { number, content } = await self.revision(id, revisionId);
      const row = await rowOrThrow(id);
      const input: PageDraftInput = {
        title: content.title,
        slug: row.slug,
        description: content.description,
        // Images deleted since are dropped rather than refusing the restore.
        blocks: await withoutMissingImages(db, workspaceId, editableBlocks(content)),
      };
      // A draft again: the public copy changes when the operator publishes it (the address is kept).
      await writeWithRetry(db, async (trx, purge) => {
        await writeDraft(trx, purge, actor, await rowOrThrow(id, trx), input, "restored");
        await audit(trx, actor, "page.restored", { pageId: id, revision: number });
      });
      return self.get(id);
    },
  };
  return self;
}

async function withoutMissingImages(db: Db, workspaceId: string, blocks: BlockInput[]): Promise<BlockInput[]> {
  const found = await mediaOf(db, workspaceId).byIds(imageIdsOf(blocks));
  return blocks.flatMap((block): BlockInput[] => {
    if (block.type === "hero" && block.imageId && !found.has(block.imageId)) return [{ ...block, imageId: null }];
    if (block.type === "image" && !found.has(block.imageId)) return [];
    if (block.type === "gallery") {
      const imageIds = block.imageIds.filter((i) => found.has(i));
      return imageIds.length ? [{ ...block, imageIds }] : [];
    }
    return [block];
  });
}

export type PagesRepo = ReturnType<typeof pagesOf>;

// ---- The public side -------------------------------------------------------------------------------------

export interface PublishedPage {
  id: string;
  slug: string;
  isHome: boolean;
  publishedAt: string;
  content: PageContent;
}

/** The published page at `slug` (the home page counts too), or null: unpublished and unknown pages alike. */
export async function publishedPage(
  db: Db,
  workspaceId: string,
  where: { slug: string } | { home: true },
): Promise<PublishedPage | null> {
  let query = db
    .selectFrom("site_pages")
    .select(["id", "slug", "is_home", "published", "published_at"])
    .where("workspace_id", "=", workspaceId)
    .where("published", "is not", null);
  query = "home" in where ? query.where("is_home", "=", 1) : query.where("slug", "=", where.slug);
  const row = await query.executeTakeFirst();
  if (!row?.published || !row.published_at) return null;
  return {
    id: row.id,
    slug: row.slug,
    isHome: row.is_home === 1,
    publishedAt: row.published_at,
    content: parse(row.published),
  };
}

/** Every published page of the workspace with its public copy (the content index reads them; ADR 037). */
export async function publishedPages(db: Db, workspaceId: string): Promise<PublishedPage[]> {
  const rows = await db
    .selectFrom("site_pages")
    .select(["id", "slug", "is_home", "published", "published_at"])
    .where("workspace_id", "=", workspaceId)
    .where("published", "is not", null)
    .orderBy("id")
    .execute();
  return rows.flatMap((row) =>
    row.published && row.published_at
      ? [
          {
            id: row.id,
            slug: row.slug,
            isHome: row.is_home === 1,
            publishedAt: row.published_at,
            content: parse(row.published),
          },
        ]
      : [],
  );
}

/**
 * The page at `slug` (or the home page) as the public may know it: its id and whether it is published, and
 * the title of its published copy only, never the draft's (the stale-page diagnosis, ADR 026: a draft's title
 * is not the public's, nor anything a cached page could show).
 */
export async function pageAtAddress(
  db: Db,
  workspaceId: string,
  where: { slug: string } | { home: true },
): Promise<{ id: string; slug: string; isHome: boolean; status: PageStatus; publishedTitle: string | null } | null> {
  let query = db
    .selectFrom("site_pages")
    .select(["id", "slug", "is_home", "published"])
    .where("workspace_id", "=", workspaceId);
  query = "home" in where ? query.where("is_home", "=", 1) : query.where("slug", "=", where.slug);
  const row = await query.executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    slug: row.slug,
    isHome: row.is_home === 1,
    status: row.published === null ? "draft" : "published",
    publishedTitle: row.published === null ? null : parse(row.published).title,
  };
}

/** The published titles of the pages `ids` of `workspaceId` (drafts and unknown ids left out). */
export async function publishedTitles(
  db: Db,
  workspaceId: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  if (ids.length === 0) return titles;
  const rows = await db
    .selectFrom("site_pages")
    .select(["id", "published"])
    .where("workspace_id", "=", workspaceId)
    .where("id", "in", [...ids])
    .where("published", "is not", null)
    .execute();
  for (const row of rows) if (row.published) titles.set(row.id, parse(row.published).title);
  return titles;
}

export function publicImage(base: LinkBase, item: MediaItem, width = 960): PublicImage {
  return {
    src: mediaSrc(base, item, width),
    srcSet: mediaSrcSet(base, item),
    width: item.width,
    height: item.height,
    alt: item.alt,
  };
}

/** The images `blocks` show, in one query; images since deleted are simply absent (their blocks skip them). */
export async function imagesOf(
  db: Db,
  workspaceId: string,
  base: LinkBase,
  blocks: readonly RenderedBlock[],
): Promise<PublicImages> {
  const found = await mediaOf(db, workspaceId).byIds(imageIdsOf(blocks));
  return Object.fromEntries([...found].map(([id, item]) => [id, publicImage(base, item)]));
}

/** A page's path within its site (`SiteAddress`'s `sitePath`): "" for the home page, else `/{page}`. */
export const pageSitePath = (page: { slug: string; isHome: boolean }) => (page.isHome ? "" : `/${page.slug}`);

/** The address of a page under `base` (`/{slug}`, or "" on the site's domain): the home page is the site itself. */
export const pagePath = (base: LinkBase, page: { slug: string; isHome: boolean }) => atBase(base, pageSitePath(page));

/** An image the editor offers in its pickers. */
export interface MediaChoice {
  id: string;
  label: string;
  thumb: string;
}

export const MAX_MEDIA_CHOICES = 200;

/**
 * The workspace's images for the editor's pickers, newest first (the media library pages through all of them;
 * a picker shows the newest 200).
 */
export async function mediaChoices(db: Db, workspaceId: string, siteSlug: string): Promise<MediaChoice[]> {
  const base = slugBase(siteSlug);
  const rows = await db
    .selectFrom("files")
    .selectAll()
    .where("workspace_id", "=", workspaceId)
    .where("content_type", "like", "image/%")
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(MAX_MEDIA_CHOICES)
    .execute();
  return rows.map((row) => {
    const item = toMediaItem(row);
    return { id: item.id, label: item.alt || item.filename, thumb: mediaSrc(base, item, 320) };
  });
}

/**
 * Where a file is shown among a workspace's pages (draft or published), for the media library's "where used"
 * (the files module's usage registry). Ids are ULIDs, so a quoted id in the content JSON is that file.
 */
export async function pagesUsingFile(
  db: Db,
  workspaceId: string,
  fileId: string,
): Promise<{ label: string; href: string }[]> {
  const needle = `%${JSON.stringify(fileId)}%`;
  const rows = await db
    .selectFrom("site_pages")
    .select(["id", "draft"])
    .where("workspace_id", "=", workspaceId)
    .where((eb) => eb.or([eb("draft", "like", needle), eb("published", "like", needle)]))
    .orderBy("created_at")
    .limit(100)
    .execute();
  return rows.map((row) => ({ label: `Page “${parse(row.draft).title}”`, href: `/website/pages/${row.id}` }));
}
