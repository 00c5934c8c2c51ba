/**
 * Issue 12, item 3: the host names this deployment serves (others get 421, so no issuer or link names a host the
 * client chose). Raw node:http requests, since fetch will not send a Host of the test's choosing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, signUp } from "../helpers/client";
import { raw } from "../helpers/raw-request";
import { startServer, type TestServer } from "../helpers/server";
import { PUBLIC_CACHE_CONTROL } from "~/modules/cache/headers";

const METADATA = "/.well-known/oauth-authorization-server";
const misdirected = (host: string) => ({
  error: "Misdirected Request",
  message: `This server does not serve the host name ${host}`,
  statusCode: 421,
});

describe("without PUBLIC_URL (development, tests, npm start)", () => {
  let server: TestServer;
  let port: string;
  beforeAll(async () => {
    server = await startServer();
    port = new URL(server.url).port;
  });
  afterAll(() => server.close());

  it("refuses a host it does not serve with 421, so the issuer never names it", async () => {
    const metadata = await raw(server, "GET", METADATA, { host: "evil.example" });
    expect(metadata.status).toBe(421);
    expect(metadata.body).not.toContain("issuer");
    expect(metadata.headers["cache-control"]).toBe("no-store");

    for (const path of ["/api/routing-test", "/api/openapi.json"]) {
      const api = await raw(server, "GET", path, { host: "evil.example:3000" });
      expect(api.status, path).toBe(421);
      expect(JSON.parse(api.body)).toEqual(misdirected("evil.example"));
    }
    const page = await raw(server, "GET", "/login", { host: "evil.example" });
    expect(page.status).toBe(421);
    expect(page.headers["content-type"]).toMatch(/^text\/plain/);
  });

  it("serves localhost and 127.0.0.1; an issuer taken from the request is not cacheable", async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      const res = await raw(server, "GET", METADATA, { host });
      expect(res.status, host).toBe(200);
      expect(JSON.parse(res.body).issuer).toBe(`http://${host}`);
      expect(res.headers["cache-control"]).toBe("no-store");
    }
  });

  it("answers health probes on any host: load balancers call them by address", async () => {
    for (const path of ["/api/health", "/api/health/live"]) {
      expect((await raw(server, "GET", path, { host: "10.0.0.7" })).status, path).toBe(200);
    }
  });

  it("does not take X-Forwarded-Host from a client it does not trust", async () => {
    const res = await raw(server, "GET", METADATA, { host: "evil.example", "x-forwarded-host": `localhost:${port}` });
    expect(res.status).toBe(421);
  });
});

describe("with PUBLIC_URL, behind a trusted proxy", () => {
  const BASE = "https://atrium.example.test";
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ PUBLIC_URL: BASE, TRUST_PROXY: "loopback" });
  });
  afterAll(() => server.close());

  it("takes the issuer from configuration, on its host and on loopback alike, and lets caches keep it", async () => {
    const requests: Record<string, string>[] = [
      { host: "atrium.example.test" },
      { host: new URL(server.url).host },
      { host: "127.0.0.1", "x-forwarded-host": "Atrium.Example.Test", "x-forwarded-proto": "https" },
    ];
    for (const headers of requests) {
      const res = await raw(server, "GET", METADATA, headers);
      expect(res.status, headers.host).toBe(200);
      expect(JSON.parse(res.body)).toMatchObject({ issuer: BASE, token_endpoint: `${BASE}/oauth/token` });
      expect(res.headers["cache-control"]).toBe("public, max-age=300");
    }
  });

  it("refuses another host, whether in Host or in the trusted proxy's X-Forwarded-Host", async () => {
    expect((await raw(server, "GET", METADATA, { host: "evil.example" })).status).toBe(421);
    const forwarded = await raw(server, "GET", "/api/routing-test", {
      host: "atrium.example.test",
      "x-forwarded-host": "evil.example",
    });
    expect(forwarded.status).toBe(421);
    expect(JSON.parse(forwarded.body)).toEqual(misdirected("evil.example"));
  });

  it("names the configured origin in the API reference and the console's copy examples", async () => {
    const reference = await raw(server, "GET", "/api/openapi.json", { host: new URL(server.url).host });
    expect(JSON.parse(reference.body).servers).toEqual([{ url: BASE }]);
    expect(reference.headers["cache-control"]).toBe("public, max-age=300");

    const { client } = await signUp(server.url);
    const picker = await (await client.get("/")).text();
    expect(picker).toContain("atrium.example.test/");
    expect(picker).not.toContain("127.0.0.1");
    const generated = await client.post("/settings/api-keys", {
      intent: "generate",
      name: "CI",
      environment: "live",
      expiresInDays: "",
      workspaceId: "",
    });
    expect(await generated.text()).toMatch(
      /curl -H &quot;Authorization: Bearer atr_[^"]+ https:\/\/atrium\.example\.test\/api\/auth\/me/,
    );
  });

  it("lets shared caches keep a public page, whose canonical and Open Graph addresses name the configured origin", async () => {
    const { client } = await signUp(server.url);
    await createWorkspace(client, "Canon Bakery", "canon-bakery");
    const res = await raw(server, "GET", "/canon-bakery", { host: new URL(server.url).host });
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe(PUBLIC_CACHE_CONTROL);
    expect(res.body).toContain(`<link rel="canonical" href="${BASE}/canon-bakery"/>`);
    expect(res.body).toContain(`<meta property="og:url" content="${BASE}/canon-bakery"/>`);
    expect(res.body).not.toContain("127.0.0.1");
  });
});
