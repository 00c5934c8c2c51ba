/**
 * Concurrent rotations and lost responses (issue 12, item 9), over HTTP on this dialect: of rotations under way
 * at once, one wins and the others are refused with 409, so no caller holds a secret that another concurrent
 * rotation silently replaced; and an identical copy of an accepted trigger request is answered with the run the
 * first one queued (Stripe's idempotent replay), while a tampered copy or a copy of a refused request is still
 * refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setTestClock } from "~/lib/clock.server";
import { createWorkspace, signUp, type Client } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { consoleTrigger, createSop, sign, trigger } from "../helpers/sops";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ JOBS_CONCURRENCY: "0", API_AUTH_FAILURES_PER_MINUTE: "10000" });
});
afterAll(() => server.close());

let counter = 0;
const slug = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

async function sopWithTrigger() {
  const { client } = await signUp(server.url);
  await createWorkspace(client, "Rotations", slug("ws"));
  const id = await createSop(client, {
    name: "Rotated",
    slug: slug("sop"),
    steps: [{ type: "set", assignments: "x = 1" }],
  });
  const secret = await consoleTrigger(client, id);
  const { id: triggerId } = await server.db
    .selectFrom("sop_triggers")
    .select("id")
    .where("sop_id", "=", id)
    .executeTakeFirstOrThrow();
  return { client, id, secret, triggerId };
}

const rotate = (client: Client, sopId: string, triggerId: string) =>
  client.request(`/api/sops/${sopId}/triggers/${triggerId}/rotate`, {
    method: "POST",
    headers: { origin: server.url },
  });

const runsOf = async (sopId: string) =>
  (await server.db.selectFrom("sop_runs").select("id").where("sop_id", "=", sopId).execute()).map((r) => r.id);

/**
 * Holds every read of `sop_triggers` made through the running server's database handle, once it has its rows,
 * until `count` reads have been made, then lets them all go on: `count` rotations sent at once have then all
 * read the secret in force before any of them writes, whatever order the server happens to handle them in. No
 * clock is touched, and the wait is for an event, not for time. (Held outside the query: a Kysely plugin's
 * `transformResult` runs while SQLite's one connection is still taken.) A transaction begun through the handle
 * opens the gate too, so a server that writes without reading first is tested instead of waited for.
 */
function holdTriggerReads(count: number) {
  const services = server.atrium.runtime.services;
  const original = services.db;
  let read = 0;
  let release!: () => void;
  const allRead = new Promise<void>((resolve) => (release = resolve));
  const held = async () => {
    if (++read > count) return;
    if (read === count) release();
    await allRead;
  };
  // Forward every call to `target` itself (Kysely keeps its state in private fields); wrap the builders that
  // read `sop_triggers` so that running them waits at the gate once their rows are in.
  type Method = (...args: unknown[]) => unknown;
  const forward = <T extends object>(target: T, wrap: (name: PropertyKey, value: Method) => unknown): T =>
    new Proxy(target, {
      get(object, name) {
        const value: unknown = Reflect.get(object, name, object);
        return typeof value === "function" ? wrap(name, (value as Method).bind(object)) : value;
      },
    });
  const gated = <T extends object>(builder: T): T =>
    forward(builder, (name, method) =>
      String(name).startsWith("execute")
        ? async (...args: unknown[]) => {
            const rows: unknown = await method(...args);
            await held();
            return rows;
          }
        : (...args: unknown[]) => {
            const next: unknown = method(...args);
            return typeof next === "object" && next !== null && "executeTakeFirst" in next ? gated(next) : next;
          },
    );
  services.db = forward(original, (name, method) =>
    name === "selectFrom"
      ? (table: unknown) => (table === "sop_triggers" ? gated(method(table) as object) : method(table))
      : name === "transaction"
        ? () => (release(), method())
        : method,
  );
  return () => (services.db = original);
}

