/**
 * Suspending an account stops the workspaces it owns (issue 12, item 7), through the module function the CLI's
 * `users:suspend` calls: signed triggers answer the spec's 403, unfinished runs and unsent completion notices
 * are cancelled (kept, with the reason) and none of their steps happen, a run in flight stops at its next step,
 * and the public site shows a neutral "unavailable" page. Undoing lets triggers and the site back in; what was
 * cancelled stays cancelled.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setStatus } from "~/modules/accounts/users.server";
import { Client, PASSWORD, createWorkspace, signUp } from "../helpers/client";
import { freshDatabase, type TestDatabase } from "../helpers/database";
import { startServer, type TestServer } from "../helpers/server";
import { consoleTrigger, createSop, startTarget, trigger, waitForRun, type StepFields } from "../helpers/sops";

const FAST_JOBS = { JOBS_POLL_MS: "50", JOBS_RETRY_BASE_MS: "20", OUTBOUND_ALLOW_PRIVATE: "true" };
const FORBIDDEN = { error: "Forbidden", message: "Insufficient permissions", statusCode: 403 };

let target: Awaited<ReturnType<typeof startTarget>>;
/** Requests to /hold wait until the test lets them go. */
let letGo: () => void = () => undefined;
let held = new Promise<void>((resolve) => (letGo = resolve));

beforeAll(async () => {
  target = await startTarget(async (request) => {
    if (request.url.startsWith("/hold")) await held;
    if (request.url.startsWith("/unavailable")) return { status: 503 };
    return { status: 200 };
  });
});
afterAll(async () => {
  letGo();
  await target.close();
});

let counter = 0;
const slug = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;
const hits = (path: string) => target.received.filter((r) => r.url.startsWith(path)).length;

async function owner(server: TestServer) {
  const { client, email } = await signUp(server.url);
  const site = slug("ws");
  await createWorkspace(client, `Shop ${site}`, site);
  return { client, email, site };
}

async function sopWithTrigger(client: Client, steps: StepFields[], callbackUrl?: string) {
  const id = await createSop(client, { name: "Stopped", slug: slug("sop"), steps, callbackUrl });
  return { id, secret: await consoleTrigger(client, id) };
}

const runRow = (server: TestServer, runId: string) =>
  server.db.selectFrom("sop_runs").selectAll().where("id", "=", runId).executeTakeFirstOrThrow();

/** Jobs still to do (or in hand) on the database: the runner has finished with everything once it is 0. */
const unfinishedJobs = async (server: TestServer) =>
  (await server.db.selectFrom("jobs").select("id").where("status", "in", ["queued", "running"]).execute()).length;

const mailOf = (server: TestServer, to: string) =>
  server.db.selectFrom("mail_messages").select("id").where("to_address", "=", to).execute();

describe("a suspended owner's triggers", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ ...FAST_JOBS });
  });
  afterAll(() => server.close());

  it("answer a signed request with the spec's 403, an unsigned one still with its 401, and 202 again after undo", async () => {
    const { client, email } = await owner(server);
    const sop = await sopWithTrigger(client, [{ type: "set", assignments: "x = 1" }]);
    expect((await trigger(server.url, sop.id, sop.secret, { n: 1 })).status).toBe(202);

    await setStatus(server.db, email, "suspended");
    const refused = await trigger(server.url, sop.id, sop.secret, { n: 2 });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual(FORBIDDEN);
    // Only an authentic request learns the account's state.
    const forged = await trigger(server.url, sop.id, "sops_wrong", { n: 3 });
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { message: string }).message).toBe("Invalid signature");
    const runs = await server.db.selectFrom("sop_runs").select("id").where("sop_id", "=", sop.id).execute();
    expect(runs).toHaveLength(1);

    await setStatus(server.db, email, "active");
    const again = await trigger(server.url, sop.id, sop.secret, { n: 4 });
    expect(again.status).toBe(202);
  });
});

