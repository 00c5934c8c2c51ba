import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeDeployment } from "../src/main/deployment-probe";

/** A real server on loopback that answers /api/health the way each case needs. */
let server: Server;
let origin: string;
let answer: (path: string) => { status: number; body: string; headers?: Record<string, string> } | "hang";

beforeAll(async () => {
  server = createServer((request, response) => {
    const reply = answer(request.url ?? "/");
    if (reply === "hang") return;
    response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
    response.end(reply.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const DATABASE = { ok: "ok", degraded: "read-only", error: "down" } as const;
const atrium = (status: "ok" | "degraded" | "error") =>
  JSON.stringify({ status, service: "atrium", version: "0.1.0", database: DATABASE[status] });

describe("checking that an address is an Atrium server", () => {
  it("recognises Atrium's health report at /api/health", async () => {
    let asked = "";
    answer = (path) => {
      asked = path;
      return { status: 200, body: atrium("ok") };
    };
    expect(await probeDeployment(`${origin}/settings/sops`, fetch)).toEqual({
      ok: true,
      value: { origin, version: "0.1.0", healthy: true },
    });
    expect(asked).toBe("/api/health");
  });

  it("still recognises Atrium when its database cannot write (503 degraded), and says it is unwell", async () => {
    answer = () => ({ status: 503, body: atrium("degraded") });
    expect(await probeDeployment(origin, fetch)).toEqual({
      ok: true,
      value: { origin, version: "0.1.0", healthy: false },
    });
  });

  it("still recognises Atrium when its database is down (503), and says it is unwell", async () => {
    answer = () => ({ status: 503, body: atrium("error") });
    expect(await probeDeployment(origin, fetch)).toEqual({
      ok: true,
      value: { origin, version: "0.1.0", healthy: false },
    });
  });

  it.each([
    ["another service's health body", 200, JSON.stringify({ status: "ok" })],
    ["a web page", 200, "<!doctype html><title>Router</title>"],
    ["a 404", 404, JSON.stringify({ error: "Not found" })],
  ])("refuses %s", async (_case, status, body) => {
    answer = () => ({ status, body });
    const result = await probeDeployment(origin, fetch);
    expect(result).toEqual({
      ok: false,
      error: `${origin} answered (HTTP ${status}), but not as an Atrium server: /api/health did not return Atrium's health report.`,
    });
  });

  it("does not follow a redirect, and names where it points", async () => {
    answer = () => ({ status: 301, body: "", headers: { location: "https://atrium.example.com/api/health" } });
    expect(await probeDeployment(origin, fetch)).toEqual({
      ok: false,
      error: `${origin} redirects to https://atrium.example.com. Use that address instead.`,
    });
  });

  it("explains a redirect the way Electron's net.fetch reports it (it cancels manual redirects)", async () => {
    const electronFetch = async () => {
      throw new Error("Redirect was cancelled");
    };
    expect(await probeDeployment(origin, electronFetch)).toEqual({
      ok: false,
      error: `${origin} answered with a redirect; use the deployment's own address.`,
    });
  });

  it("reports an address nobody answers at", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await probeDeployment(`http://127.0.0.1:${port}`, fetch);
    expect(result).toEqual({ ok: false, error: `Could not reach http://127.0.0.1:${port}: ECONNREFUSED` });
  });

  it("gives up on a server that never answers", async () => {
    answer = () => "hang";
    expect(await probeDeployment(origin, fetch, 300)).toEqual({
      ok: false,
      error: `Could not reach ${origin}: no answer within the time allowed.`,
    });
  });

  it("never sends a request for an address the picker would refuse", async () => {
    let requests = 0;
    answer = () => {
      requests += 1;
      return { status: 200, body: atrium("ok") };
    };
    const result = await probeDeployment("http://atrium.example.com", fetch);
    expect(result.ok).toBe(false);
    expect(requests).toBe(0);
  });
});
