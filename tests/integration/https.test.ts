/**
 * Issue 12, item 13: HTTPS in practice. In production behind a trusted proxy, plain http is redirected (GET,
 * HEAD) or refused (other methods), and HSTS goes on https answers only; development stays on http.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { raw } from "../helpers/raw-request";
import { startServer, type TestServer } from "../helpers/server";

const HSTS = "max-age=31536000; includeSubDomains";

describe("development behind a proxy", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ PUBLIC_URL: "https://atrium.example.test", TRUST_PROXY: "loopback" });
  });
  afterAll(() => server.close());

  it("stays on http outside production: no redirect, no HSTS", async () => {
    const res = await raw(server, "GET", "/login", { host: "atrium.example.test", "x-forwarded-proto": "http" });
    expect(res.status).toBe(200);
    expect(res.headers["strict-transport-security"]).toBeUndefined();
  });
});

describe("HTTPS in production behind a trusted proxy", () => {
  let server: TestServer;
  const viaProxy = (proto: string, extra: Record<string, string> = {}) => ({
    host: "atrium.example.test",
    "x-forwarded-proto": proto,
    ...extra,
  });
  beforeAll(async () => {
    server = await startServer({
      NODE_ENV: "production",
      PUBLIC_URL: "https://atrium.example.test",
      TRUST_PROXY: "loopback",
    });
  });
  afterAll(() => server.close());

  it("redirects GET and HEAD over plain http to the same host and path over https, with 308", async () => {
    for (const method of ["GET", "HEAD"]) {
      const res = await raw(server, method, "/login?redirectTo=%2Fsettings", viaProxy("http"));
      expect(res.status, method).toBe(308);
      expect(res.headers.location).toBe("https://atrium.example.test/login?redirectTo=%2Fsettings");
      expect(res.headers["strict-transport-security"]).toBeUndefined();
    }
  });

  it("refuses other methods over plain http with 403 and the error contract, without a redirect", async () => {
    const api = await raw(server, "POST", "/api/sops/x/trigger", viaProxy("http"));
    expect(api.status).toBe(403);
    expect(api.headers.location).toBeUndefined();
    expect(JSON.parse(api.body)).toEqual({
      error: "Forbidden",
      message:
        "This server is served over https only: send this request to https://atrium.example.test/api/sops/x/trigger",
      statusCode: 403,
    });
    const page = await raw(server, "POST", "/login", viaProxy("http"));
    expect(page.status).toBe(403);
    expect(page.headers["content-type"]).toMatch(/^text\/plain/);
  });

  it("sends HSTS over https", async () => {
    const res = await raw(server, "GET", "/login", viaProxy("https"));
    expect(res.status).toBe(200);
    expect(res.headers["strict-transport-security"]).toBe(HSTS);
  });

  it("never redirects to a host it does not serve", async () => {
    const res = await raw(server, "GET", "/login", viaProxy("http", { "x-forwarded-host": "evil.example" }));
    expect(res.status).toBe(421);
    expect(res.headers.location).toBeUndefined();
  });

  it("answers health probes over http, without HSTS", async () => {
    const res = await raw(server, "GET", "/api/health", { host: "10.0.0.7", "x-forwarded-proto": "http" });
    expect(res.status).toBe(200);
    expect(res.headers["strict-transport-security"]).toBeUndefined();
  });
});

describe("production without a trusted proxy: the scheme is unknown", () => {
  it("believes no client's X-Forwarded-Proto; HSTS only when PUBLIC_URL is https", async () => {
    // 10.0.0.1 is trusted, but the test's requests come from 127.0.0.1.
    const https = await startServer({
      NODE_ENV: "production",
      PUBLIC_URL: "https://atrium.example.test",
      TRUST_PROXY: "10.0.0.1",
    });
    try {
      const res = await raw(https, "GET", "/login", { host: "atrium.example.test", "x-forwarded-proto": "http" });
      expect(res.status).toBe(200);
      expect(res.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    } finally {
      await https.close();
    }
    const bare = await startServer({ NODE_ENV: "production" });
    try {
      const res = await raw(bare, "GET", "/login", { host: new URL(bare.url).host, "x-forwarded-proto": "https" });
      expect(res.status).toBe(200);
      expect(res.headers["strict-transport-security"]).toBeUndefined();
      const warnings = bare.logs.filter((l) => l.level === 40).map((l) => String(l.msg));
      expect(warnings.some((m) => m.includes("PUBLIC_URL is not set"))).toBe(true);
      expect(warnings.some((m) => m.includes("without TRUST_PROXY"))).toBe(true);
    } finally {
      await bare.close();
    }
  });
});
