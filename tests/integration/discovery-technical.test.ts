/**
 * The technical routes of discovery over real HTTP (ADR 021): robots.txt read by an independent parser
 * (`robots-parser`), sitemap.xml validated against sitemaps.org's schemas with `xmllint` (an index past 50,000
 * URLs), llms.txt in the llmstxt.org format; absolute URLs at the site's final address (PUBLIC_URL here), the
 * Cache-Control of public pages, HEAD, 404 for an unknown site, 503 for a suspended one.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import robotsParser from "robots-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createWorkspace, signUp } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { PUBLIC_CACHE_CONTROL } from "~/modules/cache/headers";

const run = promisify(execFile);
const SCHEMAS = resolve(__dirname, "../fixtures/sitemaps");
const BASE = "https://atrium.example.test";

let server: TestServer;
let dir: string;
let files = 0;

/** Validates `xml` with xmllint against `schema`; the tool's verdict, errors included. */
async function xmllint(xml: string, schema: string): Promise<{ ok: boolean; output: string }> {
  files += 1;
  const file = join(dir, `sitemap-${files}.xml`);
  await writeFile(file, xml);
  try {
    const { stderr } = await run("xmllint", ["--noout", "--schema", join(SCHEMAS, schema), file], {
      maxBuffer: 64 * 1024 * 1024,
    });
    return { ok: true, output: stderr };
  } catch (error) {
    return { ok: false, output: String((error as { stderr?: string }).stderr ?? error) };
  }
}

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

async function site(prefix: string) {
  const slug = `${prefix}-${Math.random().toString(36).slice(2, 7)}`;
  const { client } = await signUp(server.url);
  await createWorkspace(client, `Harbor ${prefix}`, slug);
  const { id } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
  return { client, slug, workspaceId: id };
}

const visitor = () => new Client(server.url);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "atrium-sitemaps-"));
  server = await startServer({ PUBLIC_URL: BASE });
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("xmllint and the vendored schemas", () => {
  it("are there, and refuse what the protocol refuses (so a pass below means something)", async () => {
    const bad = await xmllint(
      '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><lastmod>yesterday</lastmod></url></urlset>',
      "sitemap.xsd",
    );
    expect(bad.ok).toBe(false);
    expect(bad.output).toContain("lastmod");
  });
});