describe("concurrent rotations of one trigger", () => {
  it("let one win; the others get 409, and the one secret returned is the one that works", async () => {
    const sop = await sopWithTrigger();
    // Real rotations, each reading the secret in force before it writes. Before, they compared the secret's age
    // with their own start on the wall clock, which nodes disagreeing about the time get wrong.
    const restore = holdTriggerReads(5);
    let responses: Response[];
    try {
      responses = await Promise.all(Array.from({ length: 5 }, () => rotate(sop.client, sop.id, sop.triggerId)));
    } finally {
      restore();
    }
    const bodies = await Promise.all(responses.map((r) => r.json() as Promise<Record<string, unknown>>));

    const won = bodies.filter((_, i) => responses[i]!.status === 200);
    const lost = bodies.filter((_, i) => responses[i]!.status === 409);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(4);
    for (const body of lost) {
      expect(body).toEqual({ error: "Conflict", message: expect.stringMatching(/Another rotation/), statusCode: 409 });
    }
    const secret = won[0]!.secret as string;
    expect((await trigger(server.url, sop.id, secret, { n: 1 })).status).toBe(202);
    expect((await trigger(server.url, sop.id, sop.secret, { n: 2 })).status).toBe(401);
    // One rotation, one audit event.
    const events = await server.db
      .selectFrom("audit_events")
      .select("id")
      .where("action", "=", "sop.trigger.rotated")
      .where("detail", "like", `%${sop.triggerId}%`)
      .execute();
    expect(events).toHaveLength(1);

    // A rotation that reads the secret that one returned is not concurrent with it: it wins, and its secret works.
    const later = await rotate(sop.client, sop.id, sop.triggerId);
    expect(later.status).toBe(200);
    const next = ((await later.json()) as { secret: string }).secret;
    expect((await trigger(server.url, sop.id, next, { n: 3 })).status).toBe(202);
    expect((await trigger(server.url, sop.id, secret, { n: 4 })).status).toBe(401);
  });

  it("are refused by the secret they read, not by the clock: a rotation begun in the past still wins", async () => {
    const sop = await sopWithTrigger();
    // Before, a node whose clock was behind the secret's creation refused every rotation with a false 409.
    setTestClock(() => new Date(Date.now() - 60 * 60_000));
    try {
      expect((await rotate(sop.client, sop.id, sop.triggerId)).status).toBe(200);
    } finally {
      setTestClock(undefined);
    }
  });

  it("still answers 404 for another trigger id", async () => {
    const sop = await sopWithTrigger();
    expect((await rotate(sop.client, sop.id, "NOPE")).status).toBe(404);
  });
});

describe("a trigger request sent again", () => {
  const body = JSON.stringify({ input: { order: 42 } });
  const post = (ref: string, headers: Record<string, string>, sent = body) =>
    fetch(`${server.url}/api/sops/${ref}/trigger`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: sent,
    });

  it("is answered with the run the first one queued, and queues no second run", async () => {
    const sop = await sopWithTrigger();
    const headers = sign(sop.secret, body);
    const first = await post(sop.id, headers);
    expect(first.status).toBe(202);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const accepted = (await first.json()) as { runId: string };

    // The response was lost; the client sends the very same bytes again.
    const again = await post(sop.id, headers);
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(accepted);
    expect(await runsOf(sop.id)).toEqual([accepted.runId]);
  });

  it("answers copies racing each other with one run", async () => {
    const sop = await sopWithTrigger();
    const headers = sign(sop.secret, body);
    const responses = await Promise.all(Array.from({ length: 5 }, () => post(sop.id, headers)));
    expect(responses.map((r) => r.status)).toEqual([202, 202, 202, 202, 202]);
    const runIds = new Set(
      await Promise.all(responses.map(async (r) => ((await r.json()) as { runId: string }).runId)),
    );
    expect(runIds.size).toBe(1);
    expect(await runsOf(sop.id)).toEqual([...runIds]);
    expect(responses.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(4);
  });

  it("is refused when its body was altered, or when the first one was refused", async () => {
    const sop = await sopWithTrigger();
    const headers = sign(sop.secret, body);
    expect((await post(sop.id, headers)).status).toBe(202);
    const tampered = await post(sop.id, headers, JSON.stringify({ input: { order: 43 } }));
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toEqual({ error: "Unauthorized", message: "Invalid signature", statusCode: 401 });

    // A request refused for its body is refused again, for the same reason, and queues nothing.
    const bad = JSON.stringify({ input: { order: 44 }, extra: true });
    const badHeaders = sign(sop.secret, bad);
    expect((await post(sop.id, badHeaders, bad)).status).toBe(400);
    expect((await post(sop.id, badHeaders, bad)).status).toBe(400);
    expect(await runsOf(sop.id)).toHaveLength(1);
  });
});
