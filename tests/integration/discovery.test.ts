/**
 * Discovery over real HTTP (ADR 021): per-page search settings from the console and the editor API shown in the
 * public page's head (title, description, canonical, robots, hreflang alternates); redirects added, refused
 * (loops, bad addresses, a taken address) and followed on the public site with the visitor's query; llms.txt
 * switched on; roles (viewers read, editors change) and another workspace's rows (404, changed nothing).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, addMember, createWorkspace, signUp } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
let owner: Client;
let viewer: Client;
let stranger: Client;
const SITE = `disc-${Math.random().toString(36).slice(2, 7)}`;
const OTHER_SITE = `disc-other-${Math.random().toString(36).slice(2, 7)}`;

async function api(client: Client, path: string, init: { method?: string; body?: unknown } = {}) {
  const res = await client.request(path, {
    method: init.method ?? "GET",
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    headers: {
      origin: new URL(server.url).origin,
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
    },
  });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads whatever JSON came back
  return { status: res.status, body: (text ? JSON.parse(text) : null) as any };
}

/** A published page through the editor API; its id. */
async function publishedPage(client: Client, title: string, slug: string, description = ""): Promise<string> {
  const created = await api(client, "/api/editor/pages", {
    method: "POST",
    body: { title, slug, description, blocks: [{ type: "richText", markdown: `About ${title}.` }] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as string;
  expect((await api(client, `/api/editor/pages/${id}/publish`, { method: "POST" })).status).toBe(200);
  return id;
}

const visitor = () => new Client(server.url);
const html = async (path: string) => {
  const res = await visitor().get(path);
  expect(res.status, path).toBe(200);
  return res.text();
};

let homeId: string;
let aboutId: string;
let frId: string;
let otherPageId: string;

beforeAll(async () => {
  server = await startServer();
  owner = (await signUp(server.url)).client;
  await createWorkspace(owner, "Harbor Bakery", SITE);
  const v = await signUp(server.url);
  viewer = v.client;
  await addMember(server.url, owner, v, "viewer");
  const { id } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", SITE)
    .executeTakeFirstOrThrow();
  expect((await api(viewer, "/api/editor/session", { method: "POST", body: { workspaceId: id } })).status).toBe(200);
  stranger = (await signUp(server.url)).client;
  await createWorkspace(stranger, "Other Bakery", OTHER_SITE);
  otherPageId = await publishedPage(stranger, "Elsewhere", "elsewhere");

  homeId = await publishedPage(owner, "Welcome", "welcome", "Fresh bread by the harbour.");
  aboutId = await publishedPage(owner, "About us", "about", "Who we are.");
  frId = await publishedPage(owner, "À propos", "a-propos", "Qui nous sommes.");
});
afterAll(() => server.close());

describe("a page's search settings", () => {
  it("lists every page in Search appearance with a search preview, for viewers too", async () => {
    const page = await viewer.get("/discovery");
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain("Pages in search results");
    expect(text).toContain("About us");
    expect(text).toContain("You have viewer access");
    // The tabs of the Discovery area, the current one marked.
    expect(text).toMatch(/<a (?=[^>]*aria-current="page")(?=[^>]*href="\/discovery")[^>]*>Search appearance/);
    const listed = await api(viewer, "/api/editor/discovery/seo/pages");
    expect(listed.status).toBe(200);
    expect(listed.body.pages.map((p: { slug: string }) => p.slug)).toEqual(["welcome", "a-propos", "about"]);
  });

  it("uses the search title, description and canonical in the page's head, at once", async () => {
    const saved = await owner.post(`/discovery/pages/${aboutId}`, {
      title: "About Harbor Bakery — bakers since 1990",
      description: "A family bakery on the harbour, baking sourdough every morning.",
      canonical: "/about",
      locale: "en-gb",
    });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Saved: search engines see it");
    const head = await html(`/${SITE}/about`);
    expect(head).toContain("<title>About Harbor Bakery — bakers since 1990 · Harbor Bakery</title>");
    expect(head).toContain(
      '<meta name="description" content="A family bakery on the harbour, baking sourdough every morning."/>',
    );
    expect(head).toContain(`<link rel="canonical" href="${server.url}/${SITE}/about"/>`);
    expect(head).not.toContain('name="robots"');
    const read = await api(owner, `/api/editor/discovery/seo/pages/${aboutId}`);
    // The language tag is stored as Intl writes it.
    expect(read.body.seo).toMatchObject({ locale: "en-GB", canonical: "/about", noindex: false });
  });

  it("asks engines not to index a noindex page, and the whole site when it is hidden", async () => {
    const put = await api(owner, `/api/editor/discovery/seo/pages/${frId}`, {
      method: "PUT",
      body: { noindex: true, canonical: "https://example.com/elsewhere" },
    });
    expect(put.status).toBe(200);
    const head = await html(`/${SITE}/a-propos`);
    expect(head).toContain('<meta name="robots" content="noindex"/>');
    expect(head).toContain('<link rel="canonical" href="https://example.com/elsewhere"/>');
    expect(await html(`/${SITE}`)).not.toContain('name="robots"');

    expect((await api(owner, "/api/editor/discovery/seo", { method: "PUT", body: { noindex: true } })).body).toEqual({
      noindex: true,
    });
    expect(await html(`/${SITE}`)).toContain('<meta name="robots" content="noindex"/>');
    // The console's switch turns it back.
    const toggled = await owner.post("/discovery", { intent: "site", noindex: "" });
    expect(await toggled.text()).toContain("Search engines may index your site again.");
    expect(await html(`/${SITE}`)).not.toContain('name="robots"');
    await api(owner, `/api/editor/discovery/seo/pages/${frId}`, { method: "PUT", body: {} });
  });

  it("links the language versions of a page with hreflang and x-default once it has a translation", async () => {
    expect(await html(`/${SITE}/about`)).not.toContain('rel="alternate"');
    const put = await api(owner, `/api/editor/discovery/seo/pages/${frId}`, {
      method: "PUT",
      body: { locale: "fr", translationOf: aboutId },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    for (const path of ["about", "a-propos"]) {
      const head = await html(`/${SITE}/${path}`);
      expect(head).toContain(`<link rel="alternate" hrefLang="en-GB" href="${server.url}/${SITE}/about"/>`);
      expect(head).toContain(`<link rel="alternate" hrefLang="fr" href="${server.url}/${SITE}/a-propos"/>`);
      expect(head).toContain(`<link rel="alternate" hrefLang="x-default" href="${server.url}/${SITE}/about"/>`);
    }
    expect(await html(`/${SITE}`)).not.toContain('rel="alternate"');
    // A third language: every version names all three, and the original keeps its own search title.
    const deId = await publishedPage(owner, "Über uns", "ueber-uns");
    await api(owner, `/api/editor/discovery/seo/pages/${deId}`, {
      method: "PUT",
      body: { locale: "de", translationOf: aboutId },
    });
    const about = await html(`/${SITE}/about`);
    expect(about).toContain(`<link rel="alternate" hrefLang="de" href="${server.url}/${SITE}/ueber-uns"/>`);
    expect(about).toContain("<title>About Harbor Bakery — bakers since 1990 · Harbor Bakery</title>");
    expect(await html(`/${SITE}/ueber-uns`)).toContain(`hrefLang="fr" href="${server.url}/${SITE}/a-propos"`);
    await api(owner, `/api/editor/discovery/seo/pages/${deId}`, { method: "PUT", body: {} });
    const original = await api(owner, `/api/editor/discovery/seo/pages/${aboutId}`);
    expect(original.body.translations).toEqual([{ id: frId, title: "À propos", locale: "fr" }]);
  });

  it("refuses a translation of itself, of a translation, by an original, or without a language — changing nothing", async () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      [homeId, { locale: "de", translationOf: homeId }, "translationOf", "cannot translate itself"],
      [homeId, { locale: "de", translationOf: frId }, "translationOf", "itself a translation"],
      [aboutId, { locale: "en", translationOf: homeId }, "translationOf", "Other pages are translations"],
      [homeId, { translationOf: aboutId }, "locale", "language"],
      [homeId, { locale: "not a language!" }, "locale", "language tag"],
      [homeId, { canonical: "javascript:alert(1)" }, "canonical", "https://"],
      [homeId, { canonical: "http://example.com/x" }, "canonical", "https://"],
      [homeId, { title: "x".repeat(71) }, "title", "at most 70"],
      [homeId, { translationOf: otherPageId, locale: "de" }, "translationOf", "this site's pages"],
    ];
    for (const [pageId, body, field, words] of cases) {
      const res = await api(owner, `/api/editor/discovery/seo/pages/${pageId}`, { method: "PUT", body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("Bad Request");
      const issue = res.body.issues.find((i: { field: string }) => i.field === field);
      expect(issue?.message, JSON.stringify(res.body)).toContain(words);
    }
    const home = await api(owner, `/api/editor/discovery/seo/pages/${homeId}`);
    expect(home.body.seo).toEqual({
      title: null,
      description: null,
      canonical: null,
      noindex: false,
      locale: null,
      translationOf: null,
    });
    // The console shows the refusal beside the field, with what was typed.
    const form = await owner.post(`/discovery/pages/${homeId}`, { locale: "xx-!!", title: "Kept" });
    expect(form.status).toBe(400);
    const text = await form.text();
    expect(text).toContain('id="field-locale-error"');
    expect(text).toContain('value="Kept"');
  });

  it("lets a viewer read but not change, and answers 404 for another workspace's page", async () => {
    expect((await api(viewer, `/api/editor/discovery/seo/pages/${homeId}`)).status).toBe(200);
    const denied = await api(viewer, `/api/editor/discovery/seo/pages/${homeId}`, {
      method: "PUT",
      body: { title: "Viewer was here" },
    });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ error: "Forbidden", statusCode: 403 });
    expect((await viewer.post(`/discovery/pages/${homeId}`, { title: "Viewer was here" })).status).toBe(403);

    expect((await api(owner, `/api/editor/discovery/seo/pages/${otherPageId}`)).status).toBe(404);
    const foreign = await api(owner, `/api/editor/discovery/seo/pages/${otherPageId}`, {
      method: "PUT",
      body: { title: "Hijacked", noindex: true },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ error: "Not Found", statusCode: 404 });
    expect((await owner.get(`/discovery/pages/${otherPageId}`)).status).toBe(404);
    expect((await owner.post(`/discovery/pages/${otherPageId}`, { title: "Hijacked" })).status).toBe(404);
    const rows = await server.db.selectFrom("site_page_seo").selectAll().where("page_id", "=", otherPageId).execute();
    expect(rows).toEqual([]);
    // Its first page is its home page, at the site's own address.
    expect(await html(`/${OTHER_SITE}`)).not.toContain("Hijacked");
  });
});

describe("redirects", () => {
  it("adds a redirect in the console and sends visitors on with their query, where no page answers", async () => {
    const added = await owner.post("/discovery/redirects", {
      intent: "add",
      from: "/Old-About/?utm_source=x",
      to: "/about",
      status: "301",
    });
    expect(added.status).toBe(302);
    expect(added.headers.get("location")).toBe("/discovery/redirects?done=added");
    const list = await (await owner.get("/discovery/redirects")).text();
    expect(list).toContain("<code>/old-about</code>");

    const followed = await visitor().get(`/${SITE}/old-about?utm_source=news&x=1`);
    expect(followed.status).toBe(301);
    expect(followed.headers.get("location")).toBe(`/${SITE}/about?utm_source=news&x=1`);
    // Capitals and a trailing slash are the same address; so is a deeper path no route serves.
    expect((await visitor().get(`/${SITE}/OLD-ABOUT/`)).headers.get("location")).toBe(`/${SITE}/about`);
    const deep = await api(owner, "/api/editor/discovery/seo/redirects", {
      method: "POST",
      body: { from: "/menu/2019.html", to: "https://example.com/menu?v=2", status: 302 },
    });
    expect(deep.status).toBe(201);
    const external = await visitor().get(`/${SITE}/menu/2019.html?ref=a`);
    expect(external.status).toBe(302);
    expect(external.headers.get("location")).toBe("https://example.com/menu?v=2&ref=a");

    // A published page at the address wins over a redirect from it.
    expect(
      (await api(owner, "/api/editor/discovery/seo/redirects", { method: "POST", body: { from: "/about", to: "/" } }))
        .status,
    ).toBe(201);
    expect((await visitor().get(`/${SITE}/about`)).status).toBe(200);
    // To the home page: the site's own address.
    await api(owner, "/api/editor/discovery/seo/redirects", { method: "POST", body: { from: "/home", to: "/" } });
    expect((await visitor().get(`/${SITE}/home`)).headers.get("location")).toBe(`/${SITE}`);
    // No redirect: the site's 404.
    expect((await visitor().get(`/${SITE}/never-was`)).status).toBe(404);
  });

  it("refuses loops, including through a chain, and changes nothing", async () => {
    const post = (body: Record<string, unknown>) =>
      api(owner, "/api/editor/discovery/seo/redirects", { method: "POST", body });
    expect((await post({ from: "/a", to: "/b" })).status).toBe(201);
    expect((await post({ from: "/b", to: "/c?x=1" })).status).toBe(201);
    const loop = await post({ from: "/c", to: "/A/" });
    expect(loop.status).toBe(400);
    expect(loop.body.issues[0]).toEqual({
      field: "to",
      message: expect.stringContaining("/c → /a → /b → /c"),
    });
    const self = await post({ from: "/d", to: "/d?again" });
    expect(self.status).toBe(400);
    expect(self.body.issues[0].message).toContain("cannot point to its own address");
    // Editing an existing redirect into a loop is refused too.
    const list = await api(owner, "/api/editor/discovery/seo/redirects?q=/b");
    const b = list.body.redirects.find((r: { from: string }) => r.from === "/b");
    const edited = await api(owner, `/api/editor/discovery/seo/redirects/${b.id}`, {
      method: "PUT",
      body: { from: "/b", to: "/a" },
    });
    expect(edited.status).toBe(400);
    expect((await api(owner, "/api/editor/discovery/seo/redirects?q=/b")).body.redirects[0].to).toBe("/c?x=1");
    const rows = await server.db
      .selectFrom("site_redirects")
      .select("from_path")
      .where("from_path", "in", ["/c", "/d"])
      .execute();
    expect(rows).toEqual([]);
    // In the console: the message beside the field, the typed values kept.
    const form = await owner.post("/discovery/redirects", { intent: "add", from: "/c", to: "/a", status: "301" });
    expect(form.status).toBe(400);
    const text = await form.text();
    expect(text).toContain('id="field-to-error"');
    expect(text).toContain("This would make a loop");
    expect(text).toContain('value="/c"');
  });

  it("refuses bad addresses and a second redirect from the same address", async () => {
    const post = (body: Record<string, unknown>) =>
      api(owner, "/api/editor/discovery/seo/redirects", { method: "POST", body });
    const cases: [Record<string, unknown>, string][] = [
      [{ from: "https://example.com/x", to: "/a" }, "from"],
      [{ from: "", to: "/a" }, "from"],
      [{ from: "/x y", to: "/a" }, "from"],
      [{ from: "/x", to: "javascript:alert(1)" }, "to"],
      [{ from: "/x", to: "//evil.example/" }, "to"],
      [{ from: "/x", to: "" }, "to"],
      [{ from: "/x", to: "/a", status: 307 }, "status"],
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.issues.map((i: { field: string }) => i.field)).toContain(field);
    }
    const taken = await post({ from: "/A", to: "/somewhere" });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ error: "Conflict", statusCode: 409 });
  });

  it("searches, pages 50 at a time, edits and deletes", async () => {
    const { id: workspaceId } = await server.db
      .selectFrom("workspaces")
      .select("id")
      .where("slug", "=", SITE)
      .executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    await server.db
      .insertInto("site_redirects")
      .values(
        Array.from({ length: 60 }, (_, i) => ({
          id: `bulk-${SITE}-${String(i).padStart(3, "0")}`,
          workspace_id: workspaceId,
          from_path: `/bulk-${i}`,
          target: "/about",
          status: 301,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
    const first = await api(owner, "/api/editor/discovery/seo/redirects");
    expect(first.body.redirects).toHaveLength(50);
    expect(first.body.pageCount).toBe(2);
    const second = await api(owner, "/api/editor/discovery/seo/redirects?page=2");
    expect(second.body.redirects.length).toBe(first.body.total - 50);
    const found = await api(owner, "/api/editor/discovery/seo/redirects?q=BULK-5");
    expect(found.body.redirects.map((r: { from: string }) => r.from).sort()).toEqual([
      "/bulk-5",
      "/bulk-50",
      "/bulk-51",
      "/bulk-52",
      "/bulk-53",
      "/bulk-54",
      "/bulk-55",
      "/bulk-56",
      "/bulk-57",
      "/bulk-58",
      "/bulk-59",
    ]);
    // `%` and `_` are searched as themselves.
    expect((await api(owner, "/api/editor/discovery/seo/redirects?q=%25")).body.total).toBe(0);
    const page2 = await (await owner.get("/discovery/redirects?q=bulk&page=2")).text();
    expect(page2).toContain("Page 2 of 2");
    expect(page2).toContain('href="/discovery/redirects?q=bulk"');

    const target = found.body.redirects[0];
    const edit = await owner.get(`/discovery/redirects?edit=${target.id}`);
    expect(await edit.text()).toContain("Edit the redirect");
    const saved = await owner.post(`/discovery/redirects?edit=${target.id}`, {
      intent: "edit",
      id: target.id,
      from: target.from,
      to: "/a-propos",
      status: "302",
    });
    expect(saved.headers.get("location")).toBe("/discovery/redirects?done=updated");
    const after = await visitor().get(`/${SITE}${target.from}`);
    expect(after.status).toBe(302);
    expect(after.headers.get("location")).toBe(`/${SITE}/a-propos`);

    const deleted = await owner.post("/discovery/redirects", { intent: "delete", id: target.id });
    expect(deleted.headers.get("location")).toBe("/discovery/redirects?done=deleted");
    expect((await visitor().get(`/${SITE}${target.from}`)).status).toBe(404);
    expect((await api(owner, `/api/editor/discovery/seo/redirects/${target.id}`, { method: "DELETE" })).status).toBe(
      404,
    );
  });

  it("imports pasted lines all or none, naming the lines it refuses", async () => {
    const bad = await owner.post("/discovery/redirects", {
      intent: "import",
      lines: "/imp-1 /about 301\nnot-enough\n/imp-2 javascript:x\n# a comment\n\n/imp-3 /about 302",
    });
    expect(bad.status).toBe(400);
    const text = await bad.text();
    expect(text).toContain("2 lines are not redirects");
    expect(text).toContain("Line 2: write the old address");
    expect(text).toContain("Line 3: Give a path on your site");
    expect(text).toContain("/imp-3 /about 302"); // what was pasted comes back
    // A loop within the batch: the line that closes it is named, and nothing is added.
    const loop = await owner.post("/discovery/redirects", {
      intent: "import",
      lines: "/imp-1 /imp-2\n/imp-2 /imp-3\n/imp-3 /IMP-1/",
    });
    expect(loop.status).toBe(400);
    expect(await loop.text()).toContain("Line 3 (/imp-3): This would make a loop");
    const none = await server.db
      .selectFrom("site_redirects")
      .select("from_path")
      .where("from_path", "like", "/imp-%")
      .execute();
    expect(none).toEqual([]);

    const good = await owner.post("/discovery/redirects", {
      intent: "import",
      lines: "/imp-1 /about\n\t/IMP-2/\thttps://example.com/x 302\n",
    });
    expect(good.status).toBe(302);
    expect(good.headers.get("location")).toBe("/discovery/redirects?done=imported&n=2");
    expect(await (await owner.get(good.headers.get("location")!)).text()).toContain("2 redirects imported.");
    expect((await visitor().get(`/${SITE}/imp-2`)).headers.get("location")).toBe("https://example.com/x");
  });

  it("keeps another workspace's redirects out of reach, and viewers from changing them", async () => {
    const mine = await api(owner, "/api/editor/discovery/seo/redirects", {
      method: "POST",
      body: { from: "/private-old", to: "/about" },
    });
    expect(mine.status).toBe(201);
    const id = mine.body.id as string;
    expect((await api(stranger, "/api/editor/discovery/seo/redirects")).body.total).toBe(0);
    const put = await api(stranger, `/api/editor/discovery/seo/redirects/${id}`, {
      method: "PUT",
      body: { from: "/private-old", to: "https://evil.example/" },
    });
    expect(put.status).toBe(404);
    expect((await api(stranger, `/api/editor/discovery/seo/redirects/${id}`, { method: "DELETE" })).status).toBe(404);
    expect((await stranger.post("/discovery/redirects", { intent: "delete", id })).status).toBe(404);
    expect((await viewer.post("/discovery/redirects", { intent: "delete", id })).status).toBe(403);
    expect(
      (await api(viewer, "/api/editor/discovery/seo/redirects", { method: "POST", body: { from: "/v", to: "/" } }))
        .status,
    ).toBe(403);
    expect((await visitor().get(`/${SITE}/private-old`)).headers.get("location")).toBe(`/${SITE}/about`);
    // Another site's path is not this site's redirect.
    expect((await visitor().get(`/${OTHER_SITE}/private-old`)).status).toBe(404);
    // Without a session: the API's 401.
    expect((await api(visitor(), "/api/editor/discovery/seo/redirects")).status).toBe(401);
  });
});

describe("llms.txt settings", () => {
  it("is off until turned on, then answers the summary and the pages; the API and the console agree", async () => {
    expect((await visitor().get(`/${SITE}/llms.txt`)).status).toBe(404);
    const tooLong = await api(owner, "/api/editor/discovery/seo/llms", {
      method: "PUT",
      body: { enabled: true, summary: "x".repeat(2001) },
    });
    expect(tooLong.status).toBe(400);
    expect((await visitor().get(`/${SITE}/llms.txt`)).status).toBe(404);
    const saved = await owner.post("/discovery/llms", { enabled: "on", summary: "Sourdough and pastries." });
    expect(await saved.text()).toContain("Saved: your site publishes llms.txt.");
    expect((await api(viewer, "/api/editor/discovery/seo/llms")).body).toEqual({
      enabled: true,
      summary: "Sourdough and pastries.",
      path: `/${SITE}/llms.txt`,
    });
    const file = await visitor().get(`/${SITE}/llms.txt`);
    expect(file.status).toBe(200);
    expect(await file.text()).toContain("> Sourdough and pastries.");
    const off = await api(owner, "/api/editor/discovery/seo/llms", { method: "PUT", body: { enabled: false } });
    expect(off.body.enabled).toBe(false);
    expect((await visitor().get(`/${SITE}/llms.txt`)).status).toBe(404);
    expect(
      (await api(viewer, "/api/editor/discovery/seo/llms", { method: "PUT", body: { enabled: true } })).status,
    ).toBe(403);
    expect((await api(stranger, "/api/editor/discovery/seo/llms")).body.enabled).toBe(false);
  });
});
