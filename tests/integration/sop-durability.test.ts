/**
 * Durable runs across a crash: the built server as `npm start` runs it, killed with SIGKILL (no shutdown
 * code runs), then another server on the same database. A run queued before the crash executes after the
 * restart; a run that was mid-step resumes once the dead runner's lease expires.
 */
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { Client, createWorkspace, signUp } from "../helpers/client";
import { freshDatabase, type TestDatabase } from "../helpers/database";
import { spawnBuiltServer, type ServerProcess } from "../helpers/process";
import { TEST_APP_KEY, startServer } from "../helpers/server";
import { consoleTrigger, createSop, startTarget, trigger, waitForRun } from "../helpers/sops";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

async function spawnServer(database: TestDatabase, env: Record<string, string>): Promise<ServerProcess> {
  const server = await spawnBuiltServer(database, {
    SEED_DEMO: "false",
    APP_KEY: TEST_APP_KEY,
    OUTBOUND_ALLOW_PRIVATE: "true",
    JOBS_POLL_MS: "50",
    ...env,
  });
  children.push(server.child);
  return server;
}

async function kill(child: ChildProcess) {
  child.kill("SIGKILL");
  if (child.exitCode === null && child.signalCode === null) await once(child, "exit");
}

describe("a SOP run and a crash", () => {
  it("runs after a restart when the server was killed with the run still queued", async () => {
    const database = await freshDatabase();
    const target = await startTarget();
    try {
      // A web-only node (JOBS_CONCURRENCY=0) takes the trigger; nothing runs it before the crash.
      const first = await spawnServer(database, { JOBS_CONCURRENCY: "0" });
      const { client } = await signUp(first.url, undefined, { mailbox: first.mailbox });
      await createWorkspace(client, "Crash", "crash-queued");
      const id = await createSop(client, {
        name: "Queued",
        slug: "queued",
        steps: [{ type: "http_request", method: "POST", url: `${target.url}/after-restart`, body: "{}" }],
      });
      const secret = await consoleTrigger(client, id);
      const accepted = await trigger(first.url, id, secret, { n: 1 });
      expect(accepted.status).toBe(202);
      const { statusUrl } = (await accepted.json()) as { statusUrl: string };
      expect(((await (await client.get(statusUrl)).json()) as { status: string }).status).toBe("queued");
      await kill(first.child);
      expect(target.received).toHaveLength(0);

      const second = await startServer({ OUTBOUND_ALLOW_PRIVATE: "true", JOBS_POLL_MS: "50" }, database);
      try {
        const again = new Client(second.url);
        again.setCookie("atrium_session", client.cookie("atrium_session")!);
        const done = await waitForRun(again, statusUrl);
        expect(done.status).toBe("succeeded");
        expect(target.received.map((r) => r.url)).toEqual(["/after-restart"]);
      } finally {
        await second.atrium.close();
      }
    } finally {
      await target.close();
      await database.drop();
    }
  });

  it("resumes a run whose runner died mid-step, once its lease expires, with the same idempotency key", async () => {
    const database = await freshDatabase();
    // The first call hangs (the runner is killed while waiting); later calls answer.
    const target = await startTarget((_request, count) => (count === 1 ? "hang" : { status: 200 }));
    try {
      const first = await spawnServer(database, { JOBS_LEASE_MS: "1000" });
      const { client } = await signUp(first.url, undefined, { mailbox: first.mailbox });
      await createWorkspace(client, "Crash", "crash-running");
      const id = await createSop(client, {
        name: "Mid-step",
        slug: "mid-step",
        steps: [
          { type: "set", assignments: "a = 1" },
          { type: "http_request", method: "POST", url: `${target.url}/slow`, body: "{}" },
        ],
      });
      const secret = await consoleTrigger(client, id);
      const { statusUrl } = (await (await trigger(first.url, id, secret, {})).json()) as { statusUrl: string };
      const deadline = Date.now() + 10_000;
      while (target.received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      expect(target.received).toHaveLength(1);
      await kill(first.child);

      const second = await startServer({ OUTBOUND_ALLOW_PRIVATE: "true", JOBS_POLL_MS: "50" }, database);
      try {
        const again = new Client(second.url);
        again.setCookie("atrium_session", client.cookie("atrium_session")!);
        const done = await waitForRun(again, statusUrl);
        expect(done.status, JSON.stringify(done)).toBe("succeeded");
        expect(done.attempts).toBe(2);
        expect(done.steps.map((s) => s.status)).toEqual(["succeeded", "succeeded"]);
        expect(target.received).toHaveLength(2);
        const [before, after] = target.received.map((r) => r.headers["idempotency-key"]);
        expect(after).toBe(before);
      } finally {
        await second.atrium.close();
      }
    } finally {
      await target.close();
      await database.drop();
    }
  });
});
