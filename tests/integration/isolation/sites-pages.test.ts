/**
 * DESIGN rule 2 for the website's pages, revisions and navigation (ADR 017): built for workspace A, `pagesOf`
 * and `navigationOf` find none of B's pages, revisions or links and change none of them; the public reads
 * (`publishedPage`, `siteNavigation`) answer only the workspace asked about.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isoNow } from "~/lib/clock.server";
import { newId } from "~/lib/ids.server";
import { navigationOf, siteNavigation } from "~/modules/sites/navigation.server";
import { pagesOf, pagesUsingFile, publishedPage, type PageView } from "~/modules/sites/pages.server";
import { twoTenants, type Fixture } from "./fixture";

let f: Fixture;
let bPage: PageView;
let bRevision: string;
let bLink: string;
const notFound = { kind: "not-found" };

const draft = (title: string, slug: string) => ({
  title,
  slug,
  description: "",
  blocks: [{ type: "richText" as const, markdown: `Hello from ${title}` }],
});

beforeAll(async () => {
  f = await twoTenants();
  const b = pagesOf(f.db, f.b.workspace.id);
  bPage = await b.create(f.b.actor, { title: "Bravo home", slug: "welcome", description: "" });
  await b.publish(f.b.actor, bPage.id, draft("Bravo home", "welcome"));
  bRevision = (await b.revisions(bPage.id, { size: 10, offset: 0 })).revisions[0]!.id;
  bLink = (await navigationOf(f.db, f.b.workspace.id).list()).header[0]!.id;
});
afterAll(() => f.close());

const bRows = async () => ({
  pages: await f.rowsOf("site_pages", "workspace_id", f.b.workspace.id),
  revisions: await f.rowsOf("site_page_revisions", "workspace_id", f.b.workspace.id),
  links: await f.rowsOf("site_nav_links", "workspace_id", f.b.workspace.id),
});

describe("pagesOf, built for workspace A", () => {
  it("does not list, count or read workspace B's pages and revisions", async () => {
    const a = pagesOf(f.db, f.a.workspace.id);
    expect(await a.list({ size: 50, offset: 0 })).toEqual([]);
    expect(await a.count()).toBe(0);
    expect(await a.options()).toEqual([]);
    await expect(a.get(bPage.id)).rejects.toMatchObject(notFound);
    await expect(a.revisions(bPage.id, { size: 10, offset: 0 })).rejects.toMatchObject(notFound);
    await expect(a.revision(bPage.id, bRevision)).rejects.toMatchObject(notFound);
  });

  it("cannot save, publish, unpublish, restore, make home or delete them", async () => {
    const before = await bRows();
    const a = pagesOf(f.db, f.a.workspace.id);
    await expect(a.saveDraft(f.a.actor, bPage.id, draft("Hijacked", "welcome"))).rejects.toMatchObject(notFound);
    await expect(a.publish(f.a.actor, bPage.id)).rejects.toMatchObject(notFound);
    await expect(a.unpublish(f.a.actor, bPage.id)).rejects.toMatchObject(notFound);
    await expect(a.restore(f.a.actor, bPage.id, bRevision)).rejects.toMatchObject(notFound);
    await expect(a.makeHome(f.a.actor, bPage.id)).rejects.toMatchObject(notFound);
    await expect(a.remove(f.a.actor, bPage.id)).rejects.toMatchObject(notFound);
    expect(await bRows()).toEqual(before);
  });

  it("takes the same slug for its own page without touching B's", async () => {
    const before = await bRows();
    const a = pagesOf(f.db, f.a.workspace.id);
    const mine = await a.create(f.a.actor, { title: "Alpha welcome", slug: "welcome", description: "" });
    expect(mine.isHome).toBe(true);
    expect(await bRows()).toEqual(before);
  });

  it("cannot show B's file in its own page", async () => {
    const fileId = newId();
    const at = isoNow();
    await f.db
      .insertInto("files")
      .values({
        id: fileId,
        workspace_id: f.b.workspace.id,
        sha256: "b".repeat(64),
        content_type: "image/png",
        byte_size: 10,
        width: 10,
        height: 10,
        filename: "b.png",
        alt: "",
        created_at: at,
        updated_at: at,
      })
      .execute();
    const a = pagesOf(f.db, f.a.workspace.id);
    const page = (await a.list({ size: 1, offset: 0 }))[0]!;
    await expect(
      a.saveDraft(f.a.actor, page.id, {
        title: "Alpha",
        slug: "welcome",
        description: "",
        blocks: [{ type: "image", imageId: fileId, caption: "" }],
      }),
    ).rejects.toMatchObject({ kind: "invalid", detail: { issues: [{ field: "blocks.0.imageId" }] } });
  });
});

describe("the public reads", () => {
  it("find B's published page only for B", async () => {
    expect(await publishedPage(f.db, f.a.workspace.id, { slug: "welcome" })).toBeNull();
    expect(await publishedPage(f.db, f.a.workspace.id, { home: true })).toBeNull();
    expect(await publishedPage(f.db, f.b.workspace.id, { home: true })).toMatchObject({ id: bPage.id });
  });

  it("give each workspace its own navigation", async () => {
    expect(await siteNavigation(f.db, f.a.workspace.id, `/${f.a.workspace.slug}`)).toEqual({ header: [], footer: [] });
    expect(await siteNavigation(f.db, f.b.workspace.id, `/${f.b.workspace.slug}`)).toEqual({
      header: [{ label: "Home", href: `/${f.b.workspace.slug}` }],
      footer: [],
    });
  });
});

describe("navigationOf, built for workspace A", () => {
  it("does not list, rename, move or remove B's links, nor link to B's pages", async () => {
    const before = await bRows();
    const a = navigationOf(f.db, f.a.workspace.id);
    expect((await a.list()).header.map((l) => l.id)).not.toContain(bLink);
    await expect(a.rename(f.a.actor, bLink, "Mine")).rejects.toMatchObject(notFound);
    await expect(a.move(f.a.actor, bLink, 1)).rejects.toMatchObject(notFound);
    await expect(a.remove(f.a.actor, bLink)).rejects.toMatchObject(notFound);
    await expect(
      a.add(f.a.actor, { area: "header", label: "Theirs", pageId: bPage.id, url: null }),
    ).rejects.toMatchObject({ kind: "invalid" });
    expect(await bRows()).toEqual(before);
  });
});

describe("pagesUsingFile", () => {
  it("finds the pages of its own workspace that show a file, and none of B's", async () => {
    const fileId = newId();
    const at = isoNow();
    await f.db
      .insertInto("files")
      .values({
        id: fileId,
        workspace_id: f.a.workspace.id,
        sha256: "a".repeat(64),
        content_type: "image/png",
        byte_size: 10,
        width: 10,
        height: 10,
        filename: "a.png",
        alt: "",
        created_at: at,
        updated_at: at,
      })
      .execute();
    const a = pagesOf(f.db, f.a.workspace.id);
    const page = await a.create(f.a.actor, { title: "Pictures", slug: "pictures", description: "" }, [
      { type: "gallery", imageIds: [fileId] },
    ]);
    expect(await pagesUsingFile(f.db, f.a.workspace.id, fileId)).toEqual([
      { label: "Page “Pictures”", href: `/website/pages/${page.id}` },
    ]);
    expect(await pagesUsingFile(f.db, f.b.workspace.id, fileId)).toEqual([]);
  });
});
