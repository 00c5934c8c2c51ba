/**
 * Issue 15's "Done when", end to end: a public page is served from the page cache until something it shows
 * changes — through a console form or the editor API — and the very next request shows the change, on this
 * node and on a second process sharing the database (Postgres: LISTEN/NOTIFY; SQLite: the other process reads
 * the purge log the save wrote). Hits are told by the `Age` header only hits carry, and by the in-process
 * server's render count. (The signed events' side is in event-receivers.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, signUp, type Client } from "../helpers/client";
import { spawnBuiltServer, type ServerProcess } from "../helpers/process";
import { startServer, type TestServer } from "../helpers/server";
import { tempDir } from "../helpers/temp";

let server: TestServer;
let other: ServerProcess | undefined;
let owner: Client;
let pageId: string;
const files = tempDir("atrium-fresh-files");
const slug = `fresh-${Math.random().toString(36).slice(2, 8)}`;
/** The site's first page is its home page, at the site's root. */
const path = `/${slug}`;

const renders = () => server.atrium.runtime.services.pageCache.stats().renders;

async function visit(base: string): Promise<{ text: string; hit: boolean }> {
  const res = await fetch(`${base}${path}`, { redirect: "manual" });
  expect(res.status).toBe(200);
  return { text: await res.text(), hit: res.headers.has("age") };
}

const hero = (heading: string) => ({
  title: "Hours",
  slug: "hours",
  description: "",
  "blocks.0.type": "hero",
  "blocks.0.heading": heading,
  "blocks.0.text": "",
  "blocks.0.imageId": "",
  "blocks.0.ctaLabel": "",
  "blocks.0.ctaHref": "",
});

/** The console's page editor: save the draft and publish it, as an operator's browser posts it. */
async function publishInConsole(heading: string) {
  const res = await owner.post(`/website/pages/${pageId}`, { intent: "publish", ...hero(heading) });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** The editor API: the same module functions through JSON. */
async function publishThroughApi(heading: string) {
  const headers = { origin: new URL(server.url).origin, "content-type": "application/json" };
  const draft = await owner.request(`/api/editor/pages/${pageId}`, {
    method: "PUT",
    headers,
    body: JSON.stringify({
      title: "Hours",
      slug: "hours",
      description: "",
      blocks: [{ type: "hero", heading, text: "", imageId: null, ctaLabel: "", ctaHref: "" }],
    }),
  });
  expect(draft.status, await draft.clone().text()).toBe(200);
  const published = await owner.request(`/api/editor/pages/${pageId}/publish`, { method: "POST", headers });
  expect(published.status, await published.clone().text()).toBe(200);
}

async function eventually(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  server = await startServer({ FILES_DIR: files.path });
  ({ client: owner } = await signUp(server.url));
  await createWorkspace(owner, "Fresh Bakery", slug);
  const created = await owner.post("/website/pages/new", { inNavigation: "on", title: "Hours", slug: "hours" });
  expect(created.status, await created.clone().text()).toBe(302);
  pageId = /^\/website\/pages\/([^/?]+)/.exec(created.headers.get("location") ?? "")![1]!;
  await publishInConsole("Open at seven");
});

afterAll(async () => {
  other?.child.kill("SIGTERM");
  await server?.close();
  files.remove();
});

describe("a cached public page on one node", () => {
  it("is served from the cache, without a render, until a console save changes it; the next request shows it", async () => {
    await visit(server.url);
    const before = renders();
    const hit = await visit(server.url);
    expect(hit).toMatchObject({ hit: true });
    expect(hit.text).toContain("Open at seven");
    expect(renders()).toBe(before);

    await publishInConsole("Open at eight");
    const next = await visit(server.url);
    expect(next.hit).toBe(false);
    expect(next.text).toContain("Open at eight");
    expect(next.text).not.toContain("Open at seven");
    expect(await visit(server.url)).toMatchObject({ hit: true });
  });

  it("shows an editor API change at the very next request", async () => {
    expect((await visit(server.url)).hit).toBe(true);
    await publishThroughApi("Open at nine");
    const next = await visit(server.url);
    expect(next.text).toContain("Open at nine");
    expect(next.hit).toBe(false);
  });
});

