/**
 * Found in review (ADR 017). Writes to a site's pages at the same moment: the database's unique indexes (one home page, one
 * revision per number, one page per address) decide, and the loser either runs again or, for a taken address
 * only, answers the 409 the operator can act on. On SQLite writes queue; on Postgres they truly race.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_LINKS_PER_AREA } from "~/modules/sites/navigation";
import { navigationOf } from "~/modules/sites/navigation.server";
import { pagesOf } from "~/modules/sites/pages.server";
import { twoTenants, type Fixture } from "./isolation/fixture";

let f: Fixture;
beforeAll(async () => {
  f = await twoTenants();
});
afterAll(() => f.close());

const draft = (n: number) => ({
  title: "Welcome",
  slug: "welcome",
  description: "",
  blocks: [{ type: "richText" as const, markdown: `Edit ${n}` }],
});

describe("pages written at once", () => {
  it("creates a workspace's first pages together, one of them the home page", async () => {
    const pages = pagesOf(f.db, f.a.workspace.id);
    const titles = ["Welcome", "Menu", "Visit", "Story"];
    const created = await Promise.all(titles.map((title) => pages.create(f.a.actor, { title, description: "" })));
    expect(created.map((p) => p.slug).sort()).toEqual(["menu", "story", "visit", "welcome"]);
    expect((await pages.options()).filter((p) => p.isHome)).toHaveLength(1);
  });

  it("keeps every save at once as its own revision", async () => {
    const pages = pagesOf(f.db, f.b.workspace.id);
    const page = await pages.create(f.b.actor, { title: "Welcome", description: "" });
    await Promise.all(
      Array.from({ length: 12 }, (_, n) => n).map((n) => pages.saveDraft(f.b.actor, page.id, draft(n))),
    );
    const { revisions, total } = await pages.revisions(page.id, { size: 10, offset: 0 });
    expect(total).toBe(13);
    expect(revisions.map((r) => r.number)).toEqual([13, 12, 11, 10, 9, 8, 7, 6, 5, 4]);
  });

  it("lets one of two pages created at once with one address have it, and tells the other why", async () => {
    const pages = pagesOf(f.db, f.b.workspace.id);
    const results = await Promise.allSettled(
      [1, 2].map(() => pages.create(f.b.actor, { title: "Hours", slug: "hours", description: "" })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ kind: "conflict", detail: { issues: [{ field: "slug" }] } });
  });
});

describe("deleting the home page", () => {
  it("is refused while other pages remain, and allowed once it is the last page", async () => {
    const f2 = await twoTenants();
    try {
      const pages = pagesOf(f2.db, f2.a.workspace.id);
      const home = await pages.create(f2.a.actor, { title: "Welcome", description: "" });
      const menu = await pages.create(f2.a.actor, { title: "Menu", description: "" });
      await expect(pages.remove(f2.a.actor, home.id)).rejects.toMatchObject({ kind: "conflict" });
      expect((await pages.get(home.id)).isHome).toBe(true);
      await pages.makeHome(f2.a.actor, menu.id);
      await pages.remove(f2.a.actor, home.id);
      await pages.remove(f2.a.actor, menu.id);
      expect(await pages.count()).toBe(0);
    } finally {
      await f2.close();
    }
  });
});

describe("a full menu", () => {
  it("takes no more links from new pages than the navigation page allows", async () => {
    const f2 = await twoTenants();
    try {
      const pages = pagesOf(f2.db, f2.a.workspace.id);
      for (let i = 1; i <= MAX_LINKS_PER_AREA + 2; i++)
        await pages.create(f2.a.actor, { title: `Page ${i}`, description: "" });
      expect(await pages.count()).toBe(MAX_LINKS_PER_AREA + 2);
      const { header } = await navigationOf(f2.db, f2.a.workspace.id).list();
      expect(header).toHaveLength(MAX_LINKS_PER_AREA);
    } finally {
      await f2.close();
    }
  });
});
