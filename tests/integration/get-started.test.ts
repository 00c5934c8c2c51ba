/**
 * The get-started checklist's website steps over real HTTP: "brand" ticks once the branding is saved, "first
 * page" once a page exists, "publish" only while the home page is published — never from a click, and never
 * from another page being published. A viewer sees the same list; the home page moving to an unpublished
 * page un-ticks "publish", and the former home's "Home" menu link takes its own title.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteNavigation } from "~/modules/sites/navigation.server";
import { type Client, addMember, createWorkspace, signUp } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { tempDir } from "../helpers/temp";

let server: TestServer;
let owner: Client;
let viewer: Client;
const SITE = `start-${Math.random().toString(36).slice(2, 7)}`;
const STEPS = {
  brand: "Make the site look like your business",
  "first-page": "Build your first page",
  publish: "Publish your site",
} as const;

const files = tempDir("atrium-get-started-files");
/** An old website with nothing to import: no logo, icon, theme colour or share image. */
let plainSite: Server;
let plainSiteUrl = "";

beforeAll(async () => {
  plainSite = createServer((_req, res) =>
    res
      .writeHead(200, { "content-type": "text/html; charset=utf-8" })
      .end("<!doctype html><html><head><title>Plain</title></head><body><p>Hello</p></body></html>"),
  );
  await new Promise<void>((resolve) => plainSite.listen(0, "127.0.0.1", resolve));
  plainSiteUrl = `http://127.0.0.1:${(plainSite.address() as AddressInfo).port}`;
  // The old website is on loopback, which the outbound guard refuses unless told otherwise (tests only).
  server = await startServer({ FILES_DIR: files.path, OUTBOUND_ALLOW_PRIVATE: "true", JOBS_POLL_MS: "50" });
  owner = (await signUp(server.url)).client;
  await createWorkspace(owner, "Start Bakery", SITE);
  const v = await signUp(server.url);
  viewer = v.client;
  await addMember(server.url, owner, v, "viewer");
  const { id } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", SITE)
    .executeTakeFirstOrThrow();
  expect((await api(viewer, "/api/editor/session", "POST", { workspaceId: id })).status).toBe(200);
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => plainSite.close(() => resolve()));
  files.remove();
});

function api(client: Client, path: string, method = "GET", body?: unknown) {
  return client.request(path, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: {
      origin: new URL(server.url).origin,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
  });
}

/** Which of the three website steps the checklist page shows as done, as a reader of the page hears it. */
async function ticked(client: Client): Promise<Record<keyof typeof STEPS, boolean>> {
  const res = await client.get("/get-started");
  expect(res.status).toBe(200);
  const html = await res.text();
  const state = (title: string) => {
    if (html.includes(`${title}<span class="visually-hidden"> (done)</span>`)) return true;
    if (html.includes(`${title}<span class="visually-hidden"> (to do)</span>`)) return false;
    throw new Error(`the checklist has no step "${title}"`);
  };
  return { brand: state(STEPS.brand), "first-page": state(STEPS["first-page"]), publish: state(STEPS.publish) };
}

async function newPage(title: string): Promise<string> {
  const res = await api(owner, "/api/editor/pages", "POST", {
    title,
    blocks: [{ type: "hero", heading: title, text: "", ctaLabel: "", ctaHref: "" }],
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe("the get-started checklist's website steps", () => {
  let homeId = "";
  let aboutId = "";

  it("starts with brand, first page and publish to do, each linking where it is done", async () => {
    expect(await ticked(owner)).toEqual({ brand: false, "first-page": false, publish: false });
    const html = await (await owner.get("/get-started")).text();
    expect(html).toContain('href="/website/branding">Set up your brand</a>');
    expect(html).toContain('href="/website/pages/new">Create a page</a>');
    expect(html).toContain('href="/website">Publish a home page</a>');
  });

  it("leaves brand to do after an import that found nothing to bring in", async () => {
    expect((await api(owner, "/api/editor/branding/import", "POST", { url: plainSiteUrl })).status).toBe(202);
    let status = "";
    for (let i = 0; i < 200 && status !== "done" && status !== "failed"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = ((await (await api(owner, "/api/editor/branding/import")).json()) as { status: string }).status;
    }
    expect(status).toBe("done");
    expect(await ticked(owner)).toEqual({ brand: false, "first-page": false, publish: false });
  });

  it("ticks brand once the branding is saved, and nothing else", async () => {
    const res = await api(owner, "/api/editor/branding", "PUT", {
      colors: { brand: "#8b4513", accent: "#1f3a5f", background: "#ffffff", text: "#1c2321" },
      headingFont: "fraunces",
      bodyFont: "inter",
      corners: "soft",
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await ticked(owner)).toEqual({ brand: true, "first-page": false, publish: false });
  });

  it("ticks first page once a page exists, though nothing is published yet", async () => {
    homeId = await newPage("Welcome");
    expect(await ticked(owner)).toEqual({ brand: true, "first-page": true, publish: false });
    const html = await (await owner.get("/get-started")).text();
    expect(html).toContain('href="/website">See your pages</a>');
  });

  it("takes back the page it gave: a hero without an image round-trips through the editor API", async () => {
    const res = await api(owner, `/api/editor/pages/${homeId}`);
    expect(res.status).toBe(200);
    const { draft } = (await res.json()) as { draft: { title: string; slug?: string; blocks: unknown[] } };
    const saved = await api(owner, `/api/editor/pages/${homeId}`, "PUT", { slug: "welcome", ...draft });
    expect(saved.status, await saved.clone().text()).toBe(200);
  });

  it("does not tick publish for a page other than the home page", async () => {
    aboutId = await newPage("About us");
    expect((await api(owner, `/api/editor/pages/${aboutId}/publish`, "POST")).status).toBe(200);
    expect((await ticked(owner)).publish).toBe(false);
  });

  it("ticks publish once the home page is published, for the viewer too", async () => {
    expect((await api(owner, `/api/editor/pages/${homeId}/publish`, "POST")).status).toBe(200);
    expect(await ticked(owner)).toEqual({ brand: true, "first-page": true, publish: true });
    expect(await ticked(viewer)).toEqual({ brand: true, "first-page": true, publish: true });
    expect((await fetch(`${server.url}/${SITE}`)).status).toBe(200);
  });

  it("un-ticks publish when the home page is unpublished, and ticks it again when a published page becomes home", async () => {
    expect((await api(owner, `/api/editor/pages/${homeId}/unpublish`, "POST")).status).toBe(200);
    expect((await ticked(owner)).publish).toBe(false);
    expect((await api(owner, `/api/editor/pages/${aboutId}/home`, "POST")).status).toBe(200);
    expect((await ticked(owner)).publish).toBe(true);
  });

  it("renames the former home page's 'Home' menu link to its title", async () => {
    expect((await api(owner, `/api/editor/pages/${homeId}/publish`, "POST")).status).toBe(200);
    const { id } = await server.db
      .selectFrom("workspaces")
      .select("id")
      .where("slug", "=", SITE)
      .executeTakeFirstOrThrow();
    const { header } = await siteNavigation(server.db, id, `/${SITE}`);
    expect(header).toEqual([
      { label: "Welcome", href: `/${SITE}/welcome` },
      { label: "About us", href: `/${SITE}` },
    ]);
  });
});
