/** The built server as `npm start` runs it: starts, answers, and stops cleanly on SIGTERM. */
import { once } from "node:events";
import { existsSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { sqlitePath } from "~db/client";
import { freshDatabase } from "../helpers/database";
import { spawnBuiltServer, type ServerProcess } from "../helpers/process";
import { exchange } from "../helpers/raw-http";

/** Resolves once `condition` holds (checked every 20 ms). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The exit code, or "still running" if the process has not exited after `ms` (then it is killed). */
async function exitWithin(server: ServerProcess, ms: number): Promise<number | string> {
  const { child } = server;
  if (child.exitCode !== null) return child.exitCode;
  const timer = setTimeout(() => child.kill("SIGKILL"), ms);
  const [code, signal] = (await once(child, "exit")) as [number | null, string | null];
  clearTimeout(timer);
  return code ?? `still running (killed by ${signal})`;
}

async function connected(url: string): Promise<Socket> {
  const { port, hostname } = new URL(url);
  const socket = connect(Number(port), hostname);
  await once(socket, "connect");
  return socket;
}

describe("the built server process", () => {
  it("serves /api/health, then drains and exits 0 on SIGTERM", async () => {
    const database = await freshDatabase();
    const { url, child, output } = await spawnBuiltServer(database, { SEED_DEMO: "true", LOG_LEVEL: "info" });
    try {
      // The start-up banner is one JSON record on a pipe, the demo's sign-in among its fields.
      expect(output()).toContain('"demo":{"email":"demo@atrium.test","password":"atrium-demo-password"');
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
      expect((await fetch(`${url}/harbor-bakery`)).status).toBe(200);
      child.kill("SIGTERM");
      const [code] = (await once(child, "exit")) as [number];
      expect(code).toBe(0);
      expect(output()).toContain('"msg":"stopped"');
    } finally {
      child.kill("SIGKILL");
      await database.drop();
    }
  });

  it("on SIGTERM answers what it accepted, and what arrives on open connections, with Connection: close", async () => {
    const database = await freshDatabase();
    const server = await spawnBuiltServer(database, { LOG_LEVEL: "info" });
    const { url, child, output } = server;
    const host = new URL(url).host;
    const sockets: Socket[] = [];
    try {
      // A sign-in whose body is half sent when the signal comes: accepted, in flight.
      const inFlight = await connected(url);
      const form = "email=nobody%40example.test&password=wrong-password";
      inFlight.write(
        `POST /login HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
          `Content-Length: ${form.length}\r\n\r\n${form.slice(0, 10)}`,
      );
      // A kept-alive connection that has been answered once, and one that has not sent anything yet.
      const keptAlive = await connected(url);
      expect((await exchange(keptAlive, host, "/api/health", { method: "GET" })).status).toBe(200);
      const fresh = await connected(url);
      sockets.push(inFlight, keptAlive, fresh);

      child.kill("SIGTERM");
      await until(() => output().includes("shutting down"));

      // New connections are refused (the port is closed), not accepted and then reset.
      const refused = connect(Number(new URL(url).port), new URL(url).hostname);
      const [error] = (await once(refused, "error")) as [NodeJS.ErrnoException];
      expect(error.code).toBe("ECONNREFUSED");

      for (const socket of [keptAlive, fresh]) {
        const answer = await exchange(socket, host, "/api/health", { method: "GET" });
        expect(answer.status).toBe(200);
        expect(answer.headers.connection).toBe("close");
      }

      const answered = new Promise<string>((resolve, reject) => {
        let text = "";
        inFlight.on("data", (chunk: Buffer) => (text += chunk.toString()));
        inFlight.on("end", () => resolve(text));
        inFlight.on("error", reject);
      });
      inFlight.write(form.slice(10));
      const response = await answered;
      expect(response).toMatch(/^HTTP\/1\.1 \d{3} /);
      expect(response.toLowerCase()).toContain("connection: close");
      expect(response).toContain("</html>");

      expect(await exitWithin(server, 15_000)).toBe(0);
      expect(output()).toContain('"msg":"stopped"');
    } finally {
      for (const socket of sockets) socket.destroy();
      child.kill("SIGKILL");
      await database.drop();
    }
  });

  it("exits on SIGTERM even when the reader of its stdout has gone away", async () => {
    const database = await freshDatabase();
    const server = await spawnBuiltServer(database, { LOG_LEVEL: "info", SHUTDOWN_TIMEOUT_MS: "2000" });
    const { url, child } = server;
    try {
      for (let i = 0; i < 5; i++) await fetch(`${url}/api/health`);
      // The parent stops reading its logs (a closed pipe: every write to stdout fails with EPIPE) just
      // before it asks the server to stop, so the lines of the shutdown are the first that cannot be written.
      child.stdout.destroy();
      child.kill("SIGTERM");
      expect(await exitWithin(server, 20_000)).toEqual(expect.any(Number));
    } finally {
      child.kill("SIGKILL");
      await database.drop();
    }
  });

  it("closes the runtime, not only the port, when a request never finishes", async () => {
    const database = await freshDatabase();
    const server = await spawnBuiltServer(database, { LOG_LEVEL: "info", SHUTDOWN_TIMEOUT_MS: "3000" });
    const { url, child, output } = server;
    const stalled = await connected(url);
    try {
      // A body that never comes: the request stays in flight until the HTTP side gives up on it.
      stalled.on("error", () => undefined);
      stalled.write(
        `POST /login HTTP/1.1\r\nHost: ${new URL(url).host}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
          "Content-Length: 100\r\n\r\nemail=",
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      child.kill("SIGTERM");
      // The HTTP side cuts the connection before the hard exit, so the runtime closes: exit 0, "stopped".
      expect(await exitWithin(server, 20_000)).toBe(0);
      expect(output()).toContain("shutdown: connections still open at the HTTP deadline are cut");
      expect(output()).toContain('"msg":"stopped"');
      expect(output()).not.toContain("shutdown did not finish within SHUTDOWN_TIMEOUT_MS");
      // SQLite folds its write-ahead log back and deletes it only when the last connection closes cleanly.
      if (database.dialect === "sqlite") expect(existsSync(`${sqlitePath(database.url)}-wal`)).toBe(false);
    } finally {
      stalled.destroy();
      child.kill("SIGKILL");
      await database.drop();
    }
  });

  it("drops a refused upload it is still draining when SIGTERM comes, instead of waiting for it", async () => {
    const database = await freshDatabase();
    const server = await spawnBuiltServer(database, { LOG_LEVEL: "info", SHUTDOWN_TIMEOUT_MS: "3000" });
    const { url, child, output } = server;
    const upload = await connected(url);
    try {
      upload.on("error", () => undefined);
      // Dropped with unread bytes, so the client may see a reset: only that it ends matters.
      const closed = new Promise((resolve) => upload.once("close", resolve));
      // 5 MB declared, 256 KB sent: refused with 413 at once, then drained while the client stalls.
      const answered = new Promise<string>((resolve) => {
        let text = "";
        upload.on("data", (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes("\r\n\r\n") && text.includes("}")) resolve(text);
        });
      });
      upload.write(
        `POST /api/health HTTP/1.1\r\nHost: ${new URL(url).host}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${5 * 1024 * 1024}\r\n\r\n${"x".repeat(256 * 1024)}`,
      );
      expect(await answered).toMatch(/^HTTP\/1\.1 413 /);
      child.kill("SIGTERM");
      await closed;
      expect(await exitWithin(server, 20_000)).toBe(0);
      expect(output()).toContain('"msg":"stopped"');
      // Dropped when the shutdown started, not cut at its deadline.
      expect(output()).not.toContain("connections still open at the HTTP deadline");
    } finally {
      upload.destroy();
      child.kill("SIGKILL");
      await database.drop();
    }
  });
});
