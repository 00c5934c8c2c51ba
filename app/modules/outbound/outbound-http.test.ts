/**
 * The SSRF guard is tested against a real `node:http` server on 127.0.0.1: the refusals have to hold for the
 * addresses an attacker would really use, and the one way to be sure a refused target is never connected to is
 * to watch socket creation (the `net.client.socket` diagnostics channel) while asking for it.
 */
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkUrl,
  isRefusedAddress,
  isRetryableStatus,
  OutboundError,
  outboundRequest,
  type OutboundPolicy,
  type OutboundRequest,
} from "./outbound-http.server";

const strict: OutboundPolicy = {
  allowPrivateNetworks: false,
  requireHttps: false,
  timeoutMs: 2_000,
  maxResponseBytes: 64 * 1024,
  maxRedirects: 3,
};
const local: OutboundPolicy = { ...strict, allowPrivateNetworks: true };

let server: Server;
let port: number;
let base: string;
let connections = 0;
const seen: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[] = [];

function route(req: IncomingMessage, res: ServerResponse, body: string) {
  const url = new URL(req.url ?? "/", "http://x");
  seen.push({ method: req.method ?? "", url: url.pathname + url.search, headers: req.headers, body });
  const status = Number(url.searchParams.get("status") ?? 302);
  switch (url.pathname) {
    case "/json":
      res.setHeader("content-type", "application/json");
      return res.end(JSON.stringify({ ok: true, method: req.method, body }));
    case "/status":
      return res.writeHead(status).end(`status ${status}`);
    case "/slow-headers":
      return; // never answers
    case "/slow-body":
      res.writeHead(200);
      res.write("a");
      return; // never finishes
    case "/huge":
      res.writeHead(Number(url.searchParams.get("status") ?? 200));
      return res.end("x".repeat(1024 * 1024));
    case "/redirect":
      return res.writeHead(status, { location: url.searchParams.get("to") ?? "/json" }).end();
    case "/chain": {
      const left = Number(url.searchParams.get("n"));
      return res.writeHead(302, { location: left > 0 ? `/chain?n=${left - 1}` : "/json" }).end();
    }
    default:
      return res.writeHead(404).end();
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => route(req, res, Buffer.concat(chunks).toString("utf8")));
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function failure(request: OutboundRequest | string, policy: OutboundPolicy, options?: object) {
  const req = typeof request === "string" ? { url: request } : request;
  try {
    await outboundRequest(req, policy, options);
  } catch (error) {
    expect(error).toBeInstanceOf(OutboundError);
    return error as OutboundError;
  }
  throw new Error(`expected ${req.url} to fail`);
}

/** Runs `action` and counts the client sockets Node created meanwhile. */
async function socketsOpenedBy(action: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const onSocket = () => count++;
  subscribe("net.client.socket", onSocket);
  try {
    await action();
  } finally {
    unsubscribe("net.client.socket", onSocket);
  }
  return count;
}

describe("checkUrl", () => {
  it("accepts http and https", () => {
    expect(checkUrl("https://example.com/a?b=1", { requireHttps: true }).href).toBe("https://example.com/a?b=1");
    expect(checkUrl("http://example.com:8080", { requireHttps: false }).port).toBe("8080");
  });

  it.each(["ftp://example.com/x", "file:///etc/passwd", "gopher://example.com", "javascript:alert(1)", "not a url"])(
    "refuses %s",
    (url) => {
      expect(() => checkUrl(url, { requireHttps: false })).toThrow(
        expect.objectContaining({ kind: "refused", retryable: false }),
      );
    },
  );

  it("refuses credentials in the URL", () => {
    for (const url of ["http://user:pw@example.com", "http://user@example.com", "https://:pw@example.com"]) {
      expect(() => checkUrl(url, { requireHttps: false })).toThrow(/user name or password/);
    }
  });

  it("refuses http: when https is required", () => {
    expect(() => checkUrl("http://example.com", { requireHttps: true })).toThrow(/Only https/);
  });
});

describe("isRetryableStatus", () => {
  it("retries 5xx, 429 and 408 only", () => {
    expect([500, 502, 503, 504, 429, 408].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 409, 410, 422, 301].some(isRetryableStatus)).toBe(false);
  });
});

