/** /api/health, /api/routing-test, request logs and production headers. */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createUser } from "~/modules/accounts/users.server";
import { Client, PASSWORD, createWorkspace, signUp, uniqueEmail } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

describe("health", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it("reports the service, its version and a reachable database", async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const { version } = (await import("../../package.json")).default;
    expect(await res.json()).toEqual({ status: "ok", service: "atrium", version, database: "ok" });
  });

  it("answers liveness without the database", async () => {
    const res = await fetch(`${server.url}/api/health/live`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  // Last in this block: it takes the database away from this server.
  it("answers 503 with database down when the database is unreachable", async () => {
    await server.atrium.runtime.close();
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: "error", service: "atrium", database: "down" });
  });
});

describe("routing test and request logs", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    const { client } = await signUp(server.url);
    await createWorkspace(client, "Acme", "acme");
  });
  afterAll(() => server.close());

  it("tells how a request is routed: host, site, caller type, route", async () => {
    const res = await fetch(`${server.url}/api/routing-test`);
    expect(await res.json()).toMatchObject({
      host: new URL(server.url).host,
      path: "/api/routing-test",
      site: null,
      callerType: "public",
      route: "/api/routing-test",
    });
  });

  it("resolves the site from the X-Atrium-Site header or the site parameter, never an unknown one", async () => {
    const byHeader = await (
      await fetch(`${server.url}/api/routing-test?path=/api/v1/search`, { headers: { "x-atrium-site": "acme" } })
    ).json();
    expect(byHeader).toMatchObject({ site: { slug: "acme", name: "Acme", via: "header" }, callerType: "customer" });
    const byQuery = await (await fetch(`${server.url}/api/routing-test?path=/api/v1/search&site=acme`)).json();
    expect(byQuery.site).toMatchObject({ slug: "acme", via: "query" });
    const unknown = await (await fetch(`${server.url}/api/routing-test?site=nobody-here`)).json();
    expect(unknown.site).toBeNull();
  });

  it.each([
    ["/api/auth/me", "integrator"],
    ["/api/chat/v5", "integrator"],
    ["/api/sops/abc/trigger", "trigger"],
    ["/api/sops/abc/triggers/t1/rotate", "operator"],
    ["/api/editor/pages", "operator"],
    ["/api/internal/repair", "internal"],
    ["/api/cron/daily", "scheduler"],
    ["/api/webhooks/payments", "provider"],
    ["/api/v1/bookings", "customer"],
    ["/settings", "operator"],
    ["/acme/shop", "public"],
  ])("classifies %s as a %s caller", async (path, caller) => {
    const res = await fetch(`${server.url}/api/routing-test?path=${encodeURIComponent(path)}`);
    expect((await res.json()).callerType).toBe(caller);
  });

  it("resolves the site of a public page from its path", async () => {
    const res = await fetch(`${server.url}/api/routing-test?path=/acme/shop`);
    expect((await res.json()).site).toMatchObject({ slug: "acme", via: "path" });
  });

  it("writes one log line per request with id, caller type, route, status, duration and failure", async () => {
    const lineOf = (id: string | null) =>
      // The line is written when the response finishes, which can be just after the client has it.
      vi.waitFor(() => {
        const found = server.logs.find((l) => (l.req as { id?: string } | undefined)?.id === id);
        if (!found) throw new Error(`no log line for ${id}`);
        return found;
      });
    const res = await fetch(`${server.url}/api/nope`);
    const id = res.headers.get("x-request-id");
    const line = await lineOf(id);
    expect(line).toMatchObject({
      req: { id, method: "GET", path: "/api/nope" },
      res: { statusCode: 404 },
      callerType: "public",
      route: "/api/*",
      failure: "missing-data",
      responseTime: expect.any(Number),
    });
    const site = await fetch(`${server.url}/acme`);
    const siteLine = await lineOf(site.headers.get("x-request-id"));
    expect(siteLine).toMatchObject({ callerType: "public", route: "/:site", res: { statusCode: 200 } });
  });

  it("never logs a query string", async () => {
    await fetch(`${server.url}/api/health?token=very-secret-value`);
    expect(JSON.stringify(server.logs)).not.toContain("very-secret-value");
  });
});

describe("proxies", () => {
  it("ignores X-Forwarded-For unless TRUST_PROXY is set", async () => {
    const server = await startServer();
    try {
      const res = await fetch(`${server.url}/api/routing-test`, {
        headers: { "x-forwarded-for": "203.0.113.9", "x-forwarded-proto": "https", "x-forwarded-host": "evil.test" },
      });
      const json = await res.json();
      expect(json.clientIp).not.toBe("203.0.113.9");
      expect(json.protocol).toBe("http");
      expect(json.host).toBe(new URL(server.url).host);
    } finally {
      await server.close();
    }
  });

  it("believes the proxy's X-Forwarded-* when TRUST_PROXY is set", async () => {
    const server = await startServer({ TRUST_PROXY: "loopback" });
    try {
      const res = await fetch(`${server.url}/api/routing-test`, {
        headers: { "x-forwarded-for": "203.0.113.9", "x-forwarded-proto": "https" },
      });
      const json = await res.json();
      expect(json.clientIp).toBe("203.0.113.9");
      expect(json.protocol).toBe("https");
    } finally {
      await server.close();
    }
  });
});

describe("production", () => {
  it("sends HSTS (its public origin is https) and a Secure, host-only session cookie", async () => {
    const server = await startServer({ NODE_ENV: "production", PUBLIC_URL: "https://atrium.example.test" });
    try {
      const health = await fetch(`${server.url}/api/health`);
      expect(health.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
      // Production prints no sign-up link without SMTP: its first account is made as the README says (users:create).
      const email = uniqueEmail();
      await createUser(server.db, { email, password: PASSWORD });
      const client = new Client(server.url);
      expect((await client.post("/login", { email, password: PASSWORD })).status).toBe(302);
      expect(client.cookie("__Host-atrium_session")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    } finally {
      await server.close();
    }
  });

  it("warns at start when the demo operator exists under NODE_ENV=production", async () => {
    const server = await startServer({ NODE_ENV: "production", SEED_DEMO: "true" });
    try {
      expect(server.logs.some((l) => l.level === 40 && String(l.msg).includes("demo operator exists"))).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe("paths the console will own that have no page yet", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  // No site can take a console word as its address: these are the console's, which sends a signed-out visitor
  // to sign in (a signed-in operator gets the console's own 404: tests/integration/console-shell.test.ts).
  it.each(["/shop", "/insights", "/website", "/customers/x"])(
    "GET %s asks a signed-out visitor to sign in",
    async (path) => {
      const res = await fetch(server.url + path, { redirect: "manual" });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toMatch(/^\/login\?redirectTo=/);
    },
  );
});