describe("what a cached page shows of other pages", () => {
  it("lists a newly published page in its navigation at the next request, and drops it when it is unpublished", async () => {
    expect((await visit(server.url)).hit).toBe(true);
    const created = await owner.post("/website/pages/new", { inNavigation: "on", title: "Menu", slug: "menu" });
    expect(created.status, await created.clone().text()).toBe(302);
    const menuId = /^\/website\/pages\/([^/?]+)/.exec(created.headers.get("location") ?? "")![1]!;
    // A draft shows nowhere: its creation purges nothing, and the cached home page is still right.
    expect((await visit(server.url)).hit).toBe(true);
    const published = await owner.post(`/website/pages/${menuId}`, {
      intent: "publish",
      ...hero("Bread and soup"),
      title: "Menu",
      slug: "menu",
    });
    expect(published.status, await published.clone().text()).toBe(200);
    const after = await visit(server.url);
    expect(after.hit).toBe(false);
    expect(after.text).toContain(`href="/${slug}/menu"`);
    const unpublished = await owner.post(`/website/pages/${menuId}`, { intent: "unpublish" });
    expect(unpublished.status, await unpublished.clone().text()).toBeLessThan(400);
    const gone = await visit(server.url);
    expect(gone.hit).toBe(false);
    expect(gone.text).not.toContain(`href="/${slug}/menu"`);
  });
});

/** A render the page cache lets through: the visitor has a cart (a declared bypass cookie). */
async function render(base: string): Promise<string> {
  const res = await fetch(`${base}${path}`, { redirect: "manual", headers: { cookie: `atrium_cart_${slug}=none` } });
  expect(res.status).toBe(200);
  expect(res.headers.has("age")).toBe(false);
  return res.text();
}

/** Publishes a page linked from the site's header (its frame) through the console, and gives back its id. */
async function publishInNavigation(title: string, pageSlug: string): Promise<string> {
  const created = await owner.post("/website/pages/new", { inNavigation: "on", title, slug: pageSlug });
  expect(created.status, await created.clone().text()).toBe(302);
  const id = /^\/website\/pages\/([^/?]+)/.exec(created.headers.get("location") ?? "")![1]!;
  const published = await owner.post(`/website/pages/${id}`, {
    intent: "publish",
    ...hero(title),
    title,
    slug: pageSlug,
  });
  expect(published.status, await published.clone().text()).toBe(200);
  return id;
}

describe("a render that bypasses the page cache (ADR 031)", () => {
  const memo = () => server.atrium.runtime.services.pageCache.memoStats();

  it("reads the site's frame from memory, and shows a change to it at the very next render", async () => {
    await render(server.url);
    const before = memo().hits;
    await render(server.url);
    expect(memo().hits).toBeGreaterThan(before);

    const id = await publishInNavigation("Catering", "catering");
    expect(await render(server.url)).toContain(`href="/${slug}/catering"`);
    const unpublished = await owner.post(`/website/pages/${id}`, { intent: "unpublish" });
    expect(unpublished.status, await unpublished.clone().text()).toBeLessThan(400);
    expect(await render(server.url)).not.toContain(`href="/${slug}/catering"`);
  });
});

describe("a cached public page on a second process sharing the database", () => {
  beforeAll(async () => {
    other = await spawnBuiltServer(server.database, { FILES_DIR: files.path, LOG_LEVEL: "info" });
  });

  it("serves its own cached copy, and shows a save made on the first process within a second", async () => {
    const url = other!.url;
    // On Postgres it stores nothing until its LISTEN connection is up, a moment after it starts answering.
    await eventually(async () => (await visit(url)).hit, 5_000, "the second process to keep the page");
    expect((await visit(url)).text).toContain("Open at nine");

    await publishInConsole("Open at ten");
    // Postgres: the NOTIFY sent at the save's commit. SQLite: the purge log the other process polls twice a second.
    await eventually(async () => (await visit(url)).text.includes("Open at ten"), 1_000, "the second process's page");
  });

  it("renders with the frame the first process's save left, within a second, for visitors the cache lets through", async () => {
    const url = other!.url;
    expect(await render(url)).not.toContain(`href="/${slug}/opening-times"`);
    await publishInNavigation("Opening times", "opening-times");
    await eventually(
      async () => (await render(url)).includes(`href="/${slug}/opening-times"`),
      1_000,
      "the second process's render",
    );
  });
});
