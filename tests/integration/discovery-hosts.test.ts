/**
 * Discovery on both hosts a site answers on (ADRs 021, 025): the deployment's host (`/{slug}/…`) and the site's
 * verified custom domain (`Host:` header, the site at `/`). A site hidden from search engines says so on every
 * page — contact and policies included — once in the head and in `X-Robots-Tag`; robots.txt's rules are those of
 * the host serving it, only its Sitemap line at the final address; a redirect target or canonical typed with the
 * slug is not given it twice; the home page's URL is `https://{domain}/`; the sitemap leaves out pages whose
 * canonical is another URL.
 */
import { request as httpRequest } from "node:http";
import robotsParser from "robots-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isoNow } from "~/lib/clock.server";
import { newId } from "~/lib/ids.server";
import { type Client, createWorkspace, signUp } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

const DEPLOYMENT = "https://atrium.example.test";
const PASSWORD = "open sesame 123";

let server: TestServer;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with the Host given (fetch will not send one of the test's choosing). */
function send(host: string, path: string): Promise<Answer> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method: "GET", path, headers: { host }, setHost: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

const deploymentHost = () => new URL(server.url).host;

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
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

async function publishedPage(client: Client, title: string, slug: string): Promise<string> {
  const created = await api(client, "/api/editor/pages", {
    method: "POST",
    body: { title, slug, description: `${title}.`, blocks: [{ type: "richText", markdown: `About ${title}.` }] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as string;
  expect((await api(client, `/api/editor/pages/${id}/publish`, { method: "POST" })).status).toBe(200);
  return id;
}

/** A site with a home page, an about page, a published privacy policy, and a verified primary domain. */
async function site(prefix: string, domain: string, redirectPath: boolean) {
  const slug = `${prefix}-${Math.random().toString(36).slice(2, 7)}`;
  const { client } = await signUp(server.url);
  await createWorkspace(client, `Harbor ${prefix}`, slug);
  const { id } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
  const pages = {
    home: await publishedPage(client, "Welcome", "welcome"),
    about: await publishedPage(client, "About us", "about"),
    menu: await publishedPage(client, "Menu", "menu"),
  };
  const policy = await client.post("/website/policies/privacy", {
    intent: "save",
    title: "Privacy policy",
    markdown: "We keep nothing.",
    published: "on",
  });
  expect(policy.status).toBe(200);
  const now = isoNow();
  await server.db
    .insertInto("site_domains")
    .values({
      id: newId(),
      workspace_id: id,
      hostname: domain,
      token: `atrium-verify-${newId()}`,
      status: "verified",
      is_primary: 1,
      redirect_path: redirectPath ? 1 : 0,
      diagnostics: "[]",
      last_checked_at: now,
      next_check_at: null,
      verified_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  server.atrium.runtime.services.siteDomains.invalidate();
  return { client, slug, domain, pages };
}

const robotsTags = (html: string) => [...html.matchAll(/<meta name="robots" content="([^"]*)"/g)].map((m) => m[1]);
const canonicalOf = (html: string) => /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
const locsOf = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);

beforeAll(async () => {
  server = await startServer({ PUBLIC_URL: DEPLOYMENT });
});
afterAll(async () => {
  await server.close();
});

describe("a site hidden from search engines", () => {
  let s: Awaited<ReturnType<typeof site>>;
  const paths = ["", "/about", "/contact", "/policies", "/policies/privacy", "/no-such-page"];

  beforeAll(async () => {
    s = await site("hidden", "hidden.example.test", false);
  });

  it("says noindex once, in the head and in X-Robots-Tag, on every page on both hosts; nothing while indexed", async () => {
    for (const path of paths.filter((p) => p !== "/no-such-page")) {
      const indexed = await send(deploymentHost(), `/${s.slug}${path}`);
      expect(robotsTags(indexed.body), path).toEqual([]);
      expect(indexed.headers["x-robots-tag"], path).toBeUndefined();
    }
    expect((await api(s.client, "/api/editor/discovery/seo", { method: "PUT", body: { noindex: true } })).status).toBe(
      200,
    );
    // A page with its own noindex as well: still one tag.
    await api(s.client, `/api/editor/discovery/seo/pages/${s.pages.about}`, { method: "PUT", body: { noindex: true } });
    for (const [host, prefix] of [
      [deploymentHost(), `/${s.slug}`],
      [s.domain, ""],
    ] as const) {
      for (const path of paths) {
        const answer = await send(host, `${prefix}${path}` || "/");
        expect(answer.status, `${host}${prefix}${path}`).toBe(path === "/no-such-page" ? 404 : 200);
        expect(robotsTags(answer.body), `${host}${prefix}${path}`).toEqual(["noindex"]);
        expect(answer.headers["x-robots-tag"], `${host}${prefix}${path}`).toBe("noindex");
      }
    }
  });

  it("sends a protected site's unlock page with X-Robots-Tag and one robots tag", async () => {
    const protectedSite = await site("locked", "locked.example.test", false);
    const saved = await protectedSite.client.post("/settings/site", { visibility: "protected", password: PASSWORD });
    expect([200, 302]).toContain(saved.status);
    for (const [host, path] of [
      [deploymentHost(), `/${protectedSite.slug}/unlock`],
      [protectedSite.domain, "/unlock"],
    ] as const) {
      const unlock = await send(host, path);
      expect(unlock.status).toBe(200);
      expect(robotsTags(unlock.body)).toEqual(["noindex, nofollow"]);
      expect(unlock.headers["x-robots-tag"]).toBe("noindex");
    }
  });
});

describe("robots.txt on each host", () => {
  it("has the rules of the host serving it and the Sitemap at the final address", async () => {
    const s = await site("robots", "robots.example.test", false);
    const deployment = `http://${deploymentHost()}`;
    const onDeployment = await send(deploymentHost(), `/${s.slug}/robots.txt`);
    expect(onDeployment.status).toBe(200);
    expect(onDeployment.body).toContain(`Allow: /${s.slug}/`);
    expect(onDeployment.body).not.toMatch(/^Allow: \/$/m);
    expect(onDeployment.body).toContain(`Sitemap: https://${s.domain}/sitemap.xml`);
    const shared = robotsParser(`${deployment}/${s.slug}/robots.txt`, onDeployment.body);
    expect(shared.isAllowed(`${deployment}/${s.slug}/about`, "Googlebot")).toBe(true);
    expect(shared.isAllowed(`${deployment}/${s.slug}/account`, "Googlebot")).toBe(false);
    expect(shared.getSitemaps()).toEqual([`https://${s.domain}/sitemap.xml`]);

    const onDomain = await send(s.domain, "/robots.txt");
    expect(onDomain.status).toBe(200);
    const own = robotsParser(`https://${s.domain}/robots.txt`, onDomain.body);
    expect(own.isAllowed(`https://${s.domain}/about`, "Googlebot")).toBe(true);
    expect(own.isAllowed(`https://${s.domain}/account`, "Googlebot")).toBe(false);
    expect(own.isAllowed(`https://${s.domain}/accounting`, "Googlebot")).toBe(true);
    expect(own.getSitemaps()).toEqual([`https://${s.domain}/sitemap.xml`]);

    // Hidden: everything of the site disallowed, on its domain; on the shared host its prefix only.
    await api(s.client, "/api/editor/discovery/seo", { method: "PUT", body: { noindex: true } });
    const closedShared = await send(deploymentHost(), `/${s.slug}/robots.txt`);
    expect(closedShared.body).not.toMatch(/^Disallow: \/$/m);
    const closed = robotsParser(`${deployment}/${s.slug}/robots.txt`, closedShared.body);
    expect(closed.isAllowed(`${deployment}/${s.slug}/about`, "Googlebot")).toBe(false);
    expect(closed.isAllowed(`${deployment}/another-site/about`, "Googlebot")).toBe(true);
    const closedOwn = robotsParser(`https://${s.domain}/robots.txt`, (await send(s.domain, "/robots.txt")).body);
    expect(closedOwn.isAllowed(`https://${s.domain}/about`, "Googlebot")).toBe(false);
  });

  it("is not served at the deployment's root, where crawlers of the shared host look", async () => {
    const root = await send(deploymentHost(), "/robots.txt");
    expect(root.status).toBe(404);
  });
});

describe("addresses typed with the slug, and the home page's URL", () => {
  let s: Awaited<ReturnType<typeof site>>;

  beforeAll(async () => {
    s = await site("typed", "typed.example.test", false);
  });

  it("sends a redirect to `/{slug}/menu` to the menu on both hosts, not to `/{slug}/{slug}/menu`", async () => {
    const created = await api(s.client, "/api/editor/discovery/seo/redirects", {
      method: "POST",
      body: { from: "/carte", to: `/${s.slug}/menu`, status: 301 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const shared = await send(deploymentHost(), `/${s.slug}/carte?utm_source=flyer`);
    expect(shared.status).toBe(301);
    expect(shared.headers.location).toBe(`/${s.slug}/menu?utm_source=flyer`);
    const own = await send(s.domain, "/carte");
    expect(own.status).toBe(301);
    expect(own.headers.location).toBe("/menu");
  });

  it("refuses a loop made of targets typed with the slug, as it refuses one without", async () => {
    const first = await api(s.client, "/api/editor/discovery/seo/redirects", {
      method: "POST",
      body: { from: "/loop-a", to: `/${s.slug}/loop-b` },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const second = await api(s.client, "/api/editor/discovery/seo/redirects", {
      method: "POST",
      body: { from: "/loop-b", to: `/${s.slug}/loop-a` },
    });
    expect(second.status, JSON.stringify(second.body)).toBe(400);
    expect(JSON.stringify(second.body)).toContain("round in a circle");
  });

  it("puts a canonical typed as `/{slug}/menu` at the final address once, and leaves that page out of the sitemap", async () => {
    const saved = await api(s.client, `/api/editor/discovery/seo/pages/${s.pages.about}`, {
      method: "PUT",
      body: { canonical: `/${s.slug}/menu` },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    for (const [host, path] of [
      [deploymentHost(), `/${s.slug}/about`],
      [s.domain, "/about"],
    ] as const) {
      expect(canonicalOf((await send(host, path)).body)).toBe(`https://${s.domain}/menu`);
    }
    const locs = locsOf((await send(s.domain, "/sitemap.xml")).body);
    expect(locs).toContain(`https://${s.domain}/menu`);
    expect(locs).not.toContain(`https://${s.domain}/about`);
    // A canonical naming the page itself keeps it listed.
    await api(s.client, `/api/editor/discovery/seo/pages/${s.pages.about}`, {
      method: "PUT",
      body: { canonical: "/about" },
    });
    expect(locsOf((await send(s.domain, "/sitemap.xml")).body)).toContain(`https://${s.domain}/about`);
  });

  it("names the home page `https://{domain}/`, with its slash, in the sitemap, llms.txt and the canonical", async () => {
    const home = `https://${s.domain}/`;
    expect(locsOf((await send(s.domain, "/sitemap.xml")).body)[0]).toBe(home);
    expect(canonicalOf((await send(s.domain, "/")).body)).toBe(home);
    await api(s.client, "/api/editor/discovery/seo/llms", { method: "PUT", body: { enabled: true, summary: "" } });
    const llms = await send(s.domain, "/llms.txt");
    expect(llms.status).toBe(200);
    expect(llms.body).toContain(`(${home})`);
  });
});
