/** The error contract on /api/* (DESIGN rule 3), through real HTTP. */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, signUp } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
let operator: Client;

beforeAll(async () => {
  server = await startServer({ MAX_BODY_BYTES: "2048" });
  operator = (await signUp(server.url)).client;
});
afterAll(() => server.close());

const body = (status: number, error: string) =>
  expect.objectContaining({ error, statusCode: status, message: expect.any(String) });

describe("unknown /api/* paths", () => {
  it.each(["/api/nope", "/api", "/api/v1/does/not/exist", "/api/health/nope"])("GET %s is a JSON 404", async (path) => {
    const res = await fetch(server.url + path);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(body(404, "Not Found"));
  });

  it("answers every method with the JSON 404, never the HTML page", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const res = await fetch(`${server.url}/api/nope`, { method, body: method === "DELETE" ? undefined : "{}" });
      expect(res.status, method).toBe(404);
      expect(await res.json()).toEqual(body(404, "Not Found"));
    }
  });
});

describe("methods", () => {
  it("answers a method a route does not support with 405 and Allow", async () => {
    const res = await fetch(`${server.url}/api/health`, { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    expect(await res.json()).toEqual(body(405, "Method Not Allowed"));
  });

  it("answers HEAD like GET without a body", async () => {
    const res = await fetch(`${server.url}/api/health`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });
});

describe("request bodies", () => {
  it("refuses malformed JSON with 400", async () => {
    const res = await operator.postJson("/api/editor/session", '{"workspaceId": ');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: "Bad Request",
      message: "The request body is not valid JSON",
      statusCode: 400,
    });
  });

  it("refuses a body that fails validation with 400 and the issues by field", async () => {
    const res = await operator.postJson("/api/editor/session", { workspaceId: 42 });
    expect(res.status).toBe(400);
    const json = await res.json();
    expect(json).toEqual(body(400, "Bad Request"));
    expect(json.issues).toEqual([{ field: "workspaceId", message: expect.any(String) }]);
  });

  it("refuses another content type with 415", async () => {
    const res = await operator.request("/api/editor/session", {
      method: "POST",
      body: "workspaceId=x",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual(body(415, "Unsupported Media Type"));
  });

  it("refuses a declared oversized body with 413 before reading it", async () => {
    const res = await operator.postJson("/api/editor/session", { workspaceId: "x".repeat(4096) });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(body(413, "Payload Too Large"));
  });

  it("refuses an oversized chunked body (no Content-Length) with 413 while streaming", async () => {
    const chunk = new TextEncoder().encode(`{"workspaceId":"${"y".repeat(1500)}`);
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(chunk);
        controller.enqueue(chunk);
        controller.enqueue(new TextEncoder().encode('"}'));
        controller.close();
      },
    });
    const res = await operator.request("/api/editor/session", {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json", origin: server.url },
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(body(413, "Payload Too Large"));
  });

  it("never leaks a stack trace or SQL on hostile input", async () => {
    const hostile = ["'; drop table users; --", "\u0000", "{".repeat(500), '{"workspaceId":"\\ud800"}'];
    for (const input of hostile) {
      const res = await operator.postJson("/api/editor/session", input);
      expect(res.status, input).toBeGreaterThanOrEqual(400);
      expect(res.status, input).toBeLessThan(500);
      const text = await res.text();
      expect(text).not.toMatch(/at .*\.js:\d+|select |SQLITE|syntax error/i);
    }
  });
});

describe("security headers", () => {
  it("sends a locked-down CSP and no-sniff on API responses", async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-powered-by")).toBeNull();
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("sends no HSTS outside production", async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(res.headers.get("strict-transport-security")).toBeNull();
  });
});

/** A request as a broken or hostile client sends it, which fetch would refuse to build. */
function rawRequest(method: string, path: string, host?: string) {
  const { hostname, port } = new URL(server.url);
  return new Promise<{ status: number; type: string; body: string; allow?: string }>((resolve, reject) => {
    const req = httpRequest(
      { host: hostname, port, method, path, setHost: host === undefined, headers: host === undefined ? {} : { host } },
      (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () =>
          resolve({ status: res.statusCode!, type: res.headers["content-type"] ?? "", body, allow: res.headers.allow }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("malformed requests are refused before any route, never with a 500 or a stack", () => {
  const noStack = (text: string) => expect(text).not.toMatch(/\bat [\w.<]+ \(|node_modules|\/build\/|Error:/);

  it.each([
    ["a b", "/api/health"],
    ["[", "/api/health"],
    ["x:99999", "/api/health"],
    ["evil.test/x", "/api/health"],
    ["a b", "/harbor-bakery"],
  ])("Host %j on %s is a 400", async (host, path) => {
    const res = await rawRequest("GET", path, host);
    expect(res.status).toBe(400);
    if (path.startsWith("/api/")) expect(JSON.parse(res.body)).toEqual(body(400, "Bad Request"));
    else expect(res.type).toMatch(/^text\/plain/);
    noStack(res.body);
  });

  it.each(["/api/health", "/", "/harbor-bakery"])("TRACE %s is a 501 naming the methods there are", async (path) => {
    const res = await rawRequest("TRACE", path);
    expect(res.status).toBe(501);
    expect(res.allow).toContain("GET");
    if (path.startsWith("/api/")) expect(JSON.parse(res.body)).toEqual(body(501, "Not Implemented"));
    noStack(res.body);
  });

  it.each([
    ["GET", "/api/%"],
    ["POST", "/api/sops/%ff/trigger"],
    ["GET", "/harbor-bakery/%E0%A4%A"],
    ["GET", "/%"],
  ])("%s %s (bad percent-encoding) is a 400", async (method, path) => {
    const res = await rawRequest(method, path);
    expect(res.status).toBe(400);
    if (path.startsWith("/api/")) expect(JSON.parse(res.body)).toEqual(body(400, "Bad Request"));
    noStack(res.body);
  });

  it("still serves well-formed hosts: a name with a port, an IPv6 literal", async () => {
    const { port } = new URL(server.url);
    expect((await rawRequest("GET", "/api/health/live", `localhost:${port}`)).status).toBe(200);
    expect((await rawRequest("GET", "/api/health/live", `[::1]:${port}`)).status).toBe(200);
    expect((await rawRequest("GET", "/api/health/live", "atrium.example.com")).status).toBe(200);
  });
});
