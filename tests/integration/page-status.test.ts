/**
 * The stale-page diagnosis (issue 15, item 4; ADR 026 "Diagnosis") over real HTTP: `/api/routing-test`'s `cache`
 * (cacheable or why not, what the cache holds, tags and what purges each) and the console's /settings/page-status
 * (the same answer in words, another workspace's site kept out, "Refresh now" for admins only, audited).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, addMember, createWorkspace, signUp, uniqueEmail } from "../helpers/client";
import { insertVerifiedDomain } from "../helpers/domains";
import { startServer, type TestServer } from "../helpers/server";

const SLUG = `status-${Math.random().toString(36).slice(2, 7)}`;
const OTHER_SLUG = `status-other-${Math.random().toString(36).slice(2, 7)}`;
const DOMAIN = `${SLUG}.example.test`;
/** A site of its own for the route table, so no other test's purge or visit changes what it holds. */
const TABLE_SLUG = `status-table-${Math.random().toString(36).slice(2, 7)}`;

let server: TestServer;
let owner: Client;
let viewer: Client;
let tableOwner: Client;
let workspaceId: string;
let aboutId: string;
let welcomeId: string;

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read whatever JSON came back */
async function routingTest(query: string, headers: Record<string, string> = {}, as?: Client): Promise<any> {
  const res = as
    ? await as.get(`/api/routing-test?${query}`, headers)
    : await fetch(`${server.url}/api/routing-test?${query}`, { headers });
  expect(res.status, query).toBe(200);
  return res.json();
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** A page through the console's forms (the first one published is the home page); its id. */
async function publishPage(client: Client, title: string, slug: string, publish = true): Promise<string> {
  const created = await client.post("/website/pages/new", { inNavigation: "on", title, slug });
  expect(created.status, await created.clone().text()).toBe(302);
  const id = /^\/website\/pages\/([^/?]+)\?created=1$/.exec(created.headers.get("location") ?? "")?.[1];
  expect(id).toBeTruthy();
  if (publish) {
    const published = await client.post(`/website/pages/${id}`, {
      intent: "publish",
      title,
      slug,
      "blocks.0.type": "richText",
      "blocks.0.markdown": `About ${title}.`,
    });
    expect([200, 302], await published.clone().text()).toContain(published.status);
  }
  return id!;
}

const workspaceIdOf = async (slug: string) =>
  (await server.db.selectFrom("workspaces").select("id").where("slug", "=", slug).executeTakeFirstOrThrow()).id;

beforeAll(async () => {
  server = await startServer();
  owner = (await signUp(server.url)).client;
  await createWorkspace(owner, "Corner Shop", SLUG);
  workspaceId = await workspaceIdOf(SLUG);
  welcomeId = await publishPage(owner, "Welcome", "welcome");
  aboutId = await publishPage(owner, "About us", "about");
  await publishPage(owner, "Secret plans", "plans", false);
  const member = { client: new Client(server.url), email: uniqueEmail("viewer") };
  await signUp(server.url, member.email, { client: member.client });
  await addMember(server.url, owner, member, "viewer");
  viewer = member.client;

  tableOwner = (await signUp(server.url)).client;
  await createWorkspace(tableOwner, "Table Shop", TABLE_SLUG);
  await publishPage(tableOwner, "Home", "home");
  await publishPage(tableOwner, "About", "about");
  const llms = await tableOwner.post("/discovery/llms", { enabled: "on", summary: "A table of routes." });
  expect([200, 302]).toContain(llms.status);

  // Another workspace, protected by a password.
  const other = (await signUp(server.url)).client;
  await createWorkspace(other, "Elsewhere Books", OTHER_SLUG);
  const protectedSite = await other.post("/settings/site", { visibility: "protected", password: "open sesame 42" });
  expect([200, 302]).toContain(protectedSite.status);
});
afterAll(() => server.close());

describe("/api/routing-test's cache", () => {
  it("keeps the routing fields and adds, for a member of the site's workspace, the page, its tags and what purges each", async () => {
    const answer = await routingTest(`path=/${SLUG}/about`, {}, viewer);
    expect(answer).toMatchObject({
      kind: "deployment",
      rewrittenPath: `/${SLUG}/about`,
      redirect: null,
      site: { slug: SLUG, via: "path" },
      callerType: "public",
      target: { kind: "page" },
      page: { id: aboutId, title: "About us", status: "published" },
      cache: { cacheable: true, reason: null },
    });
    const tags = answer.cache.tags as string[];
    expect(tags).toEqual(expect.arrayContaining([`ws:${workspaceId}`, `ws:${workspaceId}:page:${aboutId}`]));
    // Only the page's own tag, never another page's.
    expect(tags).not.toContain(`ws:${workspaceId}:page:${welcomeId}`);
    const byTag = Object.fromEntries((answer.cache.purgedBy as { tag: string }[]).map((r) => [r.tag, r]));
    expect(byTag[`ws:${workspaceId}:page:${aboutId}`]).toMatchObject({
      kind: "page",
      id: aboutId,
      label: "Page 'About us'",
      families: ["pages"],
      consolePages: [{ path: `/website/pages/${aboutId}` }],
    });
    expect(byTag[`ws:${workspaceId}:branding`]).toMatchObject({
      label: "Branding",
      families: ["branding"],
      consolePages: [{ path: "/website/branding", label: "Branding" }],
    });
    expect(byTag[`ws:${workspaceId}`]).toMatchObject({ kind: "workspace", families: ["settings", "domains"] });
  });

  it("the home page shows the home page's tag and the list of pages", async () => {
    const answer = await routingTest(`path=/${SLUG}`, {}, owner);
    expect(answer.page).toMatchObject({ id: welcomeId, isHome: true });
    expect(answer.cache.tags).toEqual(
      expect.arrayContaining([`ws:${workspaceId}:page:${welcomeId}`, `ws:${workspaceId}:pages`]),
    );
  });

  // Maintainer review F10: the tags the diagnosis expects for a route it has not seen rendered are the ones a
  // real answer of that route declares, for every cacheable kind of route.
  it.each([
    ["home", ""],
    ["page", "/about"],
    ["contact", "/contact"],
    ["policies", "/policies"],
    ["robots", "/robots.txt"],
    ["sitemap", "/sitemap.xml"],
    ["llms", "/llms.txt"],
    ["theme", "/theme.css"],
    ["og-image", "/og-image"],
  ])("expects the %s route's own Cache-Tag before it is rendered", async (kind, rest) => {
    const path = `/${TABLE_SLUG}${rest}`;
    const predicted = await routingTest(`path=${encodeURIComponent(path)}`, {}, tableOwner);
    expect(predicted.target?.kind).toBe(kind);
    expect(predicted.cache).toMatchObject({ cacheable: true, cached: false, tagsFrom: "expected" });
    const res = await fetch(`${server.url}${path}`);
    expect(res.status, path).toBe(200);
    await res.arrayBuffer();
    // This server has no PUBLIC_URL, so no CDN may keep the answer and its Cache-Tag stays here: the cache holds
    // exactly the tags the route declared, which the diagnosis now reads back.
    expect(res.headers.get("cache-tag")).toBeNull();
    const held = await routingTest(`path=${encodeURIComponent(path)}`, {}, tableOwner);
    expect(held.cache).toMatchObject({ cached: true, tagsFrom: "cache" });
    expect(held.cache.tags.length).toBeGreaterThan(0);
    expect([...predicted.cache.tags].sort()).toEqual([...held.cache.tags].sort());
  });

  it("says a public page is cached after an anonymous GET, with its key, render time, expiry and hits", async () => {
    const visit = await fetch(`${server.url}/${SLUG}/about`);
    expect(visit.status).toBe(200);
    await visit.text();
    // Anyone learns that it is cached; only a member its key, hits and tags.
    expect((await routingTest(`path=/${SLUG}/about`)).cache).toEqual({ cacheable: true, reason: null, cached: true });
    const answer = await routingTest(`path=/${SLUG}/about`, {}, owner);
    expect(answer.cache).toMatchObject({
      cached: true,
      cacheable: true,
      key: expect.stringContaining(`/${SLUG}/about`),
      renderedAt: expect.any(String),
      expiresAt: expect.any(String),
      hits: expect.any(Number),
      tagsFrom: "cache",
    });
    expect(answer.cache.tags).toContain(`ws:${workspaceId}:page:${aboutId}`);
    expect(Date.parse(answer.cache.expiresAt)).toBeGreaterThan(Date.parse(answer.cache.renderedAt));
  });

  it("says why an answer is not cached: cookie, query, protected site, not public, nothing published, no site", async () => {
    const withCookie = await routingTest(`path=/${SLUG}/about`, { cookie: "atrium_session=abc" });
    expect(withCookie.cache).toMatchObject({ cacheable: false, reason: "cookie" });
    const withQuery = await routingTest(`path=${encodeURIComponent(`/${SLUG}/about?colour=red`)}`);
    expect(withQuery.cache).toMatchObject({ cacheable: false, reason: "query", cached: false });
    // Campaign tags are no reason to bypass.
    const campaign = await routingTest(`path=${encodeURIComponent(`/${SLUG}/about?utm_source=flyer`)}`);
    expect(campaign.cache).toMatchObject({ cacheable: true, reason: null });
    expect((await routingTest(`path=/${OTHER_SLUG}`)).cache).toMatchObject({ cacheable: false, reason: "protected" });
    expect((await routingTest("path=/settings")).cache).toMatchObject({ cacheable: false, reason: "not-public" });
    // No site answers these: nobody is its member, so even an operator gets the public answer.
    expect((await routingTest("path=/api/v1/contact", {}, owner)).cache).toEqual({
      cacheable: false,
      reason: "not-public",
      cached: false,
    });
    // A member learns that a draft is there, never its title (only a published copy's title is shown).
    const draft = await routingTest(`path=/${SLUG}/plans`, {}, owner);
    expect(draft.page).toMatchObject({ title: null, status: "draft" });
    expect(JSON.stringify(draft)).not.toContain("Secret plans");
    expect(draft.cache).toMatchObject({ cacheable: false, reason: "not-found" });
    expect((draft.cache.tags as string[]).filter((tag) => tag.includes(":page:"))).toEqual([]);
    expect((await routingTest(`path=/${SLUG}/no-such-page`)).cache).toMatchObject({ reason: "not-found" });
    expect((await routingTest("path=/nobody-has-this-site", {}, owner)).cache).toEqual({
      cacheable: false,
      reason: "no-site",
      cached: false,
    });
    for (const answer of [draft]) expect(answer.cache.why).toEqual(expect.any(String));
  });

  it("tells an anonymous caller the routing and whether the page is cached, never its page, tags, names or hits", async () => {
    const anonymous = [
      await routingTest(`path=/${SLUG}/about`),
      // A draft: its title and id stay the workspace's.
      await routingTest(`path=/${SLUG}/plans`),
      await routingTest(`url=${encodeURIComponent(`${server.url}/${SLUG}/plans`)}`),
      // A protected site: nothing of its pages.
      await routingTest(`path=/${OTHER_SLUG}`),
      // A signed-in operator who is no member of that site is anonymous to it.
      await routingTest(`path=/${OTHER_SLUG}`, {}, owner),
    ];
    const otherId = await workspaceIdOf(OTHER_SLUG);
    for (const answer of anonymous) {
      expect(answer.page).toBeNull();
      expect(answer.target).toBeNull();
      expect(Object.keys(answer.cache).sort()).toEqual(["cacheable", "cached", "reason"]);
      const text = JSON.stringify(answer);
      for (const secret of ["Secret plans", "About us", workspaceId, otherId, aboutId, "ws:"])
        expect(text).not.toContain(secret);
    }
    expect(anonymous[1].cache).toEqual({ cacheable: false, reason: "not-found", cached: false });
    expect(anonymous[3].cache).toMatchObject({ cacheable: false, reason: "protected" });
    expect(anonymous[3].site).toMatchObject({ slug: OTHER_SLUG });
  });

  it("is throttled per client address", async () => {
    const limited = await startServer({ ROUTING_TESTS_PER_ADDRESS_PER_MINUTE: "2" });
    try {
      for (let i = 0; i < 2; i++) expect((await fetch(`${limited.url}/api/routing-test`)).status).toBe(200);
      const refused = await fetch(`${limited.url}/api/routing-test`);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });

  it("answers a full url on a host this deployment serves, and refuses any other with 400", async () => {
    const answer = await routingTest(`url=${encodeURIComponent(`${server.url}/${SLUG}/about`)}`, {}, owner);
    expect(answer).toMatchObject({ host: new URL(server.url).host, page: { id: aboutId } });
    for (const url of ["https://elsewhere.example/about", "not a url", "ftp://127.0.0.1/x"]) {
      const res = await fetch(`${server.url}/api/routing-test?url=${encodeURIComponent(url)}`);
      expect(res.status, url).toBe(400);
      expect(await res.json()).toMatchObject({ error: "Bad Request", statusCode: 400 });
    }
  });
});

describe("/settings/page-status", () => {
  it("answers for the home page by default, in words", async () => {
    const res = await owner.get("/settings/page-status");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Page status");
    expect(html).toContain(`${server.url}/${SLUG}`);
    expect(html).toContain("The home page &#x27;Welcome&#x27;");
    expect(html).toContain("What refreshes it");
    expect(html).toContain("Branding");
    expect(html).toContain('href="/website/branding"');
    expect(html).toContain("/api/webhooks/branding");
    expect(html).toContain("The list of pages");
  });

  it("takes a path of the site and names its page, with the editor that refreshes it", async () => {
    const html = await (await owner.get("/settings/page-status?url=/about")).text();
    expect(html).toContain(`${server.url}/${SLUG}/about`);
    expect(html).toContain("Page &#x27;About us&#x27;");
    expect(html).toContain(`href="/website/pages/${aboutId}"`);
    expect(html).toContain("/api/webhooks/pages");
  });

  it("names a draft as a draft, never by its title", async () => {
    const html = await (await owner.get("/settings/page-status?url=/plans")).text();
    expect(html).toContain("A page: a draft, not published");
    expect(html).not.toContain("Secret plans");
  });

  it("says when nothing answers, refuses what is no address, and keeps another workspace's site out", async () => {
    const missing = await (await owner.get("/settings/page-status?url=/no-such-page")).text();
    expect(missing).toContain("Nothing is published at this address");
    expect(missing).toContain("No page has this address");
    // A 404 is never cached: nothing to refresh.
    expect(missing).not.toContain("What refreshes it");
    expect(missing).not.toContain("Refresh now");
    const invalid = await (await owner.get(`/settings/page-status?url=${encodeURIComponent("about us")}`)).text();
    expect(invalid).toContain("Enter a full address");
    const foreign = await (
      await owner.get(`/settings/page-status?url=${encodeURIComponent("https://elsewhere.example/")}`)
    ).text();
    expect(foreign).toContain("is not served by this deployment");
    const theirs = await (
      await owner.get(`/settings/page-status?url=${encodeURIComponent(`${server.url}/${OTHER_SLUG}`)}`)
    ).text();
    expect(theirs).toContain("Another workspace&#x27;s site");
    expect(theirs).not.toContain("What refreshes it");
    const otherId = await workspaceIdOf(OTHER_SLUG);
    expect(theirs).not.toContain(otherId);
  });

  it("lets any member look, and only an admin refresh", async () => {
    const looked = await viewer.get("/settings/page-status?url=/about");
    expect(looked.status).toBe(200);
    expect(await looked.text()).not.toContain("Refresh now");
    const refused = await viewer.post("/settings/page-status?url=/about", { intent: "refresh", url: "/about" });
    expect(refused.status).toBe(403);
    expect(await (await owner.get("/settings/page-status?url=/about")).text()).toContain("Refresh now");
  });

  it("Refresh now purges the address's tags, its own workspace's only, and records who did it", async () => {
    const purged: string[][] = [];
    const stop = server.atrium.runtime.services.pageCache.onPurge((tags) => purged.push([...tags]));
    try {
      const res = await owner.post(`/settings/page-status?url=${encodeURIComponent("/about")}`, {
        intent: "refresh",
        url: "/about",
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("Refreshed");
    } finally {
      stop();
    }
    expect(purged).toHaveLength(1);
    expect(purged[0]).toContain(`ws:${workspaceId}:page:${aboutId}`);
    expect(purged[0]!.every((tag) => tag === `ws:${workspaceId}` || tag.startsWith(`ws:${workspaceId}:`))).toBe(true);
    const audit = await server.db
      .selectFrom("audit_events")
      .select(["action", "detail", "actor_user_id"])
      .where("workspace_id", "=", workspaceId)
      .where("action", "=", "page-cache.refreshed")
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.detail)).toMatchObject({ url: `${server.url}/${SLUG}/about` });

    // Another workspace's address refreshes nothing.
    const purgedBefore = purged.length;
    const theirs = await owner.post("/settings/page-status", { intent: "refresh", url: `${server.url}/${OTHER_SLUG}` });
    expect(theirs.status).toBe(400);
    expect(purged).toHaveLength(purgedBefore);
  });
});

describe("a site on its custom domain", () => {
  beforeAll(async () => {
    await insertVerifiedDomain(server, workspaceId, DOMAIN);
  });

  it("routing-test resolves the domain's path to the site's page", async () => {
    const answer = await routingTest(`url=${encodeURIComponent(`https://${DOMAIN}/about`)}`, {}, owner);
    expect(answer).toMatchObject({
      host: DOMAIN,
      kind: "custom-domain",
      rewrittenPath: `/${SLUG}/about`,
      page: { id: aboutId },
      cache: { cacheable: true },
    });
    expect(answer.cache.tags).toContain(`ws:${workspaceId}:domains`);
  });

  it("the console takes a path at the site's domain, its home page by default", async () => {
    const home = await (await owner.get("/settings/page-status")).text();
    expect(home).toContain(`https://${DOMAIN}/`);
    expect(home).toContain("a custom domain of the site");
    const about = await (await owner.get("/settings/page-status?url=/about")).text();
    expect(about).toContain(`https://${DOMAIN}/about`);
    expect(about).toContain(`/${SLUG}/about`);
  });
});
