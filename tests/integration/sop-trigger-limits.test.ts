/**
 * The SOP trigger's per-tier limits over real HTTP (ADR 010, "Limits"): each trigger's rate limit (429 with
 * the error contract, Retry-After and X-RateLimit-*), checked only for authentic first-seen requests, and the
 * cap on a workspace's queued runs. The job runner is off (JOBS_CONCURRENCY=0), so accepted runs stay queued.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setTestClock } from "~/lib/clock.server";
import { setTier } from "~/modules/accounts/users.server";
import { createWorkspace, signUp } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { consoleTrigger, createSop, sign, trigger } from "../helpers/sops";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ JOBS_CONCURRENCY: "0", API_AUTH_FAILURES_PER_MINUTE: "10000" });
});
afterAll(async () => {
  await server.close();
});
afterEach(() => setTestClock(undefined));

let counter = 0;
const slug = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

/** A new operator (Free) with a workspace and `count` SOPs, each with its trigger. */
async function workspaceWithSops(count = 1) {
  const { client, email } = await signUp(server.url);
  await createWorkspace(client, "Limits", slug("limits"));
  const sops: { id: string; secret: string }[] = [];
  for (let i = 0; i < count; i++) {
    const id = await createSop(client, { name: `Limited ${i}`, slug: slug("limited") });
    sops.push({ id, secret: await consoleTrigger(client, id) });
  }
  return { email, sops };
}

/** Each request signs a different body: the same body signed in the same second would be a replay. */
let sent = 0;
const send = (sop: { id: string; secret: string }) => trigger(server.url, sop.id, sop.secret, { n: ++sent });

async function triggerMany(sop: { id: string; secret: string }, count: number) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await send(sop)).status);
  return statuses;
}

const rateHeaders = (response: Response) => ({
  limit: response.headers.get("x-ratelimit-limit"),
  remaining: response.headers.get("x-ratelimit-remaining"),
  reset: response.headers.get("x-ratelimit-reset"),
});

describe("a SOP trigger's rate limit", () => {
  it("admits the Free plan's 60 a minute, then answers 429 with the contract, Retry-After and the rate-limit headers", async () => {
    const { sops } = await workspaceWithSops();
    const sop = sops[0]!;
    const first = await send(sop);
    expect(first.status).toBe(202);
    const headers = rateHeaders(first);
    expect(headers).toMatchObject({ limit: "1000", remaining: "999" });
    expect(Number(headers.reset)).toBeGreaterThan(Date.now() / 1000);
    expect(await triggerMany(sop, 59)).toEqual(Array(59).fill(202));

    const refused = await send(sop);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ error: "Too Many Requests", statusCode: 429 });
    expect(body.message).toMatch(/trigger's rate limit/);
    expect(body.retryAfter).toBeGreaterThanOrEqual(1);
    expect(body.retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get("retry-after")).toBe(String(body.retryAfter));
    // The refused request was not counted.
    expect(rateHeaders(refused)).toMatchObject({ limit: "1000", remaining: "940", reset: headers.reset });
  });

  it("does not use up a refused request's signature: the same request is accepted once the minute has passed", async () => {
    const { sops } = await workspaceWithSops();
    const sop = sops[0]!;
    expect(await triggerMany(sop, 60)).toEqual(Array(60).fill(202));
    const body = JSON.stringify({ input: { again: true } });
    const again = () =>
      fetch(`${server.url}/api/sops/${sop.id}/trigger`, {
        method: "POST",
        headers: { "content-type": "application/json", ...signed },
        body,
      });
    const signed = sign(sop.secret, body);
    expect((await again()).status).toBe(429);
    const later = Date.now() + 61_000;
    setTestClock(() => new Date(later));
    const accepted = await again();
    expect(accepted.status).toBe(202);
    expect(rateHeaders(accepted).remaining).toBe("939");
    // Now it is used: the same bytes again are answered with the same run, and spend nothing.
    const copy = await again();
    expect(copy.status).toBe(202);
    expect(copy.headers.get("idempotent-replayed")).toBe("true");
    expect(((await copy.json()) as { runId: string }).runId).toBe(((await accepted.json()) as { runId: string }).runId);
    expect(copy.headers.get("x-ratelimit-remaining")).toBeNull();
  });

  it("spends nothing of the budget on unsigned, badly signed or replayed requests", async () => {
    const { sops } = await workspaceWithSops();
    const sop = sops[0]!;
    const body = JSON.stringify({ input: {} });
    const signed = sign(sop.secret, body);
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}/api/sops/${sop.id}/trigger`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      });
    expect((await post(signed)).status).toBe(202);
    for (let i = 0; i < 70; i++) {
      const answer = await post(i % 3 === 0 ? {} : i % 3 === 1 ? sign("sops_wrong", body) : signed);
      // A copy of the accepted request is answered with its run (idempotent replay); the others are refused.
      expect(answer.status).toBe(i % 3 === 2 ? 202 : 401);
      expect(answer.headers.get("x-ratelimit-remaining")).toBeNull();
    }
    const next = await send(sop);
    expect(next.status).toBe(202);
    expect(rateHeaders(next).remaining).toBe("998");
  });

  it("is counted per trigger, and follows the owner's plan", async () => {
    const { email, sops } = await workspaceWithSops(2);
    expect(await triggerMany(sops[0]!, 60)).toEqual(Array(60).fill(202));
    expect((await send(sops[0]!)).status).toBe(429);
    // Another trigger of the same workspace has its own allowance.
    expect((await send(sops[1]!)).status).toBe(202);
    await setTier(server.db, email, "pro");
    const pro = await send(sops[0]!);
    expect(pro.status).toBe(202);
    expect(rateHeaders(pro)).toMatchObject({ limit: "10000", remaining: "9939" });
    // Enterprise triggers are not rate-limited: no window is counted or shown.
    await setTier(server.db, email, "enterprise");
    const enterprise = await send(sops[0]!);
    expect(enterprise.status).toBe(202);
    expect(enterprise.headers.get("x-ratelimit-limit")).toBeNull();
  });
});

describe("the cap on a workspace's queued runs", () => {
  it("refuses a Free workspace's 101st queued run with 429, saying the queue is full, whichever trigger", async () => {
    const { email, sops } = await workspaceWithSops(3);
    expect(await triggerMany(sops[0]!, 50)).toEqual(Array(50).fill(202));
    expect(await triggerMany(sops[1]!, 50)).toEqual(Array(50).fill(202));

    const full = await send(sops[2]!);
    expect(full.status).toBe(429);
    const body = (await full.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ error: "Too Many Requests", statusCode: 429, retryAfter: 60 });
    expect(body.message).toMatch(/run queue is full/);
    expect(full.headers.get("retry-after")).toBe("60");
    // The refused request is not counted against its trigger.
    expect(rateHeaders(full)).toMatchObject({ limit: "1000", remaining: "1000" });

    // A queue that drains admits runs again (runs leave "queued" as a runner takes them), up to the cap.
    await server.db.updateTable("sop_runs").set({ status: "succeeded" }).where("sop_id", "=", sops[0]!.id).execute();
    expect(await triggerMany(sops[2]!, 51)).toEqual([...Array(50).fill(202), 429]);
    // A higher plan queues more: Pro holds 1,000.
    await setTier(server.db, email, "pro");
    expect((await send(sops[2]!)).status).toBe(202);
  });
});
