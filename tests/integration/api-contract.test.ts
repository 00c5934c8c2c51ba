/** The error contract on /api/* (DESIGN rule 3), through real HTTP. */
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
