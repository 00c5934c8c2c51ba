/**
 * Issue 15, items 1 and 2 (ADR 026, "tags"): every public answer of a site declares what it shows in its
 * `Cache-Tag`, and every write that changes a public answer purges exactly those tags, through real HTTP calls
 * of the console's forms and the editor API. Purges are recorded with `services.pageCache.onPurge`. Also:
 * protected, error and redirect answers are never `public`; two anonymous visitors get the same bytes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setStatus } from "~/modules/accounts/users.server";
import { PUBLIC_CACHE_CONTROL, joinTags } from "~/modules/cache/headers";
import { cacheTags } from "~/modules/cache/tags";
import { siteAccessOf } from "~/modules/site-access/visibility.server";
import { Client, createWorkspace, signUp } from "../helpers/client";
import { png } from "../helpers/files";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
let filesDir: string;
let owner: Client;
let ownerEmail: string;
let ws: string;
let homeId: string;
let aboutId: string;
const suffix = Math.random().toString(36).slice(2, 7);
let SLUG = `tags-${suffix}`;

/** Every tag purged since the last call to `purgedBy`, by the action it ran. */
const purges: string[][] = [];
async function purgedBy(action: () => Promise<unknown>): Promise<Set<string>> {
  purges.length = 0;
  await action();
  return new Set(purges.flat());
}

const anonymous = () => new Client(server.url);

async function workspaceId(slug: string): Promise<string> {
  const row = await server.db.selectFrom("workspaces").select("id").where("slug", "=", slug).executeTakeFirstOrThrow();
  return row.id;
}

const hero = (heading: string) => ({
  "blocks.0.type": "hero",
  "blocks.0.heading": heading,
  "blocks.0.text": "Fresh every morning.",
  "blocks.0.imageId": "",
  "blocks.0.ctaLabel": "",
  "blocks.0.ctaHref": "",
});

async function newPage(title: string, slug: string): Promise<string> {
  const res = await owner.post("/website/pages/new", { inNavigation: "on", title, slug });
  expect(res.status, await res.clone().text()).toBe(302);
  return /^\/website\/pages\/([^/?]+)\?created=1$/.exec(res.headers.get("location") ?? "")![1]!;
}