describe("isRefusedAddress", () => {
  it.each([
    "0.0.0.0",
    "0.1.2.3",
    "10.1.2.3",
    "100.64.0.1",
    "100.127.255.255",
    "127.0.0.1",
    "127.255.255.254",
    "169.254.169.254",
    "172.16.0.1",
    "172.31.255.255",
    "192.0.0.170",
    "192.0.2.1",
    "192.168.0.1",
    "198.18.0.1",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.251",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "::127.0.0.1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:a9fe:a9fe",
    "64:ff9b::10.0.0.1",
    "64:ff9b:1::1",
    "100::1",
    "2001::1",
    "2001:db8::1",
    "2002:a00:1::1",
    "fc00::1",
    "fd00:ec2::254",
    "fe80::1",
    "fe80::1%eth0",
    "fec0::1",
    "ff02::1",
    "4000::1",
    "localhost",
    "",
  ])("refuses %s", (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each([
    "1.1.1.1",
    "8.8.8.8",
    "100.63.255.255",
    "100.128.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "192.169.0.1",
    "223.255.255.255",
    "2606:4700:4700::1111",
    "2a00:1450:4001::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("allows public %s", (address) => {
    expect(isRefusedAddress(address)).toBe(false);
  });
});

describe("outboundRequest: refused targets", () => {
  it("refuses the local test server by IP and by name, before connecting", async () => {
    const before = connections;
    for (const url of [`${base}/json`, `http://localhost:${port}/json`]) {
      const error = await failure(url, strict);
      expect(error).toMatchObject({ kind: "refused", retryable: false });
    }
    // For the name, the lookup hook refused it: the server never saw a TCP connection.
    expect(connections).toBe(before);
  });

  it.each([
    "http://[::1]:PORT/",
    "http://2130706433:PORT/",
    "http://0x7f000001:PORT/",
    "http://0x7f.1:PORT/",
    "http://127.1:PORT/",
    "http://0:PORT/",
    "http://[::ffff:127.0.0.1]:PORT/",
    "http://[::]:PORT/",
    "http://169.254.169.254/latest/meta-data",
    "http://10.0.0.1",
    "http://172.16.5.4",
    "http://192.168.1.1",
    "http://100.64.0.1",
    "http://100.100.100.200",
    "http://224.0.0.1",
    "http://255.255.255.255",
    "http://[fd00::1]",
    "http://[fd00:ec2::254]",
    "http://[fe80::1]",
    "http://[ff02::1]",
    "http://[64:ff9b::a9fe:a9fe]", // NAT64 of 169.254.169.254
    "http://[2002:7f00:1::]", // 6to4 of 127.0.0.1
  ])("refuses literal %s without opening a socket", async (template) => {
    const url = template.replace("PORT", String(port));
    let error: OutboundError | undefined;
    const sockets = await socketsOpenedBy(async () => {
      error = await failure(url, strict);
    });
    expect(error).toMatchObject({ kind: "refused", retryable: false });
    expect(sockets).toBe(0);
  });

  it("refuses the local server when the policy allows private networks but the check does not", async () => {
    const error = await failure(`${base}/json`, local, { isRefusedAddress: () => true });
    expect(error.kind).toBe("refused");
  });

  it.each(["ftp://example.com/", "file:///etc/passwd", "http://user:pw@127.0.0.1/"])("refuses %s", async (url) => {
    expect(await failure(url, local)).toMatchObject({ kind: "refused", retryable: false });
  });

  it("refuses http: when https is required, before any network", async () => {
    let error: OutboundError | undefined;
    const sockets = await socketsOpenedBy(async () => {
      error = await failure("http://example.com", { ...strict, requireHttps: true });
    });
    expect(error).toMatchObject({ kind: "refused", retryable: false });
    expect(sockets).toBe(0);
  });
});

describe("outboundRequest: allowed targets", () => {
  it("returns a 2xx response with its body and headers", async () => {
    const response = await outboundRequest({ url: `${base}/json` }, local);
    expect(response).toMatchObject({ status: 200, truncated: false, url: `${base}/json` });
    expect(response.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(response.body)).toEqual({ ok: true, method: "GET", body: "" });
    expect(response.durationMs).toBeGreaterThanOrEqual(0);
    expect(seen.at(-1)?.headers["user-agent"]).toBe("Atrium-Outbound/1");
  });

  it("sends method, headers and body, keeping a caller's User-Agent", async () => {
    const response = await outboundRequest(
      {
        url: `http://localhost:${port}/json`,
        method: "post",
        headers: { "Content-Type": "application/json", "User-Agent": "Custom/2" },
        body: '{"a":1}',
      },
      local,
    );
    expect(JSON.parse(response.body)).toEqual({ ok: true, method: "POST", body: '{"a":1}' });
    expect(seen.at(-1)?.headers["user-agent"]).toBe("Custom/2");
  });

  it.each([
    [500, true],
    [503, true],
    [429, true],
    [408, true],
    [404, false],
    [400, false],
  ])("turns %i into a status error (retryable: %s)", async (status, retryable) => {
    const error = await failure(`${base}/status?status=${status}`, local);
    expect(error).toMatchObject({ kind: "status", status, retryable });
  });

  it("reports a big error body as its status, not as too large", async () => {
    const error = await failure(`${base}/huge?status=502`, { ...local, maxResponseBytes: 1024 });
    expect(error).toMatchObject({ kind: "status", status: 502, retryable: true });
  });

  it("times out waiting for headers", async () => {
    const started = Date.now();
    const error = await failure(`${base}/slow-headers`, { ...local, timeoutMs: 200 });
    expect(error).toMatchObject({ kind: "timeout", retryable: true });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it("times out while reading the body", async () => {
    const error = await failure(`${base}/slow-body`, { ...local, timeoutMs: 200 });
    expect(error).toMatchObject({ kind: "timeout", retryable: true });
  });

  it("refuses a body over the cap", async () => {
    const error = await failure(`${base}/huge`, { ...local, maxResponseBytes: 1024 });
    expect(error).toMatchObject({ kind: "too_large", retryable: false });
  });

  it("reports a refused connection as a retryable network error", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(`http://127.0.0.1:${closedPort}/`, local);
    expect(error).toMatchObject({ kind: "network", retryable: true });
  });
});

describe("outboundRequest: redirects", () => {
  it("follows a chain of redirects and reports the final URL", async () => {
    const response = await outboundRequest({ url: `${base}/chain?n=2` }, local);
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${base}/json`);
  });

  it("stops after maxRedirects", async () => {
    const error = await failure(`${base}/chain?n=5`, local);
    expect(error).toMatchObject({ kind: "status", status: 302, retryable: false });
  });

  it("does not follow with maxRedirects 0", async () => {
    const error = await failure(`${base}/redirect`, { ...local, maxRedirects: 0 });
    expect(error).toMatchObject({ kind: "status", status: 302, retryable: false });
  });

  it("turns a POST into a GET without body on 303, and keeps it on 307", async () => {
    const post = { method: "POST", body: "payload", headers: { "content-type": "text/plain" } };
    const see = await outboundRequest({ url: `${base}/redirect?status=303&to=/json`, ...post }, local);
    expect(JSON.parse(see.body)).toMatchObject({ method: "GET", body: "" });
    expect(seen.at(-1)?.headers["content-type"]).toBeUndefined();

    const temporary = await outboundRequest({ url: `${base}/redirect?status=307&to=/json`, ...post }, local);
    expect(JSON.parse(temporary.body)).toMatchObject({ method: "POST", body: "payload" });
  });

  it("refuses a redirect to a refused address", async () => {
    // 127.0.0.1 stands for the public internet here, 127.0.0.2 for the private network behind it.
    const options = { isRefusedAddress: (address: string) => address !== "127.0.0.1" };
    const to = encodeURIComponent(`http://127.0.0.2:${port}/json`);
    const error = await failure(`${base}/redirect?to=${to}`, strict, options);
    expect(error).toMatchObject({ kind: "refused", retryable: false });

    // The same hop under a policy that allows it goes through to the (absent) listener on 127.0.0.2.
    const allowed = await failure(`${base}/redirect?to=${to}`, local);
    expect(allowed.kind).toBe("network");
  });

  it("refuses a redirect to a name that resolves to a refused address", async () => {
    // Loopback counts as public until the server has seen the first request, then as private: the second hop,
    // by name this time, must be refused by the DNS lookup check.
    const before = seen.length;
    const connectionsBefore = connections;
    const options = { isRefusedAddress: () => seen.length > before };
    const to = encodeURIComponent(`http://localhost:${port}/json`);
    const error = await failure(`${base}/redirect?to=${to}`, strict, options);
    expect(error).toMatchObject({ kind: "refused", retryable: false });
    expect(seen.length).toBe(before + 1);
    expect(connections).toBe(connectionsBefore + 1);
  });

  it("refuses a port outside the allowed ones, on the first hop and after a redirect, before connecting", async () => {
    const first = await socketsOpenedBy(async () => {
      const error = await failure(`${base}/json`, local, { ports: new Set([80, 443]) });
      expect(error).toMatchObject({ kind: "refused", retryable: false });
      expect(error.message).toBe(`Refused to connect to port ${port}: only ports 80, 443 are allowed`);
    });
    expect(first).toBe(0);

    // The server's own port is allowed; the redirect's target port is not.
    const before = seen.length;
    const to = encodeURIComponent(`http://127.0.0.1:${port + 1}/json`);
    const error = await failure(`${base}/redirect?to=${to}`, local, { ports: new Set([port]) });
    expect(error).toMatchObject({ kind: "refused", retryable: false });
    expect(seen.length).toBe(before + 1);
  });

  it("refuses a redirect to another scheme", async () => {
    const error = await failure(`${base}/redirect?to=${encodeURIComponent("file:///etc/passwd")}`, local);
    expect(error).toMatchObject({ kind: "refused", retryable: false });
  });

  it("drops credentials on a cross-origin redirect", async () => {
    const to = encodeURIComponent(`http://localhost:${port}/json`);
    await outboundRequest({ url: `${base}/redirect?to=${to}`, headers: { Authorization: "Bearer s3cret" } }, local);
    expect(seen.at(-2)?.headers.authorization).toBe("Bearer s3cret");
    expect(seen.at(-1)?.headers.authorization).toBeUndefined();
  });
});