describe("a site with pages, a translation, a hidden page and policies", () => {
  let slug: string;
  let client: Client;

  beforeAll(async () => {
    ({ slug, client } = await site("tech"));
    const home = await publishedPage(client, "Welcome", "welcome", "Fresh bread.");
    const about = await publishedPage(client, "About us", "about", "Who we are.");
    const fr = await publishedPage(client, "À propos", "a-propos", "Qui nous sommes.");
    await publishedPage(client, "Accounting services", "accounting", "We keep books too.");
    const hidden = await publishedPage(client, "Staff notes", "staff", "Internal.");
    expect(
      (await api(client, `/api/editor/discovery/seo/pages/${about}`, { method: "PUT", body: { locale: "en" } })).status,
    ).toBe(200);
    expect(
      (
        await api(client, `/api/editor/discovery/seo/pages/${fr}`, {
          method: "PUT",
          body: { locale: "fr", translationOf: about },
        })
      ).status,
    ).toBe(200);
    await api(client, `/api/editor/discovery/seo/pages/${hidden}`, { method: "PUT", body: { noindex: true } });
    await api(client, `/api/editor/discovery/seo/pages/${home}`, {
      method: "PUT",
      body: { title: "Harbor — the bakery", description: "Bread & <pastries>" },
    });
    const policy = await client.post("/website/policies/privacy", {
      intent: "save",
      title: "Privacy policy",
      markdown: "We keep your e-mail.",
      published: "on",
    });
    expect(policy.status).toBe(200);
  });

  it("robots.txt allows the site, keeps crawlers out of the private paths, and names the sitemap", async () => {
    const res = await visitor().get(`/${slug}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe(PUBLIC_CACHE_CONTROL);
    const text = await res.text();
    const robots = robotsParser(`${BASE}/${slug}/robots.txt`, text);
    for (const path of ["", "/", "/about", "/accounting", "/policies/privacy", "/sitemap.xml"])
      expect(robots.isAllowed(`${BASE}/${slug}${path}`, "Googlebot"), path).toBe(true);
    for (const path of [
      "/account",
      "/account/orders/1",
      "/orders",
      "/billing",
      "/tickets/3",
      "/profile",
      "/saved",
      "/cart",
      "/checkout",
      "/checkout/pay",
      "/login",
      "/unlock",
    ])
      expect(robots.isDisallowed(`${BASE}/${slug}${path}`, "Googlebot"), path).toBe(true);
    expect(robots.getSitemaps()).toEqual([`${BASE}/${slug}/sitemap.xml`]);
  });

  it("sitemap.xml lists the published, indexable pages with lastmod and hreflang alternates, valid against the schema", async () => {
    const res = await visitor().get(`/${slug}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe(PUBLIC_CACHE_CONTROL);
    const xml = await res.text();
    const validated = await xmllint(xml, "sitemap-hreflang.xsd");
    expect(validated.output).toContain("validates");
    expect(validated.ok).toBe(true);
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual([
      `${BASE}/${slug}`,
      `${BASE}/${slug}/a-propos`,
      `${BASE}/${slug}/about`,
      `${BASE}/${slug}/accounting`,
      `${BASE}/${slug}/policies`,
      `${BASE}/${slug}/policies/privacy`,
    ]);
    expect(xml).not.toContain("/staff");
    expect(xml).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00<\/lastmod>/);
    const about = /<url><loc>[^<]+\/about<\/loc>.*?<\/url>/.exec(xml)?.[0] ?? "";
    expect(about).toContain(`<xhtml:link rel="alternate" hreflang="en" href="${BASE}/${slug}/about"/>`);
    expect(about).toContain(`<xhtml:link rel="alternate" hreflang="fr" href="${BASE}/${slug}/a-propos"/>`);
    expect(about).toContain(`<xhtml:link rel="alternate" hreflang="x-default" href="${BASE}/${slug}/about"/>`);
    // The alternates need their declaration: the bare sitemaps.org schema refuses them (strict wildcard).
    expect((await xmllint(xml, "sitemap.xsd")).ok).toBe(false);
  });

  it("llms.txt is the llmstxt.org format: name, summary, pages with descriptions, policies as optional", async () => {
    await api(client, "/api/editor/discovery/seo/llms", {
      method: "PUT",
      body: { enabled: true, summary: "A bakery on the harbour.\nOpen every day." },
    });
    const res = await visitor().get(`/${slug}/llms.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe(PUBLIC_CACHE_CONTROL);
    expect(await res.text()).toBe(
      [
        "# Harbor tech",
        "",
        "> A bakery on the harbour.",
        "> Open every day.",
        "",
        "## Pages",
        "",
        `- [Harbor — the bakery](${BASE}/${slug}): Bread & <pastries>`,
        `- [À propos](${BASE}/${slug}/a-propos): Qui nous sommes.`,
        `- [About us](${BASE}/${slug}/about): Who we are.`,
        `- [Accounting services](${BASE}/${slug}/accounting): We keep books too.`,
        "",
        "## Optional",
        "",
        `- [Privacy policy](${BASE}/${slug}/policies/privacy): What you collect about visitors and customers, why, and for how long.`,
        "",
      ].join("\n"),
    );
  });

  it("answers HEAD with the headers and no body", async () => {
    for (const file of ["robots.txt", "sitemap.xml", "llms.txt"]) {
      const res = await visitor().request(`/${slug}/${file}`, { method: "HEAD" });
      expect(res.status, file).toBe(200);
      expect(res.headers.get("content-type"), file).toMatch(/^(text\/plain|application\/xml); charset=utf-8$/);
      expect(await res.text()).toBe("");
    }
  });

  it("a site hidden from search engines disallows everything and lists no URL", async () => {
    expect((await api(client, "/api/editor/discovery/seo", { method: "PUT", body: { noindex: true } })).status).toBe(
      200,
    );
    const robots = robotsParser(
      `${BASE}/${slug}/robots.txt`,
      await (await visitor().get(`/${slug}/robots.txt`)).text(),
    );
    for (const path of ["", "/", "/about"])
      expect(robots.isDisallowed(`${BASE}/${slug}${path}`, "Googlebot"), path).toBe(true);
    // Another site on the same host is not this one's to close.
    expect(robots.isAllowed(`${BASE}/${slug}-other/about`, "Googlebot")).toBe(true);
    const xml = await (await visitor().get(`/${slug}/sitemap.xml`)).text();
    expect(xml).not.toContain("<url>");
    await api(client, "/api/editor/discovery/seo", { method: "PUT", body: { noindex: false } });
  });

  it("a protected site disallows everything and publishes no llms.txt", async () => {
    const { workspaceId } = await server.db
      .selectFrom("workspaces")
      .select("id as workspaceId")
      .where("slug", "=", slug)
      .executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    await server.db
      .insertInto("site_access")
      .values({
        workspace_id: workspaceId,
        visibility: "protected",
        password_hash: "x",
        cookie_version: 1,
        updated_at: at,
      })
      .execute();
    try {
      const text = await (await visitor().get(`/${slug}/robots.txt`)).text();
      expect(robotsParser(`${BASE}/${slug}/robots.txt`, text).isDisallowed(`${BASE}/${slug}/about`, "Googlebot")).toBe(
        true,
      );
      expect((await visitor().get(`/${slug}/llms.txt`)).status).toBe(404);
      expect(await (await visitor().get(`/${slug}/sitemap.xml`)).text()).not.toContain("<url>");
    } finally {
      await server.db.deleteFrom("site_access").where("workspace_id", "=", workspaceId).execute();
    }
  });
});

describe("the files of sites that are not there", () => {
  it("404 for an unknown site, 503 while its owner is suspended, 404 for a page past the index", async () => {
    for (const file of ["robots.txt", "sitemap.xml", "llms.txt"]) {
      const res = await visitor().get(`/no-such-site-here/${file}`);
      expect(res.status, file).toBe(404);
    }
    const { slug, workspaceId } = await site("gone");
    expect((await visitor().get(`/${slug}/sitemap.xml?page=2`)).status).toBe(404);
    expect((await visitor().get(`/${slug}/sitemap.xml?page=x`)).status).toBe(404);
    const owner = await server.db
      .selectFrom("workspaces")
      .select("owner_user_id")
      .where("id", "=", workspaceId)
      .executeTakeFirstOrThrow();
    await server.db.updateTable("users").set({ status: "suspended" }).where("id", "=", owner.owner_user_id).execute();
    for (const file of ["robots.txt", "sitemap.xml", "llms.txt"]) {
      const res = await visitor().get(`/${slug}/${file}`);
      expect(res.status, file).toBe(503);
      expect(res.headers.get("cache-control"), file).toBe("no-store");
    }
  });
});

describe("a site past 50,000 URLs", () => {
  it("gets a sitemap index of pages of at most 50,000 URLs, each valid", { timeout: 600_000 }, async () => {
    const { slug, workspaceId } = await site("big");
    const content = JSON.stringify({ title: "Page", description: "", blocks: [] });
    const at = "2026-03-01T12:00:00.000Z";
    // 50,000 published pages plus the site's home address: 50,001 URLs. In bulk, through Kysely, on either dialect.
    const rows = Array.from({ length: 50_000 }, (_, i) => ({
      id: `big-${slug}-${String(i).padStart(5, "0")}`,
      workspace_id: workspaceId,
      slug: `page-${String(i).padStart(5, "0")}`,
      is_home: 0,
      draft: content,
      published: content,
      published_at: at,
      has_changes: 0,
      created_at: at,
      updated_at: at,
    }));
    await server.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 500)
        await trx
          .insertInto("site_pages")
          .values(rows.slice(i, i + 500))
          .execute();
    });

    const index = await visitor().get(`/${slug}/sitemap.xml`);
    expect(index.status).toBe(200);
    const indexXml = await index.text();
    expect((await xmllint(indexXml, "siteindex.xsd")).ok).toBe(true);
    expect([...indexXml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual([
      `${BASE}/${slug}/sitemap.xml?page=1`,
      `${BASE}/${slug}/sitemap.xml?page=2`,
    ]);
    const first = await (await visitor().get(`/${slug}/sitemap.xml?page=1`)).text();
    expect(first.match(/<url>/g)).toHaveLength(50_000);
    const checked = await xmllint(first, "sitemap.xsd");
    expect(checked.ok, checked.output.slice(0, 500)).toBe(true);
    const second = await (await visitor().get(`/${slug}/sitemap.xml?page=2`)).text();
    expect(second.match(/<url>/g)).toHaveLength(1);
    expect(second).toContain(`<loc>${BASE}/${slug}/page-49999</loc>`);
    expect((await xmllint(second, "sitemap.xsd")).ok).toBe(true);
    expect((await visitor().get(`/${slug}/sitemap.xml?page=3`)).status).toBe(404);
  });
});