describe("a suspended owner's runs and notices", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(() => database.drop());

  it("cancels queued runs with the suspension, performs none of their steps, and leaves them cancelled after undo", async () => {
    // A web-only node takes the trigger: the run stays queued until a runner starts.
    const web = await startServer({ ...FAST_JOBS, JOBS_CONCURRENCY: "0" }, database);
    let account: Awaited<ReturnType<typeof owner>>;
    let sop: Awaited<ReturnType<typeof sopWithTrigger>>;
    let runId: string;
    const to = `queued-${process.pid}@example.com`;
    try {
      account = await owner(web);
      sop = await sopWithTrigger(account.client, [
        { type: "http_request", method: "GET", url: `${target.url}/queued` },
        { type: "send_email", to, subject: "never", body: "never" },
      ]);
      const accepted = await trigger(web.url, sop.id, sop.secret, { n: 1 });
      expect(accepted.status).toBe(202);
      runId = ((await accepted.json()) as { runId: string }).runId;

      const suspended = await setStatus(web.db, account.email, "suspended");
      expect(suspended.cancelledRuns).toBe(1);
      const run = await runRow(web, runId);
      expect(run.status).toBe("cancelled");
      expect(run.error).toMatch(/suspended/);
      expect(run.finished_at).not.toBeNull();
    } finally {
      await web.atrium.close();
    }

    const worker = await startServer({ ...FAST_JOBS }, database);
    try {
      await expect.poll(() => unfinishedJobs(worker), { timeout: 15_000 }).toBe(0);
      expect(hits("/queued")).toBe(0);
      expect(await mailOf(worker, to)).toEqual([]);
      expect((await runRow(worker, runId)).status).toBe("cancelled");

      // Undo: the trigger works again, and the cancelled run stays cancelled (an operator re-runs it).
      await setStatus(worker.db, account.email, "active");
      const again = await trigger(worker.url, sop.id, sop.secret, { n: 2 });
      expect(again.status).toBe(202);
      const client = new Client(worker.url);
      expect((await client.post("/login", { email: account.email, password: PASSWORD })).status).toBe(302);
      const done = await waitForRun(client, ((await again.json()) as { statusUrl: string }).statusUrl);
      expect(done.status).toBe("succeeded");
      expect(hits("/queued")).toBe(1);
      expect((await runRow(worker, runId)).status).toBe("cancelled");

      // The console's runs list shows the cancelled run and why.
      const { workspace_id } = await runRow(worker, runId);
      expect((await client.post("/?index", { intent: "select", workspaceId: workspace_id })).status).toBe(302);
      const page = await (await client.get(`/settings/sops/${sop.id}`)).text();
      expect(page).toContain(`data-run-id="${runId}" data-status="cancelled"`);
      expect(page).toContain("the account that owns this workspace was suspended");
      const view = (await (await client.get(`/api/sops/${sop.id}/runs/${runId}`)).json()) as { status: string };
      expect(view.status).toBe("cancelled");
    } finally {
      await worker.atrium.close();
    }
  });

  it("stops a run in flight at its next step: the step under way is recorded, the next never happens", async () => {
    const server = await startServer({ ...FAST_JOBS }, database);
    try {
      const account = await owner(server);
      const to = `in-flight-${process.pid}@example.com`;
      const sop = await sopWithTrigger(account.client, [
        { type: "http_request", method: "GET", url: `${target.url}/hold` },
        { type: "send_email", to, subject: "never", body: "never" },
      ]);
      const { runId } = (await (await trigger(server.url, sop.id, sop.secret, {})).json()) as { runId: string };
      await expect.poll(() => hits("/hold"), { timeout: 15_000 }).toBe(1);

      await setStatus(server.db, account.email, "suspended");
      letGo();
      await expect.poll(() => unfinishedJobs(server), { timeout: 15_000 }).toBe(0);

      const run = await runRow(server, runId);
      expect(run.status).toBe("cancelled");
      expect(JSON.parse(run.steps)).toEqual([expect.objectContaining({ index: 0, status: "succeeded" })]);
      expect(await mailOf(server, to)).toEqual([]);
      // A cancelled run sends no completion notice either.
      expect(
        await server.db.selectFrom("webhook_deliveries").select("id").where("run_id", "=", runId).execute(),
      ).toEqual([]);
    } finally {
      held = new Promise<void>((resolve) => (letGo = resolve));
      await server.atrium.close();
    }
  });

  it("cancels a completion notice waiting for its retry, which is then never sent", async () => {
    // Retries far apart, so the notice is pending between its first and second attempt when suspended.
    const server = await startServer({ ...FAST_JOBS, JOBS_RETRY_BASE_MS: "600000" }, database);
    try {
      const account = await owner(server);
      const sop = await sopWithTrigger(
        account.client,
        [{ type: "set", assignments: "x = 1" }],
        `${target.url}/unavailable`,
      );
      await trigger(server.url, sop.id, sop.secret, {});
      const pending = () =>
        server.db
          .selectFrom("webhook_deliveries")
          .select(["id", "status", "attempts"])
          .where("sop_id", "=", sop.id)
          .executeTakeFirst();
      await expect.poll(async () => (await pending())?.attempts, { timeout: 15_000 }).toBe(1);
      expect((await pending())?.status).toBe("pending");

      await setStatus(server.db, account.email, "suspended");
      expect((await pending())?.status).toBe("cancelled");
      // Its retry comes due now; the runner finds nothing to send.
      await server.db
        .updateTable("jobs")
        .set({ run_at: new Date(Date.now() - 1000).toISOString() })
        .where("kind", "=", "sop.completion")
        .where("status", "=", "queued")
        .execute();
      await expect.poll(() => unfinishedJobs(server), { timeout: 15_000 }).toBe(0);
      expect(hits("/unavailable")).toBe(1);
      expect((await pending())?.status).toBe("cancelled");
    } finally {
      await server.atrium.close();
    }
  });
});

describe("a suspended owner's public site", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ JOBS_CONCURRENCY: "0" });
  });
  afterAll(() => server.close());

  it("is a neutral, uncached 503 page until the suspension is undone", async () => {
    const { email, site } = await owner(server);
    const open = await fetch(`${server.url}/${site}`);
    expect(open.status).toBe(200);
    expect(await open.text()).toContain(`Shop ${site}`);

    await setStatus(server.db, email, "suspended");
    for (const path of [`/${site}`, `/${site}/`]) {
      const closed = await fetch(`${server.url}${path}`);
      expect(closed.status, path).toBe(503);
      expect(closed.headers.get("cache-control"), path).toBe("no-store");
      const html = await closed.text();
      expect(html).toContain("This site is unavailable");
      // Nothing about the workspace or its account.
      expect(html).not.toContain(`Shop ${site}`);
      expect(html).not.toContain(email);
      expect(html).not.toMatch(/suspend/i);
    }

    await setStatus(server.db, email, "active");
    const back = await fetch(`${server.url}/${site}`);
    expect(back.status).toBe(200);
    expect(await back.text()).toContain(`Shop ${site}`);
  });
});
