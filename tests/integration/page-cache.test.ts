/**
 * The page cache in the real server (issue 15, ADR 026), on both dialects: a hit answered before Express that
 * renders nothing, identical for every visitor, with its own request id and the security headers; bypasses;
 * 304; a purge by tag; on both dialects a purge announced by one server (or by the CLI) emptying the other's
 * entry and a rolled-back one reaching nobody; on Postgres a lost LISTEN connection emptying the cache until it
 * listens again; the outbound
 * purge hook signed in Standard Webhooks. The route is `/{site}/robots.txt`, cacheable (tags: workspace,
 * settings, domains) whenever the site has a configured address (PUBLIC_URL).
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/client";
import { registerAnnouncingPurger } from "../../app/modules/cache/module.server";
import { purgeTags, writeAndPurge } from "../../app/modules/cache/purge.server";
import { verifyWebhook } from "../../app/modules/webhooks/standard-webhooks.server";
import { IMMUTABLE_CACHE_CONTROL } from "../../app/modules/cache/headers";
import { createWorkspace, signUp, type Client } from "../helpers/client";
import { freshDatabase, type TestDatabase } from "../helpers/database";
import { runCommand } from "../helpers/process";
import { startServer, type TestServer } from "../helpers/server";

const PUBLIC_URL = "https://atrium.example.test";
/** The suite runs on Postgres when TEST_DATABASE_URL is set (tests/helpers/database.ts). */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const HOOK_SECRET = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const stats = (server: TestServer) => server.atrium.runtime.services.pageCache.stats();

/** A fresh site (operator signed up, workspace created): its robots.txt path and workspace tag. */
async function site(server: TestServer): Promise<{ path: string; tag: string; operator: Client }> {
  const { client } = await signUp(server.url);
  const slug = `cache${Math.random().toString(36).slice(2, 8)}`;
  await createWorkspace(client, "Cache Co", slug);
  await until(() => stats(server).listening, "the purge bus to listen");
  const first = await fetch(`${server.url}/${slug}/robots.txt`);
  expect(first.status).toBe(200);
  await first.arrayBuffer();
  // Sent for a CDN with PUBLIC_URL set; without it the tags stay in the cache, which the test reads directly.
  const header = first.headers.get("cache-tag");
  const held = server.atrium.runtime.services.pageCache.inspect(new URL(server.url).host, `/${slug}/robots.txt`);
  const tags = header === null ? (held?.tags ?? []) : header.split(",");
  // The workspace's tag: a purge of it empties every answer tagged with any tag of that workspace.
  const tag = /^ws:[^:]+/.exec(tags[0] ?? "")?.[0];
  expect(tag, `Cache-Tag: ${tags.join(",")}`).toBeDefined();
  return { path: `/${slug}/robots.txt`, tag: tag!, operator: client };
}

