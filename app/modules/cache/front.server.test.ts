/**
 * The page cache's front over real HTTP, with a stand-in for Express (a handler that counts its renders): hits
 * answered without rendering, identical bytes for every visitor, bypasses, 304, encodings, LRU by bytes, single
 * flight, purge by tag and the generation check. The app's own routes are covered by
 * tests/integration/page-cache.test.ts.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { gunzipSync, brotliDecompressSync } from "node:zlib";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createFront } from "./front.server";
import { publicCacheHeaders } from "./headers";
import { createPageStore, type PageStore } from "./store.server";

interface Reply {
  status: number;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

function get(base: string, path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

type Page = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A front over `page` (the stand-in for Express), listening on a free port. */
async function harness(
  page: Page,
  options: { maxBytes?: number; maxEntryBytes?: number; production?: boolean; trusted?: boolean } = {},
) {
  const maxEntryBytes = options.maxEntryBytes ?? 1_000_000;
  const store = createPageStore({ maxBytes: options.maxBytes ?? 10_000_000, maxEntryBytes, ttlSeconds: 600 });
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n")) if (line) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  let renders = 0;
  const inner = (req: IncomingMessage, res: ServerResponse) => {
    renders += 1;
    void page(req, res);
  };
  const front = createFront({ store, logger: pino(sink), maxEntryBytes }, inner, {
    trusted: () => options.trusted ?? false,
    production: options.production ?? false,
    isValidHost: (host) => /^[a-z0-9.-]+(:\d+)?$/i.test(host),
    shareable: true,
  });
  const server = createServer(front);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, store, logs, renders: () => renders };
}

const BODY = `<!doctype html><title>Acme</title>${"<p>Fresh sourdough every morning from seven.</p>".repeat(40)}`;

/** A cacheable page tagged by its path's first segment, as the site routes declare through publicCacheHeaders. */
const cacheable =
  (body = BODY, extra: Record<string, string> = {}, varyQuery?: string[]): Page =>
  (req, res) => {
    const [, site = "x", page = "home"] = (req.url ?? "/").split("?")[0]!.split("/");
    const headers = publicCacheHeaders({ tags: [`ws:${site}`, `ws:${site}:page:${page}`], varyQuery });
    res.setHeader("X-Request-Id", "render-id");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    for (const [name, value] of Object.entries({ ...headers, ...extra })) res.setHeader(name, value);
    res.end(`${body}<!-- ${req.url} -->`);
  };

