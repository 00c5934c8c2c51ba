/** Public site pages and console pages as documents: status, CSP, cacheability. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, signUp, type Client } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
let operator: Client;
beforeAll(async () => {
  server = await startServer();
  operator = (await signUp(server.url)).client;
  await createWorkspace(operator, "Acme Bakery", "acme");
});
afterAll(() => server.close());

describe("a public site page", () => {
  it("renders the workspace's home at /{site}", async () => {
    const res = await fetch(`${server.url}/acme`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<title>Acme Bakery</title>");
    expect(html).toMatch(/<h1 class="block-hero__heading">Acme Bakery<\/h1>/);
  });

  it("ships no script and a CSP without a nonce", async () => {
    const res = await fetch(`${server.url}/acme`);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'none'");
    expect(csp).not.toContain("nonce-");
    // Structured data (JSON-LD) is the only <script> element: data a browser never runs.
    expect(await res.text()).not.toMatch(/<script(?![^>]*type="application\/ld\+json")/i);
  });

  it("is byte-identical for every visitor, signed in or not", async () => {
    const anonymous = await (await fetch(`${server.url}/acme`)).text();
    const other = await (
      await fetch(`${server.url}/acme`, { headers: { "user-agent": "Another/1.0", "accept-language": "fr" } })
    ).text();
    const signedIn = await (await operator.get("/acme")).text();
    expect(other).toBe(anonymous);
    expect(signedIn).toBe(anonymous);
  });

  it("sets no cookie, and no shared cache keeps a page that names the request's own origin", async () => {
    const res = await operator.get("/acme");
    expect(res.headers.get("set-cookie")).toBeNull();
    // Without PUBLIC_URL the canonical address is the request's origin (ADR 006), so the page is not for shared
    // caches (a CDN keyed by Host alone); this process's page cache, keyed by that origin, keeps it (ADR 026).
    // With PUBLIC_URL, shared caches may keep the page (tests/integration/hosts.test.ts).
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
  });

  it("answers an unknown site with a 404 page", async () => {
    for (const path of ["/no-such-site", "/Not_A_Slug", "/favicon.ico"]) {
      const res = await fetch(server.url + path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toMatch(/^text\/html/);
      expect(await res.text(), path).toContain("Site not found");
    }
  });

  it("answers an unknown page of a site with a 404 page", async () => {
    const res = await fetch(`${server.url}/acme/no/such/page`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("Page not found");
  });
});

describe("a console page", () => {
  it("carries a per-request nonce CSP that forbids framing, and is never cached", async () => {
    const first = await operator.get("/settings");
    const second = await operator.get("/settings");
    const nonceOf = (r: Response) => /'nonce-([^']+)'/.exec(r.headers.get("content-security-policy") ?? "")?.[1];
    expect(nonceOf(first)).toBeTruthy();
    expect(nonceOf(first)).not.toBe(nonceOf(second));
    expect(first.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(first.headers.get("cache-control")).toBe("private, no-store");
    const html = await first.text();
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonceOf(first)}"`);
  });

  it("serves fingerprinted assets as immutable", async () => {
    const html = await (await fetch(`${server.url}/login`)).text();
    const asset = /href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1];
    expect(asset).toBeTruthy();
    const res = await fetch(server.url + asset);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("labels the sign-in fields Email and Password", async () => {
    const html = await (await fetch(`${server.url}/login`)).text();
    expect(html).toMatch(/<label for="field-email">Email<\/label>/);
    expect(html).toMatch(/<label for="field-password">Password<\/label>/);
  });
});