async function publish(id: string, title: string, slug: string, heading: string) {
  const res = await owner.post(`/website/pages/${id}`, {
    intent: "publish",
    title,
    slug,
    description: "",
    ...hero(heading),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

function api(client: Client, path: string, method: string, body?: unknown) {
  return client.request(path, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: {
      origin: new URL(server.url).origin,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
  });
}

const draft = (title: string, slug: string, heading: string) => ({
  title,
  slug,
  description: "",
  blocks: [{ type: "hero", heading, text: "", imageId: null, ctaLabel: "", ctaHref: "" }],
});

/** What every page of the site shows (its frame; the shop's tag for the header's cart link, ADR 030). */
const frame = () => [
  cacheTags.shop(ws),
  cacheTags.workspace(ws),
  cacheTags.branding(ws),
  cacheTags.navigation(ws),
  cacheTags.settings(ws),
  cacheTags.domains(ws),
  cacheTags.media(ws),
];

beforeAll(async () => {
  filesDir = mkdtempSync(join(tmpdir(), "atrium-tags-"));
  server = await startServer({
    FILES_DIR: filesDir,
    PUBLIC_URL: "https://atrium.example.test",
    DOMAIN_CNAME_TARGET: "sites.atrium.example.test",
  });
  server.atrium.runtime.services.pageCache.onPurge((tags) => purges.push([...tags]));
  const signedUp = await signUp(server.url);
  owner = signedUp.client;
  ownerEmail = signedUp.email;
  await createWorkspace(owner, "Tag Bakery", SLUG);
  ws = await workspaceId(SLUG);
  homeId = await newPage("Welcome", "welcome");
  aboutId = await newPage("Our story", "our-story");
  await publish(homeId, "Welcome", "welcome", "Bread worth getting up for");
  await publish(aboutId, "Our story", "our-story", "Since 2009");
});
afterAll(async () => {
  await server.close();
  rmSync(filesDir, { recursive: true, force: true });
});

describe("what a public answer declares", () => {
  it("tags a page with its site's frame and itself, the home page with the list of pages too", async () => {
    const about = await anonymous().get(`/${SLUG}/our-story`);
    expect(about.status).toBe(200);
    expect(about.headers.get("cache-control")).toBe(PUBLIC_CACHE_CONTROL);
    expect(about.headers.get("cache-tag")).toBe(joinTags(frame(), [cacheTags.page(ws, aboutId)]));

    const home = await anonymous().get(`/${SLUG}`);
    expect(home.status).toBe(200);
    expect(home.headers.get("cache-tag")).toBe(joinTags(frame(), [cacheTags.page(ws, homeId), cacheTags.pages(ws)]));

    for (const path of [`/${SLUG}/contact`, `/${SLUG}/policies`]) {
      const res = await anonymous().get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("cache-control"), path).toBe(PUBLIC_CACHE_CONTROL);
      expect(res.headers.get("cache-tag"), path).toBe(joinTags(frame()));
    }
  });

  it("tags the technical files with what they show", async () => {
    const base = [cacheTags.workspace(ws), cacheTags.settings(ws), cacheTags.domains(ws)];
    const robots = await anonymous().get(`/${SLUG}/robots.txt`);
    expect(robots.headers.get("cache-tag")).toBe(joinTags(base));
    const sitemap = await anonymous().get(`/${SLUG}/sitemap.xml`);
    expect(sitemap.headers.get("cache-tag")).toBe(joinTags(base, [cacheTags.pages(ws), cacheTags.shop(ws)]));
    const theme = await anonymous().get(`/${SLUG}/theme.css`);
    expect(theme.status).toBe(200);
    expect(theme.headers.get("cache-tag")).toBe(joinTags([cacheTags.workspace(ws), cacheTags.branding(ws)]));
  });

  // Maintainer review F4: two renders of their own (the cache purged in between, so neither is the other's
  // stored copy), for visitors who differ in every way the cache's key ignores: User-Agent, languages and the
  // analytics cookies it does not count. Anything a render took from its visitor shows up as different bytes.
  it("renders the same bytes for two different anonymous visitors, for every cacheable kind of route", async () => {
    const llms = await api(owner, "/api/editor/discovery/seo/llms", "PUT", { enabled: true, summary: "Bread." });
    expect(llms.status).toBe(200);
    const { pageCache } = server.atrium.runtime.services;
    const visitors: Record<string, string>[] = [
      { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0", "accept-language": "en-GB,en;q=0.8" },
      {
        "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1",
        "accept-language": "fr-CH, de;q=0.7",
        cookie: "_ga=GA1.1.123.456; _pk_id.1.abcd=xyz; plausible_ignore=true",
      },
    ];
    const paths = [
      `/${SLUG}`,
      `/${SLUG}/our-story`,
      `/${SLUG}/contact`,
      `/${SLUG}/contact?sent=1`,
      `/${SLUG}/policies`,
      `/${SLUG}/robots.txt`,
      `/${SLUG}/sitemap.xml`,
      `/${SLUG}/llms.txt`,
      `/${SLUG}/theme.css`,
      `/${SLUG}/og-image?title=Fresh%20bread`,
    ];
    for (const path of paths) {
      const bodies: Buffer[] = [];
      for (const headers of visitors) {
        await pageCache.purgeEverywhere([cacheTags.workspace(ws)]);
        const renders = pageCache.stats().renders;
        const res = await fetch(`${server.url}${path}`, { headers });
        expect(res.status, path).toBe(200);
        expect(res.headers.get("cache-control"), path).toMatch(/public/);
        expect(res.headers.get("age"), path).toBeNull();
        expect(res.headers.get("set-cookie"), path).toBeNull();
        bodies.push(Buffer.from(await res.arrayBuffer()));
        // Rendered for this visitor, not served from the cache.
        expect(pageCache.stats().renders, path).toBe(renders + 1);
      }
      expect(bodies[0]!.equals(bodies[1]!), path).toBe(true);
      expect(bodies[0]!.toString("latin1"), path).not.toMatch(/nonce=|csrf/i);
    }
  });

  it("never makes an error, a redirect or a protected site's answer public, nor tags it", async () => {
    const missing = await anonymous().get(`/${SLUG}/no-such-page`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("cache-control")).not.toMatch(/public/);
    expect(missing.headers.get("cache-tag")).toBeNull();

    const policy = await anonymous().get(`/${SLUG}/policies/terms`);
    expect(policy.status).toBe(404);
    expect(policy.headers.get("cache-control")).not.toMatch(/public/);
    expect(policy.headers.get("cache-tag")).toBeNull();

    // The home page's own slug: a redirect to the site's address.
    const bySlug = await anonymous().get(`/${SLUG}/welcome`);
    expect(bySlug.status).toBe(301);
    expect(bySlug.headers.get("cache-control")).not.toMatch(/public/);
    expect(bySlug.headers.get("cache-tag")).toBeNull();

    const closed = await signUp(server.url);
    const closedSlug = `closed-${suffix}`;
    await createWorkspace(closed.client, "Closed Bakery", closedSlug);
    await siteAccessOf(server.db, await workspaceId(closedSlug)).protect(null, { password: "open sesame 42" });
    const locked = await anonymous().get(`/${closedSlug}`);
    expect(locked.status).toBe(302);
    expect(locked.headers.get("cache-control")).toBe("no-store");
    const unlock = await anonymous().get(`/${closedSlug}/unlock`);
    expect(unlock.status).toBe(200);
    expect(unlock.headers.get("cache-control")).not.toMatch(/public/);
    expect(unlock.headers.get("cache-tag")).toBeNull();
    // Its robots.txt shuts every crawler out, the same for everyone: that one may be shared.
    const robots = await anonymous().get(`/${closedSlug}/robots.txt`);
    expect(robots.headers.get("cache-control")).toBe(PUBLIC_CACHE_CONTROL);
  });
});

describe("what a write purges", () => {
  it("a page's edit purges that page (and the lists, on publishing), not another page", async () => {
    // Published from the console: the page, the list of pages (sitemap, llms.txt) and the navigation.
    const published = await purgedBy(() => publish(aboutId, "Our story", "our-story", "Since 2010"));
    expect(published).toEqual(new Set([cacheTags.page(ws, aboutId), cacheTags.pages(ws), cacheTags.navigation(ws)]));
    expect(published.has(cacheTags.page(ws, homeId))).toBe(false);

    // A draft saved through the editor API at the same address: nothing public changed.
    const saved = await purgedBy(async () => {
      const res = await api(owner, `/api/editor/pages/${aboutId}`, "PUT", draft("Our story", "our-story", "Draft"));
      expect(res.status).toBe(200);
    });
    expect(saved).toEqual(new Set());

    // A new address is the page's at once: the page, the lists and the navigation linking it.
    const moved = await purgedBy(async () => {
      const res = await api(owner, `/api/editor/pages/${aboutId}`, "PUT", draft("Our story", "story", "Draft"));
      expect(res.status).toBe(200);
    });
    expect(moved).toEqual(new Set([cacheTags.page(ws, aboutId), cacheTags.pages(ws), cacheTags.navigation(ws)]));

    const republished = await purgedBy(async () => {
      expect((await api(owner, `/api/editor/pages/${aboutId}/publish`, "POST")).status).toBe(200);
    });
    expect(republished.has(cacheTags.pages(ws))).toBe(true);
    expect(republished.has(cacheTags.page(ws, homeId))).toBe(false);

    const unpublished = await purgedBy(async () => {
      expect((await api(owner, `/api/editor/pages/${aboutId}/unpublish`, "POST")).status).toBe(200);
    });
    expect(unpublished).toEqual(new Set([cacheTags.page(ws, aboutId), cacheTags.pages(ws), cacheTags.navigation(ws)]));
    await api(owner, `/api/editor/pages/${aboutId}/publish`, "POST");
  });

  it("a rolled-back write purges nothing", async () => {
    // The home page cannot go while another page remains: refused inside the transaction that named its tags.
    const refused = await purgedBy(async () => {
      expect((await api(owner, `/api/editor/pages/${homeId}`, "DELETE")).status).toBe(409);
    });
    expect(refused).toEqual(new Set());
    // Another page's address: the unique index refuses the write after the purge was named.
    const taken = await purgedBy(async () => {
      const res = await api(owner, `/api/editor/pages/${aboutId}`, "PUT", draft("Our story", "welcome", "x"));
      expect(res.status).toBe(409);
    });
    expect(taken).toEqual(new Set());
  });

  it("the site's frame: branding, profile and policies, navigation", async () => {
    const branding = await purgedBy(async () => {
      const res = await owner.post("/website/branding", {
        intent: "save",
        logoId: "",
        faviconId: "",
        socialImageId: "",
        brand: "#7a2e0e",
        accent: "#f2c14e",
        background: "#fffaf3",
        text: "#2b1d14",
        headingFont: "playfair-display",
        bodyFont: "work-sans",
        corners: "round",
      });
      expect(res.status).toBeLessThan(400);
    });
    expect(branding).toEqual(new Set([cacheTags.branding(ws)]));

    const profile = await purgedBy(async () => {
      const res = await owner.post("/website/profile", { intent: "add-exception", date: "2031-12-25", closed: "on" });
      expect(res.status).toBeLessThan(400);
    });
    expect(profile).toEqual(new Set([cacheTags.settings(ws)]));

    const policy = await purgedBy(async () => {
      const res = await owner.post("/website/policies/privacy", {
        intent: "save",
        title: "Privacy policy",
        markdown: "We keep your e-mail.",
        published: "on",
      });
      expect(res.status).toBe(200);
    });
    expect(policy).toEqual(new Set([cacheTags.settings(ws)]));

    const link = await purgedBy(async () => {
      const res = await api(owner, "/api/editor/pages/navigation", "POST", {
        area: "footer",
        label: "Elsewhere",
        url: "https://example.com/",
      });
      expect(res.status).toBeLessThan(400);
    });
    expect(link).toEqual(new Set([cacheTags.navigation(ws)]));
  });

  it("discovery, visibility and domains", async () => {
    // A page's search settings: its head, the sitemap and llms.txt.
    const seo = await purgedBy(async () => {
      const res = await api(owner, `/api/editor/discovery/seo/pages/${aboutId}`, "PUT", { noindex: true });
      expect(res.status).toBe(200);
    });
    expect(seo).toEqual(new Set([cacheTags.page(ws, aboutId), cacheTags.pages(ws)]));

    // Protected and public again: every answer of the site changes.
    const changes: Record<string, string>[] = [
      { visibility: "protected", password: "open sesame 42" },
      { visibility: "public" },
    ];
    for (const fields of changes) {
      const visibility = await purgedBy(async () => {
        expect((await owner.post("/settings/site", fields)).status).toBe(200);
      });
      expect(visibility, fields.visibility).toEqual(new Set([cacheTags.workspace(ws)]));
    }

    const hostname = `www.tags-${suffix}.example.com`;
    const added = await purgedBy(async () => {
      expect((await owner.post("/settings/domains", { intent: "add", hostname })).status).toBeLessThan(400);
    });
    expect(added).toEqual(new Set([cacheTags.domains(ws)]));
    const removed = await purgedBy(async () => {
      expect((await owner.post("/settings/domains", { intent: "remove", hostname })).status).toBe(200);
    });
    expect(removed).toEqual(new Set([cacheTags.workspace(ws), cacheTags.domains(ws)]));
  });

  it("a media file's deletion purges the workspace's media and that file", async () => {
    const res = await owner.request(`/api/editor/branding/media?filename=cake.png`, {
      method: "POST",
      body: await png(40, 30, [10, 200, 30]),
      headers: { "content-type": "image/png", origin: new URL(server.url).origin },
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const deleted = await purgedBy(async () => {
      const del = await owner.post("/website/media", { intent: "delete", fileId: id, confirm: "delete" });
      expect(del.status).toBe(303);
    });
    expect(deleted).toEqual(new Set([cacheTags.media(ws), cacheTags.media(ws, id)]));
  });

  it("the site's address, its owner's suspension and its undo, and its deletion purge the whole workspace", async () => {
    const renamed = `moved-${suffix}`;
    const moved = await purgedBy(async () => {
      const res = await owner.post("/settings", { intent: "workspace", name: "Tag Bakery", slug: renamed });
      expect(res.status).toBeLessThan(400);
      expect(await res.text()).toContain("Saved.");
    });
    expect(moved).toEqual(new Set([cacheTags.workspace(ws)]));
    SLUG = renamed;

    // Suspension is the operator's command (the CLI). Called here on the server's own handle, it goes through
    // the server's real purger (one registry per process): its cache, its observers, its NOTIFY. A page of the
    // site is cached first (a hit renders nothing); after the suspension the next visit renders the 503.
    const renders = () => server.atrium.runtime.services.pageCache.stats().renders;
    await (await anonymous().get(`/${SLUG}`)).text();
    const before = renders();
    const hit = await anonymous().get(`/${SLUG}`);
    expect(hit.status).toBe(200);
    expect(hit.headers.get("age")).not.toBeNull();
    await hit.text();
    expect(renders()).toBe(before);
    expect(await purgedBy(() => setStatus(server.db, ownerEmail, "suspended"))).toEqual(
      new Set([cacheTags.workspace(ws)]),
    );
    const suspended = await anonymous().get(`/${SLUG}`);
    expect(suspended.status).toBe(503);
    expect(suspended.headers.get("cache-control")).toBe("no-store");
    expect(suspended.headers.get("age")).toBeNull();
    await suspended.text();
    expect(renders()).toBe(before + 1);
    expect(await purgedBy(() => setStatus(server.db, ownerEmail, "active"))).toEqual(
      new Set([cacheTags.workspace(ws)]),
    );

    const leaving = await signUp(server.url);
    const leavingSlug = `leaving-${suffix}`;
    await createWorkspace(leaving.client, "Leaving Bakery", leavingSlug);
    const leavingWs = await workspaceId(leavingSlug);
    const gone = await purgedBy(async () => {
      const res = await leaving.client.post("/settings/account", { confirmEmail: leaving.email });
      expect(res.status).toBeLessThan(400);
    });
    expect(gone).toEqual(new Set([cacheTags.workspace(leavingWs)]));
  });
});