describe("page cache front", () => {
  it("answers a second GET from the cache without rendering, byte for byte, with its own request id", async () => {
    const { base, logs, renders } = await harness(cacheable());
    const first = await get(base, "/acme/about");
    const second = await get(base, "/acme/about");
    expect(renders()).toBe(1);
    expect(second.status).toBe(200);
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.headers["x-content-type-options"]).toBe("nosniff");
    expect(second.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
    expect(second.headers["age"]).toMatch(/^\d+$/);
    expect(second.headers["etag"]).toBe(first.headers["etag"]);
    expect(second.headers["cache-tag"]).toBe("ws:acme,ws:acme:page:about");
    expect(first.headers["atrium-cache-vary-query"]).toBeUndefined();
    const hit = logs.find((line) => line.cache === "hit");
    expect(hit).toMatchObject({
      msg: "GET 200",
      req: { id: second.headers["x-request-id"], method: "GET", path: "/acme/about" },
      res: { statusCode: 200 },
      cache: "hit",
    });
  });

  it("gives every visitor the same bytes for one key, whatever their headers and ignored cookies", async () => {
    const { base, renders } = await harness(cacheable());
    const a = await get(base, "/acme/", { "user-agent": "A", "accept-language": "fr" });
    const b = await get(base, "/acme/", { "user-agent": "B", "accept-language": "de", cookie: "_ga=GA1.2.3; _gid=x" });
    expect(b.body.equals(a.body)).toBe(true);
    expect(renders()).toBe(1);
  });

  it("bypasses requests with a session, unlock, cart or undeclared cookie, an Authorization header, or a POST", async () => {
    const { base, renders, store } = await harness(cacheable());
    await get(base, "/acme/");
    for (const cookie of [
      "atrium_session=s",
      "__Host-atrium_session=s",
      "atrium_site_unlock=u",
      "atrium_cart=c",
      "x=1",
    ]) {
      await get(base, "/acme/", { cookie });
    }
    await get(base, "/acme/", { authorization: "Bearer t" });
    await get(base, "/acme/", {}, "POST");
    expect(renders()).toBe(8);
    expect(store.stats().entries).toBe(1);
  });

  it("keys on the declared query parameters only, ignores marketing ones, and bypasses undeclared ones", async () => {
    const { base, renders } = await harness(cacheable(BODY, {}, ["page"]));
    await get(base, "/acme/blog?page=2&utm_source=news");
    expect(renders()).toBe(1);
    await get(base, "/acme/blog?gclid=1&page=2");
    expect(renders()).toBe(1);
    await get(base, "/acme/blog?page=3");
    expect(renders()).toBe(2);
    await get(base, "/acme/blog?page=2&debug=1");
    await get(base, "/acme/blog?page=2&debug=1");
    expect(renders()).toBe(4);
  });

  it("does not store an answer for a request that carried a parameter the answer does not declare", async () => {
    const { base, renders } = await harness(cacheable());
    await get(base, "/acme/?q=1");
    await get(base, "/acme/?q=1");
    expect(renders()).toBe(2);
  });

  it("answers If-None-Match with 304 from the cache, and HEAD with the headers only", async () => {
    const { base, renders } = await harness(cacheable());
    const first = await get(base, "/acme/");
    const revalidated = await get(base, "/acme/", { "if-none-match": first.headers.etag! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    const head = await get(base, "/acme/", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(String(first.body.length));
    expect(renders()).toBe(1);
  });

  it("sends the encoding the client accepts, compressed once, and says it varies on Accept-Encoding", async () => {
    const { base, store } = await harness(cacheable());
    const identity = await get(base, "/acme/");
    // The copies are made off the event loop after the answer is stored; until then it is sent as is.
    const key = store.keyOf("http", new URL(base).host, "/acme/", "")!;
    while (!store.peek(key)?.br) await new Promise((resolve) => setTimeout(resolve, 5));
    const gzip = await get(base, "/acme/", { "accept-encoding": "gzip" });
    const br = await get(base, "/acme/", { "accept-encoding": "gzip, br" });
    const refused = await get(base, "/acme/", { "accept-encoding": "br;q=0, gzip;q=0" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).equals(identity.body)).toBe(true);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body).equals(identity.body)).toBe(true);
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(br.headers.vary).toBe("Accept-Encoding");
    expect(br.headers.etag).toBe(identity.headers.etag);
  });

  it("stores nothing that sets a cookie, is private, is not a 200 or declares no tags, and strips its internal headers", async () => {
    const variants: Record<string, Page> = {
      "/cookie": cacheable(BODY, { "Set-Cookie": "a=1" }),
      "/private": cacheable(BODY, { "Cache-Control": "private, no-store" }),
      "/untagged": (_req, res) => {
        res.setHeader("Cache-Control", "public, s-maxage=300");
        res.setHeader("Atrium-Cache-Until", new Date(Date.now() + 60_000).toISOString());
        res.end("x");
      },
      "/missing": (_req, res) => {
        res.statusCode = 404;
        for (const [name, value] of Object.entries(publicCacheHeaders({ tags: ["ws:a"] }))) res.setHeader(name, value);
        res.end("not found");
      },
    };
    const { base, renders, store } = await harness((req, res) => variants[req.url!]!(req, res));
    for (const path of Object.keys(variants)) {
      const first = await get(base, path);
      expect(first.headers["atrium-cache-until"]).toBeUndefined();
      await get(base, path);
    }
    expect(renders()).toBe(8);
    expect(store.stats().entries).toBe(0);
  });

  it("streams on, unstored, an answer larger than PAGE_CACHE_MAX_ENTRY_BYTES, and stores none that varies on a request header", async () => {
    const big: Page = (req, res) => {
      for (const [name, value] of Object.entries(publicCacheHeaders({ tags: ["ws:a"] }))) res.setHeader(name, value);
      res.setHeader("Content-Type", "text/plain");
      if (req.url === "/vary") {
        res.setHeader("Vary", "Accept-Language");
        return void res.end("bonjour");
      }
      for (let i = 0; i < 10; i++) res.write("y".repeat(1_000));
      res.end("end");
    };
    const { base, store, renders } = await harness(big, { maxEntryBytes: 4_000 });
    const reply = await get(base, "/big");
    expect(reply.body.toString()).toBe(`${"y".repeat(10_000)}end`);
    expect(reply.headers["atrium-cache-until"]).toBeUndefined();
    await get(base, "/vary");
    await get(base, "/vary");
    expect(renders()).toBe(3);
    expect(store.stats().entries).toBe(0);
  });

  it("evicts the least recently used answers once the bytes exceed PAGE_CACHE_MAX_BYTES", async () => {
    const { base, store, renders } = await harness(cacheable("x".repeat(2_000)), { maxBytes: 7_000 });
    await get(base, "/acme/a");
    await get(base, "/acme/b");
    await get(base, "/acme/a"); // a is now the most recently used
    await get(base, "/acme/c"); // evicts b
    expect(store.stats().entries).toBe(2);
    expect(store.stats().bytes).toBeLessThanOrEqual(7_000);
    const before = renders();
    await get(base, "/acme/a");
    expect(renders()).toBe(before);
    await get(base, "/acme/b");
    expect(renders()).toBe(before + 1);
  });

  it("keeps one entry for the spellings of one path (escaped unreserved characters, a trailing slash)", async () => {
    const { base, store, renders } = await harness(cacheable());
    for (const path of ["/acme/about", "/acme/about/", "/acme/%61bout", "/acme/%61%62out//"]) {
      expect((await get(base, path)).status).toBe(200);
    }
    expect(renders()).toBe(1);
    expect(store.stats().entries).toBe(1);
    // An escape that changes the path's meaning stays its own key.
    await get(base, "/acme%2Fabout");
    expect(renders()).toBe(2);
  });

  it("renders concurrent misses of one key once (single flight)", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { base, renders } = await harness(async (req, res) => {
      await gate;
      cacheable()(req, res);
    });
    const pending = Array.from({ length: 8 }, () => get(base, "/acme/"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    const replies = await Promise.all(pending);
    expect(renders()).toBe(1);
    for (const reply of replies) expect(reply.body.equals(replies[0]!.body)).toBe(true);
  });

  it("purges exactly the entries carrying a tag or a descendant of it", async () => {
    const { base, store, renders } = await harness(cacheable());
    for (const path of ["/acme/a", "/acme/b", "/other/a"]) await get(base, path);
    expect(store.purge(["ws:acme:page:a"])).toBe(1);
    expect(store.stats().entries).toBe(2);
    expect(store.purge(["ws:acme"])).toBe(1);
    expect(store.stats().entries).toBe(1);
    const before = renders();
    await get(base, "/other/a");
    expect(renders()).toBe(before);
  });

  it("does not store a render that started before a purge of one of its tags (the generation check)", async () => {
    const ref: { store?: PageStore } = {};
    const { base, store } = await harness((req, res) => {
      // The write commits and purges while this render has already read the old data.
      ref.store!.purge(["ws:acme:page:a"]);
      cacheable()(req, res);
    });
    ref.store = store;
    await get(base, "/acme/a");
    expect(store.stats().entries).toBe(0);
    await get(base, "/acme/b"); // a purge of another page does not stop this one
    expect(store.stats().entries).toBe(1);
  });

  it("stores nothing while the bus is not listening", async () => {
    const { base, store } = await harness(cacheable());
    store.setAccepting(false);
    await get(base, "/acme/");
    expect(store.stats().entries).toBe(0);
  });

  it("reads X-Forwarded-Host only from a trusted proxy, and gives no hit to an http request a production server redirects", async () => {
    const untrusted = await harness(cacheable());
    await get(untrusted.base, "/acme/", { "x-forwarded-host": "evil.example" });
    expect(untrusted.store.keyOf("http", "evil.example", "/acme/", "")).not.toBeNull();
    expect(untrusted.store.peek(untrusted.store.keyOf("http", "evil.example", "/acme/", "")!)).toBeUndefined();

    const production = await harness(cacheable(), { production: true, trusted: true });
    await get(production.base, "/acme/", { "x-forwarded-proto": "https", "x-forwarded-host": "acme.example" });
    // As Remix's adapter builds the request's URL: the forwarded name, with Host's port when it carries none.
    const port = new URL(production.base).port;
    expect(production.store.peek(`https://acme.example:${port}/acme`)).toBeDefined();
    await get(production.base, "/acme/", { "x-forwarded-proto": "https", "x-forwarded-host": "acme.example:443" });
    expect(production.store.peek("https://acme.example:443/acme")).toBeDefined();
    await get(production.base, "/acme/", { "x-forwarded-proto": "http", "x-forwarded-host": "acme.example" });
    expect(production.renders()).toBe(3);
  });

  it("gives Express the one X-Forwarded-Host value it keys on when a trusted proxy sends several", async () => {
    const seen: Array<string | string[] | undefined> = [];
    const { base, store } = await harness(
      (req, res) => {
        seen.push(req.headers["x-forwarded-host"]);
        cacheable()(req, res);
      },
      { trusted: true },
    );
    const port = new URL(base).port;
    await get(base, "/acme/", { "x-forwarded-host": "localhost, x:6666" });
    // Remix's adapter would have taken port 6666 from the whole header; it now sees what the key says.
    expect(seen).toEqual(["localhost"]);
    expect(store.peek(`http://localhost:${port}/acme`)).toBeDefined();
  });

  it("keeps single flight when the first client leaves: the waiters are served the render it stored", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { base, renders } = await harness(async (req, res) => {
      await gate;
      cacheable()(req, res);
    });
    // The first client sends its request and hangs up at once, while the render is still waiting.
    const leaving = request(`${base}/acme/slow`);
    leaving.on("error", () => {});
    leaving.end();
    await new Promise((resolve) => setTimeout(resolve, 50));
    leaving.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const pending = Array.from({ length: 5 }, () => get(base, "/acme/slow"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    const replies = await Promise.all(pending);
    expect(renders()).toBe(1);
    for (const reply of replies) expect(reply.status).toBe(200);
  });
});