describe("page cache", () => {
  let server: TestServer;
  let path: string;
  let tag: string;
  let operator: Client;

  beforeAll(async () => {
    server = await startServer({ PUBLIC_URL });
    ({ path, tag, operator } = await site(server));
  });
  afterAll(() => server?.close());

  it("answers the next GET from the cache, before Remix, byte for byte, with the security headers and its own id", async () => {
    const renders = stats(server).renders;
    const a = await fetch(`${server.url}${path}`, { headers: { "user-agent": "A", "accept-language": "fr" } });
    const b = await fetch(`${server.url}${path}`, { headers: { "user-agent": "B", cookie: "_ga=GA1.1.1" } });
    expect(stats(server).renders).toBe(renders);
    expect(await b.text()).toBe(await a.text());
    expect(b.headers.get("x-request-id")).not.toBe(a.headers.get("x-request-id"));
    expect(b.headers.get("x-content-type-options")).toBe("nosniff");
    expect(b.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(b.headers.get("cache-control")).toContain("s-maxage=");
    expect(b.headers.get("atrium-cache-vary-query")).toBeNull();
    const id = b.headers.get("x-request-id");
    const line = server.logs.find((l) => (l.req as { id?: string } | undefined)?.id === id);
    expect(line).toMatchObject({
      msg: "GET 200",
      cache: "hit",
      res: { statusCode: 200 },
      req: { method: "GET", path },
    });
    const info = server.atrium.runtime.services.pageCache.inspect(new URL(server.url).host, path);
    expect(info?.tags.every((t) => t === tag || t.startsWith(`${tag}:`))).toBe(true);
  });

  it("answers If-None-Match with 304 without rendering", async () => {
    const etagValue = (await fetch(`${server.url}${path}`)).headers.get("etag")!;
    expect(etagValue).toMatch(/^"[^"]+"$/);
    const renders = stats(server).renders;
    const revalidated = await fetch(`${server.url}${path}`, { headers: { "if-none-match": etagValue } });
    expect(revalidated.status).toBe(304);
    expect(stats(server).renders).toBe(renders);
  });

  it("renders for an operator's session, an undeclared cookie, an undeclared query and a POST", async () => {
    const renders = stats(server).renders;
    expect((await operator.get(path)).status).toBe(200);
    await fetch(`${server.url}${path}`, { headers: { cookie: "someone_else=1" } });
    await fetch(`${server.url}${path}?preview=1`);
    await fetch(`${server.url}${path}`, { method: "POST", headers: { origin: server.url } });
    expect(stats(server).renders).toBe(renders + 4);
    // A marketing parameter is not part of the key.
    await fetch(`${server.url}${path}?utm_source=news`);
    expect(stats(server).renders).toBe(renders + 4);
  });

  it("empties the entries of a purged tag, and renders again", async () => {
    await fetch(`${server.url}${path}`);
    const host = new URL(server.url).host;
    expect(server.atrium.runtime.services.pageCache.inspect(host, path)).not.toBeNull();
    await server.atrium.runtime.services.pageCache.purgeEverywhere([tag]);
    expect(server.atrium.runtime.services.pageCache.inspect(host, path)).toBeNull();
    const renders = stats(server).renders;
    await fetch(`${server.url}${path}`);
    expect(stats(server).renders).toBe(renders + 1);
  });

  it("keeps theme.css and og-image at their current ?v= (immutable, tagged), and no og-image of a free-text title", async () => {
    const slug = path.split("/")[1]!;
    const html = await (await fetch(`${server.url}/${slug}`)).text();
    const theme = /<link rel="stylesheet" href="(\/[^"]+\/theme\.css\?v=[^"]+)"/.exec(html)?.[1];
    expect(theme, "the page links its theme").toBeDefined();
    const ogImage = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, "&");
    expect(ogImage, "the page names its share image").toBeDefined();
    const version = new URL(ogImage!).searchParams.get("v");
    for (const current of [theme!, `/${slug}/og-image?v=${version}`]) {
      const first = await fetch(`${server.url}${current}`);
      expect(first.status, current).toBe(200);
      expect(first.headers.get("cache-control")).toBe(IMMUTABLE_CACHE_CONTROL);
      expect(first.headers.get("cache-tag")).toContain(tag);
      await first.arrayBuffer();
      const renders = stats(server).renders;
      const second = await fetch(`${server.url}${current}`);
      expect(second.status).toBe(200);
      expect(second.headers.has("age"), current).toBe(true);
      expect(stats(server).renders).toBe(renders);
    }
    // Any text as a title: each would be a new entry evicting real pages, so none is stored here.
    const titled = `/${slug}/og-image?title=${Math.random().toString(36).slice(2)}&v=${version}`;
    const host = new URL(server.url).host;
    expect((await fetch(`${server.url}${titled}`)).status).toBe(200);
    expect(server.atrium.runtime.services.pageCache.inspect(host, titled)).toBeNull();
    const renders = stats(server).renders;
    expect((await fetch(`${server.url}${titled}`)).headers.has("age")).toBe(false);
    expect(stats(server).renders).toBe(renders + 1);
  });

  it("leaves Express's compression to the answers it does not store", async () => {
    const res = await fetch(`${server.url}/login`, { headers: { "accept-encoding": "gzip" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(res.headers.get("content-encoding")).toBe("gzip");
  });

  it("renders concurrent misses of one page once (single flight), and gives each the same bytes", async () => {
    await server.atrium.runtime.services.pageCache.purgeEverywhere([tag]);
    const renders = stats(server).renders;
    const bodies = await Promise.all(
      Array.from({ length: 6 }, () => fetch(`${server.url}${path}`).then((r) => r.text())),
    );
    expect(stats(server).renders).toBe(renders + 1);
    expect(new Set(bodies).size).toBe(1);
  });

  it("ignores a write that announces no purge: only announced tags purge, whoever else writes to the database", async () => {
    await fetch(`${server.url}${path}`);
    const host = new URL(server.url).host;
    expect(server.atrium.runtime.services.pageCache.inspect(host, path)).not.toBeNull();
    // Another connection's plain write, then a whole poll of the purge log later: the entry is still held.
    const other = openDatabase(server.database.url, { poolSize: 1 });
    try {
      await other.db.updateTable("health_probe").set({ checked_at: new Date().toISOString() }).execute();
    } finally {
      await other.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(server.atrium.runtime.services.pageCache.inspect(host, path)).not.toBeNull();
  });
});

describe("page cache without PUBLIC_URL", () => {
  let server: TestServer;
  afterAll(() => server?.close());

  it("keeps pages that name the request's origin, and tells shared caches not to keep them, bypasses included", async () => {
    server = await startServer();
    const { path, operator } = await site(server);
    const first = await fetch(`${server.url}${path}`);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    const hit = await fetch(`${server.url}${path}`);
    expect(hit.headers.get("age")).not.toBeNull();
    expect(hit.headers.get("cache-control")).toBe("private, no-cache");
    // Tags are for a CDN, which may not keep these: they stay in this process.
    expect(first.headers.get("cache-tag")).toBeNull();
    expect(hit.headers.get("cache-tag")).toBeNull();
    // An operator's request bypasses this cache, and still says no to a CDN.
    const bypass = await operator.get(path);
    expect(bypass.headers.get("age")).toBeNull();
    expect(bypass.headers.get("cache-control")).toBe("private, no-cache");
  });

  it("behind a trusted proxy, renders and stores the origin of the first X-Forwarded-Host value only", async () => {
    const proxied = await startServer({ TRUST_PROXY: "loopback" });
    try {
      const { client } = await signUp(proxied.url);
      const slug = `xfh${Math.random().toString(36).slice(2, 8)}`;
      await createWorkspace(client, "Forwarded Co", slug);
      await until(() => stats(proxied).listening, "the purge bus to listen");
      // A proxy that appends to the client's header: Remix's adapter took the port from the whole value.
      const poisoned = await fetch(`${proxied.url}/${slug}`, { headers: { "x-forwarded-host": "localhost, x:6666" } });
      expect(poisoned.status).toBe(200);
      expect(await poisoned.text()).not.toContain(":6666");
      const next = await fetch(`${proxied.url}/${slug}`, { headers: { "x-forwarded-host": "localhost" } });
      expect(next.headers.get("age"), "the same key as the first request").not.toBeNull();
      expect(await next.text()).not.toContain(":6666");
    } finally {
      await proxied.close();
    }
  });
});

describe("page cache memory", () => {
  let server: TestServer;
  afterAll(() => server?.close());

  it("evicts the least recently used answer once PAGE_CACHE_MAX_BYTES is reached", async () => {
    server = await startServer({ PUBLIC_URL, PAGE_CACHE_MAX_BYTES: "3500" });
    const a = await site(server);
    const b = await site(server);
    expect(stats(server).entries).toBe(1);
    expect(stats(server).bytes).toBeLessThanOrEqual(3_500);
    const host = new URL(server.url).host;
    expect(server.atrium.runtime.services.pageCache.inspect(host, a.path)).toBeNull();
    expect(server.atrium.runtime.services.pageCache.inspect(host, b.path)).not.toBeNull();
  });
});

/** Two servers sharing one database: Postgres NOTIFY at commit; SQLite the purge log each polls (db/cache-bus.ts). */
describe("page cache across servers sharing the database", () => {
  let database: TestDatabase;
  let one: TestServer;
  let two: TestServer;

  beforeAll(async () => {
    database = await freshDatabase();
    one = await startServer({ PUBLIC_URL }, database);
    two = await startServer({ PUBLIC_URL }, database);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await database?.drop();
  });

  it("a purge announced by one server empties the other's entry within a second", async () => {
    const { path, tag } = await site(one);
    await until(() => stats(two).listening, "the second server to listen");
    await fetch(`${two.url}${path}`);
    const host = new URL(two.url).host;
    expect(two.atrium.runtime.services.pageCache.inspect(host, path)).not.toBeNull();
    await one.atrium.runtime.services.pageCache.purgeEverywhere([tag]);
    await until(() => two.atrium.runtime.services.pageCache.inspect(host, path) === null, "the purge to arrive", 1_000);
  });

  it("a purge rolled back with its write reaches no other server", async () => {
    const { path, tag } = await site(one);
    await fetch(`${two.url}${path}`);
    const host = new URL(two.url).host;
    await expect(
      writeAndPurge(one.db, async (trx, purge) => {
        await trx.updateTable("health_probe").set({ checked_at: new Date().toISOString() }).execute();
        purge(tag);
        throw new Error("the write fails after naming its tags");
      }),
    ).rejects.toThrow("the write fails");
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(two.atrium.runtime.services.pageCache.inspect(host, path)).not.toBeNull();
  });

  it("a command of `npm run admin` (another process) suspending the owner takes the site down at the next request", async () => {
    const signedUp = await signUp(one.url);
    const slug = `cli${Math.random().toString(36).slice(2, 8)}`;
    await createWorkspace(signedUp.client, "Suspended Co", slug);
    const page = `/${slug}/robots.txt`;
    const host = new URL(two.url).host;
    await fetch(`${two.url}${page}`);
    expect(two.atrium.runtime.services.pageCache.inspect(host, page)).not.toBeNull();
    const cli = await runCommand(database.url, "admin", "users:suspend", signedUp.email);
    expect(cli.code, cli.stderr).toBe(0);
    await until(() => two.atrium.runtime.services.pageCache.inspect(host, page) === null, "the CLI's purge", 1_000);
    expect((await fetch(`${two.url}/${slug}`)).status).toBe(503);
  });
});

describe.skipIf(!onPostgres)("the purge bus's LISTEN connection (skipped on SQLite: no LISTEN there)", () => {
  let database: TestDatabase;
  let two: TestServer;

  beforeAll(async () => {
    database = await freshDatabase();
    two = await startServer({ PUBLIC_URL }, database);
  });
  afterAll(async () => {
    await two?.close();
    await database?.drop();
  });

  it("a server whose LISTEN connection is killed empties its cache, stores nothing, and listens again", async () => {
    const { path } = await site(two);
    await fetch(`${two.url}${path}`);
    expect(stats(two).entries).toBeGreaterThan(0);
    const pid = two.atrium.runtime.services.pageCache.listenerPid();
    expect(pid).not.toBeNull();
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query("select pg_terminate_backend($1)", [pid]);
    } finally {
      await admin.end();
    }
    await until(() => stats(two).entries === 0, "the cache to be emptied");
    await until(
      () => stats(two).listening && two.atrium.runtime.services.pageCache.listenerPid() !== pid,
      "the reconnection",
    );
    await fetch(`${two.url}${path}`);
    const renders = stats(two).renders;
    await fetch(`${two.url}${path}`);
    expect(stats(two).renders).toBe(renders);
  });
});

describe("the outbound purge hook", () => {
  let server: TestServer;
  const received: Array<{ headers: IncomingMessage["headers"]; body: string }> = [];
  const hook = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(204).end();
    });
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
    server = await startServer({
      PUBLIC_URL,
      PAGE_CACHE_PURGE_HOOK_URL: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/purge`,
      PAGE_CACHE_PURGE_HOOK_SECRET: HOOK_SECRET,
      OUTBOUND_ALLOW_PRIVATE: "true",
      JOBS_POLL_MS: "50",
    });
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => hook.close(resolve));
  });

  it("POSTs the tags of a burst of purges once, signed with the configured secret", async () => {
    await server.atrium.runtime.services.pageCache.purgeEverywhere(["ws:a:page:1"]);
    await server.atrium.runtime.services.pageCache.purgeEverywhere(["ws:a:pages"]);
    await until(() => received.length > 0, "the purge hook's delivery");
    const [delivery] = received;
    const headers = delivery!.headers as Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string>;
    expect(verifyWebhook(HOOK_SECRET, headers, delivery!.body, Math.floor(Date.now() / 1000))).toBe(true);
    const wrongSecret = `whsec_${Buffer.alloc(32, 8).toString("base64")}`;
    expect(verifyWebhook(wrongSecret, headers, delivery!.body, Math.floor(Date.now() / 1000))).toBe(false);
    const body = JSON.parse(delivery!.body) as { type: string; tags: string[]; at: string };
    expect(body).toMatchObject({ type: "cache.purged", tags: ["ws:a:page:1", "ws:a:pages"] });
    expect(received).toHaveLength(1);
  });

  it("POSTs a purge made by another process that serves no page (the CLI's announcing purger), once", async () => {
    received.length = 0;
    const cli = openDatabase(server.database.url, { poolSize: 2 });
    try {
      registerAnnouncingPurger(cli, server.database.url);
      await purgeTags(cli.db, ["ws:cli:settings", "ws:cli"]);
    } finally {
      await cli.close();
    }
    await until(() => received.length > 0, "the purge hook's delivery of the CLI's purge");
    const [delivery] = received;
    const headers = delivery!.headers as Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string>;
    expect(verifyWebhook(HOOK_SECRET, headers, delivery!.body, Math.floor(Date.now() / 1000))).toBe(true);
    expect(JSON.parse(delivery!.body)).toMatchObject({ type: "cache.purged", tags: ["ws:cli", "ws:cli:settings"] });
    expect(received).toHaveLength(1);
  });
});
