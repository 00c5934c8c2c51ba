/**
 * The editor API's pages routes given what an attacker or a broken client sends (ADR 017): every malformed
 * body, unsafe address, reserved or disguised slug and out-of-range number is a 4xx in the error contract,
 * never a 500, and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createWorkspace, signUp } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
let owner: Client;
let pageId: string;
let otherPageId: string;
let otherRevisionId: string;
let linkId: string;
const SITE = `bad-${Math.random().toString(36).slice(2, 7)}`;

async function apiJson(path: string, init: { method?: string; body?: unknown; raw?: string } = {}) {
  const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  const res = await owner.request(path, {
    method: init.method ?? "GET",
    body,
    headers: {
      origin: new URL(server.url).origin,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

const rows = async () => ({
  pages: await server.db.selectFrom("site_pages").selectAll().orderBy("id").execute(),
  revisions: await server.db.selectFrom("site_page_revisions").select("id").orderBy("id").execute(),
  links: await server.db.selectFrom("site_nav_links").selectAll().orderBy("id").execute(),
});

beforeAll(async () => {
  server = await startServer();
  owner = (await signUp(server.url)).client;
  await createWorkspace(owner, "Bad Input Bakery", SITE);
  const created = await apiJson("/api/editor/pages", { method: "POST", body: { title: "Welcome" } });
  expect(created.status).toBe(201);
  pageId = created.body!.id as string;
  const second = await apiJson("/api/editor/pages", { method: "POST", body: { title: "Menu" } });
  otherPageId = second.body!.id as string;
  const revisions = await apiJson(`/api/editor/pages/${otherPageId}/revisions`);
  otherRevisionId = (revisions.body!.revisions as { id: string }[])[0]!.id;
  const nav = await apiJson("/api/editor/pages/navigation");
  linkId = (nav.body!.header as { id: string }[])[0]!.id;
});
afterAll(() => server.close());

const UNSAFE_HREFS = [
  "javascript:alert(1)",
  " javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "java\tscript:alert(1)",
  "java\nscript:alert(1)",
  "&#106;avascript:alert(1)",
  "javascript&colon;alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "//evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "/ /evil.example",
  "file:///etc/passwd",
  "mailto:",
];

const block = (b: Record<string, unknown>) => ({ title: "Welcome", slug: "welcome", blocks: [b] });

const BAD_DRAFTS: [string, unknown][] = [
  ["null", null],
  ["an array", []],
  ["a string", "page"],
  ["a number title", { title: 5, slug: "welcome", blocks: [] }],
  ["blocks as a string", { title: "Welcome", slug: "welcome", blocks: "hero" }],
  ["a null block", { title: "Welcome", slug: "welcome", blocks: [null] }],
  ["an unknown block type", block({ type: "script", html: "<script>" })],
  ["a block without a type", block({ heading: "x" })],
  ["gallery ids as a string", block({ type: "gallery", imageIds: "abc" })],
  ["a gallery of numbers", block({ type: "gallery", imageIds: [1, 2] })],
  ["a null question", block({ type: "faq", items: [null] })],
  ["an object image id", block({ type: "hero", heading: "Hi", imageId: { $ne: null } })],
  ["an image from nowhere", block({ type: "image", imageId: "01HZZZZZZZZZZZZZZZZZZZZZZZ" })],
  ["too long a heading", block({ type: "hero", heading: "x".repeat(121) })],
  [
    "41 blocks",
    { title: "Welcome", slug: "welcome", blocks: Array.from({ length: 41 }, () => ({ type: "contactForm" })) },
  ],
  ["a reserved slug", { title: "Welcome", slug: "contact", blocks: [] }],
  ["a reserved slug in capitals", { title: "Welcome", slug: "CONTACT", blocks: [] }],
  ["a reserved slug padded", { title: "Welcome", slug: "  policies  ", blocks: [] }],
  ["a full-width slug", { title: "Welcome", slug: "ｃｏｎｔａｃｔ", blocks: [] }],
  ["a slug with a trailing dash", { title: "Welcome", slug: "contact-", blocks: [] }],
  ["a slug with a dot", { title: "Welcome", slug: "theme.css", blocks: [] }],
  ["a slug with a slash", { title: "Welcome", slug: "a/b", blocks: [] }],
  ["an accented slug", { title: "Welcome", slug: "café", blocks: [] }],
  ...UNSAFE_HREFS.map((href): [string, unknown] => [
    `a button to ${JSON.stringify(href)}`,
    block({ type: "cta", heading: "Go", label: "Go", href }),
  ]),
  ...UNSAFE_HREFS.map((href): [string, unknown] => [
    `a hero button to ${JSON.stringify(href)}`,
    block({ type: "hero", heading: "Go", ctaLabel: "Go", ctaHref: href }),
  ]),
];

describe("the editor API, given bad input", () => {
  it.each(BAD_DRAFTS)("refuses %s as a draft with a 400 and changes nothing", async (_, body) => {
    const before = await rows();
    const res = await apiJson(`/api/editor/pages/${pageId}`, { method: "PUT", body });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ error: expect.any(String), message: expect.any(String), statusCode: 400 });
    expect(await rows()).toEqual(before);
  });

  it.each(BAD_DRAFTS)("refuses %s as a new page with a 400 and changes nothing", async (_, body) => {
    const before = await rows();
    const res = await apiJson("/api/editor/pages", { method: "POST", body });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(await rows()).toEqual(before);
  });

  it("refuses a body that is not JSON, or too deep to read", async () => {
    const before = await rows();
    for (const raw of ["{", "undefined", "[".repeat(5_000) + "]".repeat(5_000)]) {
      const res = await apiJson(`/api/editor/pages/${pageId}`, { method: "PUT", raw });
      expect(res.status, raw.slice(0, 20)).toBe(400);
    }
    expect(await rows()).toEqual(before);
  });

  it.each([
    ["an unknown area", { area: "sidebar", label: "Hi", url: "https://example.com" }],
    ["a javascript: address", { area: "header", label: "Hi", url: "javascript:alert(1)" }],
    ["a protocol-relative address", { area: "header", label: "Hi", url: "//evil.example" }],
    ["a page and an address", { area: "header", label: "Hi", pageId: "x", url: "https://example.com" }],
    ["a page that is not one", { area: "header", label: "Hi", pageId: "01HZZZZZZZZZZZZZZZZZZZZZZZ" }],
    ["an empty label", { area: "footer", label: " ", url: "https://example.com" }],
    ["a number pageId", { area: "footer", label: "Hi", pageId: 7 }],
  ])("refuses a navigation link with %s", async (_, body) => {
    const before = await rows();
    const res = await apiJson("/api/editor/pages/navigation", { method: "POST", body });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(await rows()).toEqual(before);
  });

  it.each([
    ["nothing to change", {}],
    ["a sideways move", { move: "sideways" }],
    ["an empty label", { label: "" }],
    ["a label too long", { label: "x".repeat(41) }],
  ])("refuses a link change with %s", async (_, body) => {
    const before = await rows();
    const res = await apiJson(`/api/editor/pages/navigation/${linkId}`, { method: "PATCH", body });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(await rows()).toEqual(before);
  });

  it("answers odd page numbers of the lists without failing", async () => {
    for (const n of ["abc", "-1", "0", "1e9", "99999999999999999999", "1.5"]) {
      expect((await apiJson(`/api/editor/pages?page=${n}`)).status, n).toBeLessThan(500);
      expect((await apiJson(`/api/editor/pages/${pageId}/revisions?page=${n}`)).status, n).toBeLessThan(500);
    }
  });

  it("does not restore another page's revision onto this page", async () => {
    const before = await rows();
    const res = await apiJson(`/api/editor/pages/${pageId}/revisions/${otherRevisionId}/restore`, { method: "POST" });
    expect(res.status).toBe(404);
    const preview = await owner.get(`/website/pages/${pageId}/preview?revision=${otherRevisionId}`);
    expect(preview.status).toBe(404);
    expect(await rows()).toEqual(before);
  });

  it("refuses the wrong methods with a 405", async () => {
    for (const [method, path] of [
      ["POST", `/api/editor/pages/${pageId}`],
      ["PUT", "/api/editor/pages"],
      ["GET", `/api/editor/pages/${pageId}/publish`],
      ["DELETE", `/api/editor/pages/${pageId}/revisions`],
    ] as const) {
      const res = await apiJson(path, { method });
      expect(res.status, `${method} ${path}`).toBe(405);
    }
  });
});

describe("the home page's own address", () => {
  it("redirects to the site with its query, and says how long the redirect may be kept", async () => {
    const published = await apiJson(`/api/editor/pages/${pageId}/publish`, { method: "POST" });
    expect(published.status).toBe(200);
    const res = await new Client(server.url).get(`/${SITE}/welcome?utm=x`);
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe(`/${SITE}?utm=x`);
    // Another page may become the home page tomorrow, and this address a page again: a visitor's browser
    // must not keep the redirect for ever (a 301 without Cache-Control is cached indefinitely).
    expect(res.headers.get("cache-control")).toMatch(/no-store|max-age=\d+/);
  });
});
