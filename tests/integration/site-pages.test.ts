/**
 * The website's pages over real HTTP (ADR 017): built in the console without JavaScript (form posts), saved as
 * drafts, previewed, published, shown at /{site} and /{site}/{page} from the next request; reserved slugs,
 * Markdown's `<script>` and `javascript:` refused or neutralised; revisions restored; roles enforced; another
 * workspace's page a 404 from the console and the editor API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isoNow } from "~/lib/clock.server";
import { newId } from "~/lib/ids.server";
import { seedDemoPages } from "~/modules/sites/demo-pages.server";
import { siteNavigation } from "~/modules/sites/navigation.server";
import { Client, addMember, createWorkspace, signUp } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
let owner: Client;
let other: Client;
let editor: Client;
let viewer: Client;
const SITE = `pages-${Math.random().toString(36).slice(2, 7)}`;
const OTHER_SITE = `other-${Math.random().toString(36).slice(2, 7)}`;

beforeAll(async () => {
  server = await startServer();
  owner = (await signUp(server.url)).client;
  await createWorkspace(owner, "Harbor Pages", SITE);
  const e = await signUp(server.url);
  editor = e.client;
  await addMember(server.url, owner, e, "editor");
  const v = await signUp(server.url);
  viewer = v.client;
  await addMember(server.url, owner, v, "viewer");
  other = (await signUp(server.url)).client;
  await createWorkspace(other, "Other Pages", OTHER_SITE);
  // Members work in the workspace they were invited to.
  const { id } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", SITE)
    .executeTakeFirstOrThrow();
  for (const member of [editor, viewer])
    expect((await apiJson(member, "/api/editor/session", { method: "POST", body: { workspaceId: id } })).status).toBe(
      200,
    );
});
afterAll(() => server.close());

const publicClient = () => new Client(server.url);

async function newPage(client: Client, fields: Record<string, string>): Promise<string> {
  const res = await client.post("/website/pages/new", { inNavigation: "on", ...fields });
  expect(res.status, await res.clone().text()).toBe(302);
  const location = res.headers.get("location") ?? "";
  const id = /^\/website\/pages\/([^/?]+)\?created=1$/.exec(location)?.[1];
  expect(id).toBeTruthy();
  return id!;
}

const heroFields = (heading: string, extra: Record<string, string> = {}) => ({
  "blocks.0.type": "hero",
  "blocks.0.heading": heading,
  "blocks.0.text": "Fresh every morning.",
  "blocks.0.imageId": "",
  "blocks.0.ctaLabel": "",
  "blocks.0.ctaHref": "",
  ...extra,
});

function post(client: Client, id: string, intent: string, fields: Record<string, string>) {
  return client.post(`/website/pages/${id}`, { intent, ...fields });
}

async function apiJson(client: Client, path: string, init: { method?: string; body?: unknown } = {}) {
  const res = await client.request(path, {
    method: init.method ?? "GET",
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    headers: {
      origin: new URL(server.url).origin,
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
    },
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

describe("building a page in the console", () => {
  let homeId: string;
  let aboutId: string;

  it("shows an empty state before the first page, and a designed welcome on the site", async () => {
    const list = await owner.get("/website");
    expect(list.status).toBe(200);
    expect(await list.text()).toContain("Your site has no pages yet");
    const home = await publicClient().get(`/${SITE}`);
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toContain("Harbor Pages");
    expect(html).toContain("Our new website is on its way");
  });

  it("creates the first page as the home page, which the public sees once published", async () => {
    homeId = await newPage(owner, { title: "Welcome", slug: "welcome" });
    const saved = await post(owner, homeId, "save", {
      title: "Welcome",
      slug: "welcome",
      description: "The bakery by the harbour.",
      ...heroFields("Bread worth getting up for"),
      "blocks.1.type": "richText",
      "blocks.1.markdown": "## Our loaves\n\nBaked **daily**.",
    });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Draft saved");
    // A draft: the site still shows its welcome.
    expect(await (await publicClient().get(`/${SITE}`)).text()).toContain("Our new website is on its way");

    const published = await post(owner, homeId, "publish", {
      title: "Welcome",
      slug: "welcome",
      description: "The bakery by the harbour.",
      ...heroFields("Bread worth getting up for"),
      "blocks.1.type": "richText",
      "blocks.1.markdown": "## Our loaves\n\nBaked **daily**.",
    });
    expect(published.status).toBe(200);
    const res = await publicClient().get(`/${SITE}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<h1 class="block-hero__heading">Bread worth getting up for<\/h1>/);
    expect(html).toContain("<h2>Our loaves</h2>");
    expect(html).toContain("<strong>daily</strong>");
    expect(html).toContain('<meta name="description" content="The bakery by the harbour."/>');
    expect(html).toContain(`<link rel="canonical" href="${server.url}/${SITE}"/>`);
    expect(html).not.toMatch(/<script(?! type="application\/ld\+json")/);
    // The home page's own slug leads to the site's address.
    const bySlug = await publicClient().get(`/${SITE}/welcome`);
    expect(bySlug.status).toBe(301);
    expect(bySlug.headers.get("location")).toBe(`/${SITE}`);
  });

  it("keeps a second page off the site until it is published, then shows each edit at the next request", async () => {
    aboutId = await newPage(owner, { title: "Our story", slug: "" });
    const editorPage = await owner.get(`/website/pages/${aboutId}`);
    expect(editorPage.status).toBe(200);
    expect(await editorPage.text()).toContain(`value="our-story"`);
    expect((await publicClient().get(`/${SITE}/our-story`)).status).toBe(404);

    await post(owner, aboutId, "publish", { title: "Our story", slug: "our-story", ...heroFields("Since 2009") });
    expect(await (await publicClient().get(`/${SITE}/our-story`)).text()).toContain("Since 2009");

    // Saved but not published: the public keeps the published copy.
    await post(owner, aboutId, "save", { title: "Our story", slug: "our-story", ...heroFields("Since 2010") });
    const stale = await (await publicClient().get(`/${SITE}/our-story`)).text();
    expect(stale).toContain("Since 2009");
    expect(await (await owner.get("/website")).text()).toContain("changes not live");

    await post(owner, aboutId, "publish", { title: "Our story", slug: "our-story", ...heroFields("Since 2010") });
    expect(await (await publicClient().get(`/${SITE}/our-story`)).text()).toContain("Since 2010");
  });

  it("puts new pages in the site's navigation, shown while they are published", async () => {
    const { db } = server;
    const workspace = await db.selectFrom("workspaces").select("id").where("slug", "=", SITE).executeTakeFirstOrThrow();
    expect((await siteNavigation(db, workspace.id, `/${SITE}`)).header).toEqual([
      { label: "Home", href: `/${SITE}` },
      { label: "Our story", href: `/${SITE}/our-story` },
    ]);
    const unpublished = await post(owner, aboutId, "unpublish", {});
    expect(unpublished.status).toBe(200);
    expect((await publicClient().get(`/${SITE}/our-story`)).status).toBe(404);
    expect((await siteNavigation(db, workspace.id, `/${SITE}`)).header).toEqual([{ label: "Home", href: `/${SITE}` }]);
    await post(owner, aboutId, "publish", { title: "Our story", slug: "our-story", ...heroFields("Since 2010") });
  });

  it("adds, moves and removes blocks without saving (no JavaScript needed)", async () => {
    const revisionsBefore = (await apiJson(owner, `/api/editor/pages/${aboutId}/revisions`)).body!.total;
    const added = await post(owner, aboutId, "add-block", {
      title: "Our story",
      slug: "our-story",
      ...heroFields("Since 2010"),
      newBlockType: "faq",
    });
    expect(added.status).toBe(200);
    const html = await added.text();
    expect(html).toContain("2. Questions and answers");
    expect(html).toContain("Unsaved changes");
    const moved = await post(owner, aboutId, "up:1", {
      title: "Our story",
      slug: "our-story",
      ...heroFields("Since 2010"),
      "blocks.1.type": "cta",
      "blocks.1.heading": "Visit",
      "blocks.1.label": "Come by",
      "blocks.1.href": "/x",
    });
    expect(await moved.text()).toMatch(/1\. Call to action[\s\S]*2\. Hero/);
    expect((await apiJson(owner, `/api/editor/pages/${aboutId}/revisions`)).body!.total).toBe(revisionsBefore);
  });

  it("previews the unsaved draft through the public renderer, for operators only, never cached", async () => {
    const fields = { intent: "preview", title: "Our story", slug: "our-story", ...heroFields("Unsaved heading") };
    const res = await owner.post(`/website/pages/${aboutId}/preview`, fields);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    expect(html).toContain('<h1 class="block-hero__heading">Unsaved heading</h1>');
    expect(html).toContain('content="noindex, nofollow"');
    expect(await (await publicClient().get(`/${SITE}/our-story`)).text()).not.toContain("Unsaved heading");
    // The saved draft of an unpublished page renders for its operator only.
    const draftOnly = await newPage(owner, { title: "Secret menu", slug: "secret-menu" });
    const preview = await owner.get(`/website/pages/${draftOnly}/preview`);
    expect(preview.status).toBe(200);
    expect(await preview.text()).toContain("Secret menu");
    expect((await publicClient().get(`/${SITE}/secret-menu`)).status).toBe(404);
    expect((await other.get(`/website/pages/${draftOnly}/preview`)).status).toBe(404);
    expect((await publicClient().get(`/website/pages/${draftOnly}/preview`)).status).toBe(302);
    // An invalid draft says what to fix instead of rendering.
    const invalid = await owner.post(`/website/pages/${aboutId}/preview`, { ...fields, "blocks.0.heading": "" });
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toContain("Block 1, heading: Enter a heading");
  });

  it("restores an earlier revision as the draft, published when the operator publishes", async () => {
    const { body } = await apiJson(owner, `/api/editor/pages/${aboutId}/revisions`);
    const revisions = body!.revisions as { id: string; number: number; kind: string }[];
    const first = revisions.find((r) => r.kind === "published")!;
    const history = await owner.get(`/website/pages/${aboutId}/history`);
    expect(history.status).toBe(200);
    expect(await history.text()).toContain(`#${first.number}`);
    // The oldest publish said "Since 2009".
    const oldest = revisions.filter((r) => r.kind === "published").at(-1)!;
    const restored = await owner.post(`/website/pages/${aboutId}/history`, { revisionId: oldest.id });
    expect(restored.status).toBe(302);
    expect(restored.headers.get("location")).toBe(`/website/pages/${aboutId}?restored=${oldest.number}`);
    expect(await (await publicClient().get(`/${SITE}/our-story`)).text()).toContain("Since 2010");
    const page = await apiJson(owner, `/api/editor/pages/${aboutId}`);
    expect(JSON.stringify((page.body!.draft as { blocks: unknown[] }).blocks)).toContain("Since 2009");
    expect((await apiJson(owner, `/api/editor/pages/${aboutId}/publish`, { method: "POST" })).status).toBe(200);
    expect(await (await publicClient().get(`/${SITE}/our-story`)).text()).toContain("Since 2009");
  });

  it("moves the home page and deletes a page after confirmation", async () => {
    expect((await post(owner, aboutId, "make-home", {})).status).toBe(200);
    expect(await (await publicClient().get(`/${SITE}`)).text()).toContain("Since 2009");
    expect((await publicClient().get(`/${SITE}/welcome`)).status).toBe(200);
    const deleted = await post(owner, homeId, "delete", {});
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("location")).toMatch(/^\/website\?deleted=/);
    expect((await publicClient().get(`/${SITE}/welcome`)).status).toBe(404);
    expect((await owner.get(`/website/pages/${homeId}`)).status).toBe(404);
  });
});

describe("bad input changes nothing", () => {
  let pageId: string;
  beforeAll(async () => {
    pageId = await newPage(owner, { title: "Rules", slug: "rules" });
  });

  it.each(["shop", "contact", "policies", "media", "robots", "login", "checkout"])(
    "refuses the reserved slug %s next to the field",
    async (slug) => {
      const before = (await apiJson(owner, "/api/editor/pages")).body!.total;
      const res = await owner.post("/website/pages/new", { title: "Grab", slug });
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain("kept for the site&#x27;s own pages");
      expect(html).toMatch(/id="field-slug"[^>]*aria-invalid="true"/);
      expect((await apiJson(owner, "/api/editor/pages")).body!.total).toBe(before);
      const saved = await post(owner, pageId, "save", { title: "Rules", slug, ...heroFields("Rules") });
      expect(saved.status).toBe(400);
      expect((await apiJson(owner, `/api/editor/pages/${pageId}`)).body!.slug).toBe("rules");
    },
  );

  it("refuses a slug with other characters, and one another page has", async () => {
    const res = await owner.post("/website/pages/new", { title: "Bad", slug: "Über uns!" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Use lowercase letters, digits and single hyphens");
    const taken = await owner.post("/website/pages/new", { title: "Again", slug: "rules" });
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain("Another page of this site already uses this address");
  });

  it("neutralises <script> and javascript: in Markdown, and refuses a javascript: button", async () => {
    const saved = await post(owner, pageId, "publish", {
      title: "Rules",
      slug: "rules",
      ...heroFields("Rules"),
      "blocks.1.type": "richText",
      "blocks.1.markdown": '<script>alert(1)</script>\n\n[click](javascript:alert(2)) <img src=x onerror="alert(3)">',
    });
    expect(saved.status).toBe(200);
    const html = await (await publicClient().get(`/${SITE}/rules`)).text();
    expect(html).not.toContain("<script>alert");
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).not.toMatch(/<img[^>]*onerror/i);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");

    const before = await apiJson(owner, `/api/editor/pages/${pageId}`);
    const refused = await post(owner, pageId, "save", {
      title: "Rules",
      slug: "rules",
      ...heroFields("Rules", { "blocks.0.ctaLabel": "Go", "blocks.0.ctaHref": "javascript:alert(1)" }),
    });
    expect(refused.status).toBe(400);
    const page = await refused.text();
    expect(page).toContain("Use a web address (https://…), a path on your site (/…), mailto: or tel:");
    // The draft as typed is shown again beside the error.
    expect(page).toContain('value="javascript:alert(1)"');
    expect((await apiJson(owner, `/api/editor/pages/${pageId}`)).body).toEqual(before.body);
  });

  it("answers the error contract on the API, and changes nothing", async () => {
    const before = await apiJson(owner, `/api/editor/pages/${pageId}`);
    const res = await apiJson(owner, `/api/editor/pages/${pageId}`, {
      method: "PUT",
      body: { title: "", slug: "cart", blocks: [{ type: "cta", heading: "x", label: "y", href: "javascript:x" }] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "Bad Request", statusCode: 400 });
    const fields = (res.body!.issues as { field: string }[]).map((i) => i.field);
    expect(fields).toEqual(expect.arrayContaining(["title", "blocks.0.href"]));
    const reserved = await apiJson(owner, `/api/editor/pages/${pageId}`, {
      method: "PUT",
      body: { title: "Rules", slug: "cart", blocks: [] },
    });
    expect(reserved.status).toBe(400);
    expect(reserved.body!.issues).toEqual([{ field: "slug", message: expect.stringContaining("kept for the site") }]);
    const unknownImage = await apiJson(owner, `/api/editor/pages/${pageId}`, {
      method: "PUT",
      body: { title: "Rules", slug: "rules", blocks: [{ type: "image", imageId: "nope" }] },
    });
    expect(unknownImage.status).toBe(400);
    expect((await apiJson(owner, `/api/editor/pages/${pageId}`)).body).toEqual(before.body);
  });
});

describe("roles", () => {
  let pageId: string;
  beforeAll(async () => {
    pageId = await newPage(owner, { title: "Team", slug: "team" });
  });

  it("lets a viewer read the pages and the editor but change nothing", async () => {
    expect((await viewer.get("/website")).status).toBe(200);
    const page = await viewer.get(`/website/pages/${pageId}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("an editor of the workspace can change it");
    expect(html).not.toContain(">Save draft</button>");
    expect((await post(viewer, pageId, "save", { title: "Mine", slug: "team", ...heroFields("x") })).status).toBe(403);
    expect((await viewer.get("/website/pages/new")).status).toBe(403);
    expect((await apiJson(viewer, `/api/editor/pages/${pageId}`)).status).toBe(200);
    expect(
      (
        await apiJson(viewer, `/api/editor/pages/${pageId}`, {
          method: "PUT",
          body: { title: "x", slug: "team", blocks: [] },
        })
      ).status,
    ).toBe(403);
    expect((await apiJson(viewer, `/api/editor/pages/${pageId}/publish`, { method: "POST" })).status).toBe(403);
    expect((await apiJson(viewer, `/api/editor/pages/${pageId}`)).body!.title).toBe("Team");
  });

  it("lets an editor write", async () => {
    const res = await post(editor, pageId, "publish", {
      title: "Team",
      slug: "team",
      ...heroFields("Meet the bakers"),
    });
    expect(res.status).toBe(200);
    expect(await (await publicClient().get(`/${SITE}/team`)).text()).toContain("Meet the bakers");
  });
});

describe("another workspace's page", () => {
  let pageId: string;
  let revisionId: string;
  let linkId: string;
  beforeAll(async () => {
    pageId = await newPage(owner, { title: "Private", slug: "private" });
    revisionId = (
      (await apiJson(owner, `/api/editor/pages/${pageId}/revisions`)).body!.revisions as { id: string }[]
    )[0]!.id;
    linkId = ((await apiJson(owner, "/api/editor/pages/navigation")).body!.header as { id: string }[])[0]!.id;
  });

  it("is a 404 from every console page and form", async () => {
    for (const path of [
      `/website/pages/${pageId}`,
      `/website/pages/${pageId}/history`,
      `/website/pages/${pageId}/preview`,
    ])
      expect((await other.get(path)).status, path).toBe(404);
    for (const intent of ["save", "publish", "unpublish", "make-home", "delete"])
      expect((await post(other, pageId, intent, { title: "x", slug: "x" })).status, intent).toBe(404);
    expect((await other.post(`/website/pages/${pageId}/history`, { revisionId })).status).toBe(404);
    expect((await other.post("/website/navigation", { intent: "remove", linkId })).status).toBe(404);
    expect(await (await other.get("/website")).text()).not.toContain("Private");
  });

  it("is a 404 from every editor API route, and nothing changes", async () => {
    const before = await apiJson(owner, `/api/editor/pages/${pageId}`);
    const calls: [string, string, unknown?][] = [
      ["GET", `/api/editor/pages/${pageId}`],
      ["PUT", `/api/editor/pages/${pageId}`, { title: "Mine", slug: "mine", blocks: [] }],
      ["DELETE", `/api/editor/pages/${pageId}`],
      ["POST", `/api/editor/pages/${pageId}/publish`],
      ["POST", `/api/editor/pages/${pageId}/unpublish`],
      ["POST", `/api/editor/pages/${pageId}/home`],
      ["GET", `/api/editor/pages/${pageId}/revisions`],
      ["POST", `/api/editor/pages/${pageId}/revisions/${revisionId}/restore`],
      ["PATCH", `/api/editor/pages/navigation/${linkId}`, { label: "Mine" }],
      ["DELETE", `/api/editor/pages/navigation/${linkId}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await apiJson(other, path, { method, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject({ error: "Not Found", statusCode: 404 });
    }
    expect((await apiJson(other, "/api/editor/pages")).body!.pages).toEqual([]);
    expect(await apiJson(owner, `/api/editor/pages/${pageId}`)).toEqual(before);
  });

  it("is not served on the other workspace's site", async () => {
    await apiJson(owner, `/api/editor/pages/${pageId}/publish`, { method: "POST" });
    expect((await publicClient().get(`/${SITE}/private`)).status).toBe(200);
    expect((await publicClient().get(`/${OTHER_SITE}/private`)).status).toBe(404);
  });
});

describe("the editor API", () => {
  it("creates, saves, publishes and lists pages as the console does", async () => {
    const created = await apiJson(owner, "/api/editor/pages", {
      method: "POST",
      body: {
        title: "Visit us",
        slug: "visit",
        inNavigation: false,
        blocks: [
          { type: "faq", heading: "Questions", items: [{ question: "Parking?", answer: "Yes, **free**." }] },
          { type: "contactForm", heading: "Write to us" },
        ],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ slug: "visit", status: "draft", path: `/${SITE}/visit`, isHome: false });
    const id = created.body!.id as string;
    const published = await apiJson(owner, `/api/editor/pages/${id}/publish`, { method: "POST" });
    expect(published.body).toMatchObject({ status: "published", hasChanges: false });
    const html = await (await publicClient().get(`/${SITE}/visit`)).text();
    expect(html).toContain("<summary>Parking?</summary>");
    expect(html).toContain("<strong>free</strong>");
    expect(html).toContain(`action="/api/v1/contact?site=${SITE}"`);

    const saved = await apiJson(owner, `/api/editor/pages/${id}`, {
      method: "PUT",
      body: { title: "Visit us", slug: "visit", blocks: [{ type: "richText", markdown: "Open daily." }] },
    });
    expect(saved.body).toMatchObject({ hasChanges: true });
    expect((await apiJson(owner, `/api/editor/pages/${id}/unpublish`, { method: "POST" })).body).toMatchObject({
      status: "draft",
    });
    expect((await publicClient().get(`/${SITE}/visit`)).status).toBe(404);
    const list = await apiJson(owner, "/api/editor/pages");
    expect((list.body!.pages as { slug: string }[]).map((p) => p.slug)).toContain("visit");
    expect((await apiJson(owner, `/api/editor/pages/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await apiJson(owner, `/api/editor/pages/${id}`)).status).toBe(404);
  });

  it("manages the navigation, refusing unsafe addresses", async () => {
    const bad = await apiJson(owner, "/api/editor/pages/navigation", {
      method: "POST",
      body: { area: "footer", label: "Bad", url: "javascript:alert(1)" },
    });
    expect(bad.status).toBe(400);
    const added = await apiJson(owner, "/api/editor/pages/navigation", {
      method: "POST",
      body: { area: "footer", label: "Instagram", url: "https://instagram.com/harbor" },
    });
    expect(added.status).toBe(201);
    const footer = added.body!.footer as { id: string; label: string }[];
    expect(footer.map((l) => l.label)).toEqual(["Instagram"]);
    const header = (added.body!.header as { id: string; label: string }[]).map((l) => l.label);
    const last = (added.body!.header as { id: string }[]).at(-1)!.id;
    const moved = await apiJson(owner, `/api/editor/pages/navigation/${last}`, {
      method: "PATCH",
      body: { move: "up" },
    });
    const after = (moved.body!.header as { label: string }[]).map((l) => l.label);
    expect(after.at(-2)).toBe(header.at(-1));
    // The console's navigation page lists the same links.
    expect(await (await owner.get("/website/navigation")).text()).toContain("Instagram");
  });
});

describe("images", () => {
  it("shows a workspace's images with sizes and variants, lazily below the hero", async () => {
    const { db } = server;
    const workspace = await db.selectFrom("workspaces").select("id").where("slug", "=", SITE).executeTakeFirstOrThrow();
    const at = isoNow();
    const ids = ["hero", "a", "b"].map(() => newId());
    for (const [i, id] of ids.entries())
      await db
        .insertInto("files")
        .values({
          id,
          workspace_id: workspace.id,
          sha256: String(i).repeat(64),
          content_type: "image/jpeg",
          byte_size: 1000,
          width: 1600,
          height: 1200,
          filename: `${i}.jpg`,
          alt: `Picture ${i}`,
          created_at: at,
          updated_at: at,
        })
        .execute();
    const created = await apiJson(owner, "/api/editor/pages", {
      method: "POST",
      body: {
        title: "Gallery",
        slug: "gallery",
        blocks: [
          { type: "hero", heading: "Look", imageId: ids[0] },
          { type: "gallery", imageIds: [ids[1], ids[2]] },
        ],
      },
    });
    expect(created.status).toBe(201);
    await apiJson(owner, `/api/editor/pages/${created.body!.id as string}/publish`, { method: "POST" });
    const html = await (await publicClient().get(`/${SITE}/gallery`)).text();
    expect(html).toMatch(
      new RegExp(
        `<img src="/${SITE}/media/0{64}-960\\.webp"[^>]*width="1600" height="1200" alt="Picture 0" loading="eager"`,
      ),
    );
    expect(html).toMatch(/alt="Picture 1" loading="lazy"/);
    expect(html).toContain(`/${SITE}/media/${"2".repeat(64)}-320.webp 320w`);
    expect(html).toContain(
      `<meta property="og:image" content="${server.url}/${SITE}/media/${"0".repeat(64)}-960.webp"/>`,
    );
  });
});

describe("the demo's pages", () => {
  it("seed a published home page, a menu and a story, with navigation", async () => {
    const { db } = server;
    const slug = `demo-${Math.random().toString(36).slice(2, 7)}`;
    const demo = await signUp(server.url);
    await createWorkspace(demo.client, "Demo Bakery", slug);
    const workspace = await db.selectFrom("workspaces").select("id").where("slug", "=", slug).executeTakeFirstOrThrow();
    await seedDemoPages(db, workspace.id, {});
    const home = await (await publicClient().get(`/${slug}`)).text();
    expect(home).toContain("Bread worth getting up for");
    expect(home).toContain("Good to know");
    expect((await publicClient().get(`/${slug}/menu`)).status).toBe(200);
    expect((await publicClient().get(`/${slug}/about`)).status).toBe(200);
    const nav = await siteNavigation(db, workspace.id, `/${slug}`);
    expect(nav.header.map((l) => l.href)).toEqual([`/${slug}`, `/${slug}/menu`, `/${slug}/about`, `/${slug}/contact`]);
    expect(nav.footer.map((l) => l.label)).toEqual(["Our story", "Instagram", "Work with us"]);
  });
});
