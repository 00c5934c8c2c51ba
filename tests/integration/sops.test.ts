/**
 * SOPs end to end over real HTTP and a real database: console-made SOPs and triggers, the trigger endpoint's
 * every refusal, rotation, runs with retries, completion notices, tenancy, and the README's example.
 */
import { execFile } from "node:child_process";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setTestClock } from "~/lib/clock.server";
import { triggerBinding } from "~/modules/sops/sop-triggers.server";
import { Client, addMember, createWorkspace, signUp, uniqueEmail } from "../helpers/client";
import { freshDatabase } from "../helpers/database";
import { startServer, type TestServer } from "../helpers/server";
import {
  consoleTrigger,
  createSop,
  saveSop,
  sign,
  startTarget,
  trigger,
  waitForRun,
  type RunBody,
  type StepFields,
} from "../helpers/sops";

const run = promisify(execFile);

let server: TestServer;
let target: Awaited<ReturnType<typeof startTarget>>;
const FAST_JOBS = { JOBS_POLL_MS: "50", JOBS_RETRY_BASE_MS: "20", OUTBOUND_ALLOW_PRIVATE: "true" };

beforeAll(async () => {
  server = await startServer({ ...FAST_JOBS, API_AUTH_FAILURES_PER_MINUTE: "10000" });
  target = await startTarget((request) => {
    if (request.url.startsWith("/status/")) return { status: Number(request.url.split("/")[2]) };
    return { status: 200, body: JSON.stringify({ echo: request.body ? JSON.parse(request.body) : null }) };
  });
});
afterAll(async () => {
  await target.close();
  await server.close();
});

let counter = 0;
const slug = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

async function operator(workspaceSlug = slug("ws")) {
  const { client, email } = await signUp(server.url);
  await createWorkspace(client, `Workspace ${workspaceSlug}`, workspaceSlug);
  return { client, email };
}

async function sopWithTrigger(
  client: Client,
  steps: StepFields[] = [{ type: "set", assignments: 'greeting = "hi " + input.name' }],
) {
  const sopSlug = slug("sop");
  const id = await createSop(client, { name: "Greeter", slug: sopSlug, steps });
  const secret = await consoleTrigger(client, id);
  return { id, slug: sopSlug, secret };
}

const UNAUTHORIZED = (message: string) => ({ error: "Unauthorized", message, statusCode: 401 });

describe("a SOP made in the console and triggered with a signed request", () => {
  it("answers 202 with the queued run, which runs every kind of step and is visible in the console", async () => {
    const { client } = await operator();
    const id = await createSop(client, {
      name: "New order",
      slug: slug("new-order"),
      steps: [
        {
          type: "set",
          name: "calc",
          assignments: "total = input.qty * input.price\nbig = input.qty * input.price > 100",
        },
        { type: "condition", expression: "vars.big && input.email != null" },
        {
          type: "create_contact_event",
          email: "{{input.email}}",
          event: "order.created",
          note: "Total {{vars.total}}",
        },
        {
          type: "send_email",
          to: "{{input.email}}",
          subject: "Thanks, {{input.name}}",
          body: "Your total is {{vars.total}}.",
        },
        {
          type: "http_request",
          name: "notify",
          method: "POST",
          url: `${target.url}/orders/{{input.id}}`,
          headers: "X-Source: atrium",
          body: '{"email":"{{input.email}}","total":{{vars.total}}}',
        },
        { type: "set", assignments: "echoed = steps.notify.body.echo.total" },
      ],
    });
    const secret = await consoleTrigger(client, id);
    expect(secret).toMatch(/^sops_[A-Za-z0-9_-]{43}$/);

    const input = { id: "o-1", email: "Ada@Example.com", name: "Ada", qty: 3, price: 50 };
    const response = await trigger(server.url, id, secret, input);
    expect(response.status).toBe(202);
    const body = (await response.json()) as Record<string, string>;
    expect(body).toEqual({
      runId: expect.stringMatching(/^[0-9A-Z]{26}$/),
      sopId: id,
      status: "queued",
      statusUrl: `/api/sops/${id}/runs/${body.runId}`,
    });

    const done = await waitForRun(client, body.statusUrl!);
    expect(done.status, JSON.stringify(done)).toBe("succeeded");
    expect(done.input).toEqual(input);
    expect(done.steps.map((s) => s.status)).toEqual([
      "succeeded",
      "succeeded",
      "succeeded",
      "succeeded",
      "succeeded",
      "succeeded",
    ]);
    expect(done.steps[0]!.output).toEqual({ total: 150, big: true });
    expect(done.steps[5]!.output).toEqual({ echoed: 150 });

    const call = target.received.find((r) => r.url === "/orders/o-1")!;
    expect(call.method).toBe("POST");
    expect(JSON.parse(call.body)).toEqual({ email: "Ada@Example.com", total: 150 });
    expect(call.headers["x-source"]).toBe("atrium");
    expect(call.headers["idempotency-key"]).toBe(`${body.runId}.4`);

    const outbox = await (await client.get("/settings/outbox")).text();
    expect(outbox).toContain("Thanks, Ada");
    expect(outbox).toContain("Your total is 150.");
    const events = await server.db
      .selectFrom("contact_events")
      .selectAll()
      .where("type", "=", "order.created")
      .execute();
    expect(events.find((e) => e.note === "Total 150")?.email).toBe("ada@example.com");

    const page = await (await client.get(`/settings/sops/${id}`)).text();
    expect(page).toContain(`data-run-id="${body.runId}" data-status="succeeded"`);
  });

  it("stops a run, successfully, where a condition does not hold", async () => {
    const { client } = await operator();
    const { id, secret } = await sopWithTrigger(client, [
      { type: "condition", expression: "input.total > 100" },
      { type: "send_email", to: "x@example.com", subject: "never", body: "never" },
    ]);
    const { statusUrl } = (await (await trigger(server.url, id, secret, { total: 5 })).json()) as { statusUrl: string };
    const done = await waitForRun(client, statusUrl);
    expect(done.status).toBe("succeeded");
    expect(done.steps).toHaveLength(1);
    expect(done.steps[0]).toMatchObject({ status: "stopped", output: { passed: false } });
  });

  it("evaluates hostile input as plain data: no prototype reached, no crash", async () => {
    const { client } = await operator();
    const { id, secret } = await sopWithTrigger(client, [
      {
        type: "set",
        assignments:
          "ctor = input.constructor\nproto = input.__proto__\nfn = input.toString\ndeep = length(input.deep)",
      },
      { type: "create_contact_event", email: "hostile@example.com", event: "probe", note: "{{input}}" },
    ]);
    const nest = (levels: number) => "[".repeat(levels) + "0" + "]".repeat(levels);
    const deep = nest(60);
    const body = `{"input":{"__proto__":{"polluted":1},"constructor":{"constructor":"x"},"deep":${deep}}}`;
    const response = await fetch(`${server.url}/api/sops/${id}/trigger`, {
      method: "POST",
      headers: { "content-type": "application/json", ...sign(secret, body) },
      body,
    });
    expect(response.status, JSON.stringify(server.logs.filter((l) => l.level === 50).slice(-1))).toBe(202);
    const done = await waitForRun(client, ((await response.json()) as { statusUrl: string }).statusUrl);
    expect(done.status, JSON.stringify(done.error)).toBe("succeeded");
    expect(done.steps[0]!.output).toEqual({ ctor: null, proto: null, fn: null, deep: 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    // Nesting beyond 64 levels is refused up front rather than stored and evaluated.
    const tooDeep = `{"input":{"deep":${nest(5000)}}}`;
    const refused = await fetch(`${server.url}/api/sops/${id}/trigger`, {
      method: "POST",
      headers: { "content-type": "application/json", ...sign(secret, tooDeep) },
      body: tooDeep,
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ message: "The input is nested too deeply: at most 64 levels" });
  });

  it("finds the SOP by slug as by id", async () => {
    const { client } = await operator();
    const sop = await sopWithTrigger(client);
    const response = await trigger(server.url, sop.slug, sop.secret, { name: "Bo" });
    expect(response.status).toBe(202);
    expect(((await response.json()) as { sopId: string }).sopId).toBe(sop.id);
  });
});

describe("the trigger's refusals", () => {
  let sop: { id: string; slug: string; secret: string };
  let client: Client;
  const body = JSON.stringify({ input: { name: "Ada" } });
  const post = (headers: Record<string, string>, payload = body, ref = sop.id) =>
    fetch(`${server.url}/api/sops/${ref}/trigger`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: payload,
    });
  const hmac = (key: string, content: string, algorithm = "sha256") =>
    createHmac(algorithm, key).update(content).digest("hex");
  const now = () => Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    ({ client } = await operator());
    sop = await sopWithTrigger(client);
  });

  it.each([
    ["a wrong secret", () => sign(`${sop.secret}x`, body), "Invalid signature"],
    [
      "a timestamp in milliseconds",
      () => {
        const ms = Date.now();
        return { "X-SOP-Timestamp": String(ms), "X-SOP-Signature": `sha256=${hmac(sop.secret, `${ms}.${body}`)}` };
      },
      "Invalid signature",
    ],
    [
      "another message format (the body alone)",
      () => ({ "X-SOP-Timestamp": String(now()), "X-SOP-Signature": `sha256=${hmac(sop.secret, body)}` }),
      "Invalid signature",
    ],
    [
      "another message format (timestamp:body)",
      () => ({ "X-SOP-Timestamp": String(now()), "X-SOP-Signature": `sha256=${hmac(sop.secret, `${now()}:${body}`)}` }),
      "Invalid signature",
    ],
    [
      "another algorithm (sha512)",
      () => ({
        "X-SOP-Timestamp": String(now()),
        "X-SOP-Signature": `sha512=${hmac(sop.secret, `${now()}.${body}`, "sha512")}`,
      }),
      "Invalid signature",
    ],
    [
      "another algorithm under the sha256= prefix (sha1)",
      () => ({
        "X-SOP-Timestamp": String(now()),
        "X-SOP-Signature": `sha256=${hmac(sop.secret, `${now()}.${body}`, "sha1")}`,
      }),
      "Invalid signature",
    ],
    [
      "uppercase hex",
      () => ({ ...sign(sop.secret, body), "X-SOP-Signature": sign(sop.secret, body)["X-SOP-Signature"].toUpperCase() }),
      "Invalid signature",
    ],
    ["a stale timestamp", () => sign(sop.secret, body, now() - 301), "Timestamp too old"],
    ["a timestamp too far in the future", () => sign(sop.secret, body, now() + 400), "Timestamp is in the future"],
    [
      "no timestamp",
      () => ({ "X-SOP-Signature": sign(sop.secret, body)["X-SOP-Signature"] }),
      "Missing X-SOP-Timestamp header",
    ],
    ["no signature", () => ({ "X-SOP-Timestamp": String(now()) }), "Missing X-SOP-Signature header"],
    [
      "a timestamp that is not Unix seconds",
      () => ({ ...sign(sop.secret, body), "X-SOP-Timestamp": new Date().toISOString() }),
      "X-SOP-Timestamp must be a Unix time in seconds",
    ],
  ])("refuses %s with 401", async (_name, headers, message) => {
    const response = await post(headers());
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(UNAUTHORIZED(message));
    expect(response.headers.get("www-authenticate")).toMatch(/^HMAC-SHA256/);
  });

  it("refuses altered whitespace: the signature covers the bytes as sent", async () => {
    const headers = sign(sop.secret, body);
    const response = await post(headers, JSON.stringify({ input: { name: "Ada" } }, null, 1));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(UNAUTHORIZED("Invalid signature"));
    // …and the same whitespace, signed as sent, is accepted.
    const spaced = '{ "input" : { "name" : "Ada" } }\n';
    expect((await post(sign(sop.secret, spaced), spaced)).status).toBe(202);
  });

  it("answers a replay of an accepted request with the same run, even from another connection", async () => {
    const headers = sign(sop.secret, body);
    const first = await post(headers);
    expect(first.status).toBe(202);
    const again = await post(headers);
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
  });

  it("records every failure with its reason, shows it in the console, and warns of a burst", async () => {
    const before = server.logs.filter((l) => l.msg === "burst of failed SOP trigger verifications").length;
    for (let i = 0; i < 10; i++) expect((await post(sign("wrong", body))).status).toBe(401);
    const rows = await server.db
      .selectFrom("sop_verification_failures")
      .selectAll()
      .where("sop_id", "=", sop.id)
      .execute();
    expect(rows.length).toBeGreaterThanOrEqual(10);
    expect(rows.every((r) => r.ip && r.trigger_id)).toBe(true);
    expect(new Set(rows.map((r) => r.reason))).toContain("Signature does not match");
    const page = await (await client.get(`/settings/sops/${sop.id}`)).text();
    expect(page).toMatch(new RegExp(`data-testid="failure-count">${rows.length}<`));
    expect(page).toContain("Signature does not match");
    expect(server.logs.filter((l) => l.msg === "burst of failed SOP trigger verifications").length).toBeGreaterThan(
      before,
    );
  });

  it("answers the other errors of the contract", async () => {
    const unknown = await post(sign(sop.secret, body), body, "no-such-sop");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: "Not Found", statusCode: 404 });

    for (const invalid of ['{"input":[1]}', '{"input":{},"extra":1}', '{"inputs":{}}', "[]", "not json"]) {
      const response = await post(sign(sop.secret, invalid), invalid);
      expect(response.status, invalid).toBe(400);
      expect(await response.json()).toMatchObject({ error: "Bad Request", statusCode: 400 });
    }

    const huge = JSON.stringify({ input: { blob: "x".repeat(1_100_000) } });
    const tooLarge = await post(sign(sop.secret, huge), huge);
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ error: "Payload Too Large", statusCode: 413 });

    const noTrigger = await createSop(client, { name: "Bare", slug: slug("bare") });
    const refused = await post(sign(sop.secret, body), body, noTrigger);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual(UNAUTHORIZED("This SOP has no trigger: create one in the console"));
  });

  it("refuses a disabled SOP with 409 once the request is verified, and accepts it again when enabled", async () => {
    const disabled = await client.post(`/settings/sops/${sop.id}`, { intent: "disable" });
    expect(disabled.status).toBe(200);
    const other = JSON.stringify({ input: { name: "disabled" } });
    const response = await post(sign(sop.secret, other), other);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      error: "Conflict",
      message: "This SOP is disabled: enable it in the console to accept triggers",
      statusCode: 409,
    });
    expect((await post(sign("wrong", body))).status).toBe(401);
    await client.post(`/settings/sops/${sop.id}`, { intent: "enable" });
    const again = JSON.stringify({ input: { name: "enabled" } });
    expect((await post(sign(sop.secret, again), again)).status).toBe(202);
  });

  it("verifies the independent test vector, then refuses its body (not { input }) with 400", async () => {
    // ../shared/spec/test-vectors.md: secret sop_test_secret, timestamp 1700000000, computed with Python's hmac.
    const vector = await createSop(client, { name: "Vector", slug: slug("vector") });
    await consoleTrigger(client, vector);
    const row = await server.db
      .selectFrom("sop_triggers")
      .select("id")
      .where("sop_id", "=", vector)
      .executeTakeFirstOrThrow();
    await server.db
      .updateTable("sop_triggers")
      .set({ secret_enc: server.atrium.runtime.services.secrets.seal("sop_test_secret", triggerBinding(row.id)) })
      .where("id", "=", row.id)
      .execute();
    const exact = '{"event":"order.created","id":"evt_1"}';
    const headers = {
      "X-SOP-Timestamp": "1700000000",
      "X-SOP-Signature": "sha256=a16f0201e2a7830795df9dd54ea0601af2031a73540c7b11b3a72a0ef16299df",
    };
    setTestClock(() => new Date(1_700_000_030_000));
    try {
      const response = await post(headers, exact, vector);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: "Bad Request",
        message: 'The body must be { "input": { … } }',
      });
      const altered = await post(headers, exact.replace("evt_1", "evt_2"), vector);
      expect(await altered.json()).toEqual(UNAUTHORIZED("Invalid signature"));
    } finally {
      setTestClock(undefined);
    }
  });
});

describe("rotation", () => {
  it("refuses the old secret from the very next request (API with an admin's bearer key, and console)", async () => {
    const { client } = await operator();
    const sop = await sopWithTrigger(client);
    const keyPage = await (
      await client.post("/settings/api-keys", {
        intent: "generate",
        name: "ops",
        environment: "live",
        expiresInDays: "",
        workspaceId: "",
      })
    ).text();
    const key = /data-testid="new-api-key">([^<]+)</.exec(keyPage)![1]!;
    const triggerId = (
      await server.db.selectFrom("sop_triggers").select("id").where("sop_id", "=", sop.id).executeTakeFirstOrThrow()
    ).id;

    const rotated = await fetch(`${server.url}/api/sops/${sop.id}/triggers/${triggerId}/rotate`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
    });
    expect(rotated.status).toBe(200);
    const issued = (await rotated.json()) as { secret: string; triggerId: string; createdAt: string };
    expect(issued).toEqual({ secret: expect.stringMatching(/^sops_/), triggerId, createdAt: expect.any(String) });
    expect(Math.abs(Date.parse(issued.createdAt) - Date.now())).toBeLessThan(60_000);

    const old = await trigger(server.url, sop.id, sop.secret, {});
    expect(old.status).toBe(401);
    expect(await old.json()).toEqual(UNAUTHORIZED("Invalid signature"));
    expect((await trigger(server.url, sop.id, issued.secret, {})).status).toBe(202);

    // The console's "Rotate secret" does the same.
    const fromConsole = await consoleTrigger(client, sop.id, triggerId);
    expect((await trigger(server.url, sop.id, issued.secret, {})).status).toBe(401);
    expect((await trigger(server.url, sop.id, fromConsole, {})).status).toBe(202);

    // A session caller needs the same-origin check; a missing trigger is a 404.
    const session = await client.request(`/api/sops/${sop.id}/triggers/${triggerId}/rotate`, {
      method: "POST",
      headers: { origin: server.url },
    });
    expect(session.status).toBe(200);
    const missing = await client.request(`/api/sops/${sop.id}/triggers/NOPE/rotate`, {
      method: "POST",
      headers: { origin: server.url },
    });
    expect(missing.status).toBe(404);
  });

  it("needs the admin role in the SOP's workspace; another workspace's SOP is a 404", async () => {
    const owner = await operator();
    const sop = await sopWithTrigger(owner.client);
    const triggerId = (
      await server.db.selectFrom("sop_triggers").select("id").where("sop_id", "=", sop.id).executeTakeFirstOrThrow()
    ).id;
    const viewer = await signUp(server.url, uniqueEmail("viewer"));
    await addMember(server.url, owner.client, viewer, "viewer");
    const rotate = (c: Client) =>
      c.request(`/api/sops/${sop.id}/triggers/${triggerId}/rotate`, {
        method: "POST",
        headers: { origin: server.url },
      });
    const denied = await rotate(viewer.client);
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ error: "Forbidden", statusCode: 403 });

    const stranger = await operator();
    expect((await rotate(stranger.client)).status).toBe(404);
    expect((await stranger.client.get(`/settings/sops/${sop.id}`)).status).toBe(404);
    // Untouchable too: the stranger's console actions on it find nothing, and its lists show none of it.
    expect((await stranger.client.post(`/settings/sops/${sop.id}`, { intent: "disable" })).status).toBe(404);
    expect(
      (await stranger.client.post(`/settings/sops/${sop.id}`, { intent: "delete", confirm: sop.slug })).status,
    ).toBe(404);
    expect(await (await stranger.client.get("/settings/sops")).text()).not.toContain(sop.slug);
    expect(await (await stranger.client.get("/settings/outbox")).text()).toContain("No e-mail yet");
    const still = await server.db
      .selectFrom("sops")
      .select("enabled")
      .where("id", "=", sop.id)
      .executeTakeFirstOrThrow();
    expect(still.enabled).toBe(1);
    const { statusUrl } = (await (await trigger(server.url, sop.id, sop.secret, { name: "x" })).json()) as {
      statusUrl: string;
    };
    expect((await stranger.client.get(statusUrl)).status).toBe(404);
    expect((await viewer.client.get(statusUrl)).status).toBe(200);
    expect((await new Client(server.url).get(statusUrl)).status).toBe(401);

    // A viewer reads the console's SOP pages but cannot change them.
    const workspaceId = (
      await server.db.selectFrom("sops").select("workspace_id").where("id", "=", sop.id).executeTakeFirstOrThrow()
    ).workspace_id;
    expect((await viewer.client.post("/?index", { intent: "select", workspaceId })).status).toBe(302);
    expect((await viewer.client.get(`/settings/sops/${sop.id}`)).status).toBe(200);
    expect((await viewer.client.post(`/settings/sops/${sop.id}`, { intent: "disable" })).status).toBe(403);
  });
});

describe("runs", () => {
  it("retries a step the target answers with 503 or 429, and fails at once on a 404", async () => {
    const { client } = await operator();
    let calls = 0;
    const flaky = await startTarget(() => {
      calls += 1;
      return calls === 1 ? { status: 503 } : calls === 2 ? { status: 429 } : { status: 200 };
    });
    try {
      const retried = await sopWithTrigger(client, [{ type: "http_request", method: "GET", url: `${flaky.url}/x` }]);
      const { statusUrl } = (await (await trigger(server.url, retried.id, retried.secret, {})).json()) as {
        statusUrl: string;
      };
      const done = await waitForRun(client, statusUrl);
      expect(done.status, JSON.stringify(done)).toBe("succeeded");
      expect(done.attempts).toBe(3);
      expect(new Set(flaky.received.map((r) => r.headers["idempotency-key"])).size).toBe(1);

      const failing = await sopWithTrigger(client, [
        { type: "http_request", method: "GET", url: `${target.url}/status/404` },
      ]);
      const second = (await (await trigger(server.url, failing.id, failing.secret, {})).json()) as {
        statusUrl: string;
      };
      const failed = await waitForRun(client, second.statusUrl);
      expect(failed.status).toBe("failed");
      expect(failed.attempts).toBe(1);
      expect(failed.error).toMatch(/Step 1 \(step1\) failed.*404/);
    } finally {
      await flaky.close();
    }
  });

  it("gives up after 5 retries", async () => {
    const { client } = await operator();
    const sop = await sopWithTrigger(client, [
      { type: "http_request", method: "GET", url: `${target.url}/status/500` },
    ]);
    const { statusUrl } = (await (await trigger(server.url, sop.id, sop.secret, {})).json()) as { statusUrl: string };
    const done = await waitForRun(client, statusUrl, undefined, 20_000);
    expect(done.status).toBe("failed");
    expect(done.attempts).toBe(6);
  });

  it("refuses private targets unless OUTBOUND_ALLOW_PRIVATE, without retrying", async () => {
    const strict = await startServer({ ...FAST_JOBS, OUTBOUND_ALLOW_PRIVATE: "false" });
    try {
      const { client } = await signUp(strict.url);
      await createWorkspace(client, "Strict", slug("strict"));
      const id = await createSop(client, {
        name: "Metadata",
        slug: slug("metadata"),
        steps: [{ type: "http_request", method: "GET", url: "http://169.254.169.254/latest/meta-data" }],
      });
      const secret = await consoleTrigger(client, id);
      const { statusUrl } = (await (await trigger(strict.url, id, secret, {})).json()) as { statusUrl: string };
      const done = await waitForRun(client, statusUrl);
      expect(done.status).toBe("failed");
      expect(done.attempts).toBe(1);
      expect(done.steps[0]!.error).toMatch(/refused|private|not allowed/i);
    } finally {
      await strict.close();
    }
  });

  it("posts a signed completion notice (Standard Webhooks) and shows the delivery", async () => {
    const { client } = await operator();
    const receiver = await startTarget((_request, count) => (count === 1 ? { status: 502 } : { status: 204 }));
    try {
      const id = await createSop(client, {
        name: "With callback",
        slug: slug("callback"),
        callbackUrl: `${receiver.url}/hooks/atrium`,
        steps: [{ type: "set", assignments: "x = 1" }],
      });
      const secret = await consoleTrigger(client, id);
      const { runId, statusUrl } = (await (await trigger(server.url, id, secret, { a: 1 })).json()) as Record<
        string,
        string
      >;
      await waitForRun(client, statusUrl!);
      const deadline = Date.now() + 10_000;
      while (receiver.received.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(receiver.received).toHaveLength(2);
      const notice = receiver.received[1]!;
      const event = JSON.parse(notice.body) as { type: string; data: Record<string, unknown> };
      expect(event).toMatchObject({ type: "sop.run.succeeded", data: { runId, sopId: id, status: "succeeded" } });

      // Verified as a receiver would, from the secret the console shows: whsec_ + base64 key.
      const page = await (await client.get(`/settings/sops/${id}`)).text();
      const callbackSecret = /(whsec_[A-Za-z0-9+/=]+)/.exec(page)![1]!;
      const key = Buffer.from(callbackSecret.slice("whsec_".length), "base64");
      const { "webhook-id": msgId, "webhook-timestamp": ts, "webhook-signature": signature } = notice.headers;
      const expected = createHmac("sha256", key).update(`${msgId}.${ts}.${notice.body}`).digest("base64");
      expect(signature).toBe(`v1,${expected}`);
      expect(receiver.received[0]!.headers["webhook-id"]).toBe(msgId);
      await new Promise((r) => setTimeout(r, 200));
      const after = await (await client.get(`/settings/sops/${id}`)).text();
      expect(after).toContain('data-delivery-status="delivered"');
    } finally {
      await receiver.close();
    }
  });

  it("keeps several runners from executing a run twice", async () => {
    // A second server on the same database: two processes' runners share one queue.
    const second = await startServer({ ...FAST_JOBS }, server.database);
    const counting = await startTarget();
    try {
      const { client } = await operator();
      const sop = await sopWithTrigger(client, [
        { type: "http_request", method: "POST", url: `${counting.url}/count`, body: "{}" },
      ]);
      const urls = await Promise.all(
        Array.from({ length: 30 }, async (_, i) => {
          const base = i % 2 ? server.url : second.url;
          const response = await trigger(base, sop.id, sop.secret, { i });
          expect(response.status).toBe(202);
          return ((await response.json()) as { statusUrl: string }).statusUrl;
        }),
      );
      const runs: RunBody[] = [];
      for (const url of urls) runs.push(await waitForRun(client, url));
      expect(runs.every((r) => r.status === "succeeded")).toBe(true);
      const keys = counting.received.map((r) => r.headers["idempotency-key"]);
      expect(keys).toHaveLength(30);
      expect(new Set(keys).size).toBe(30);
      const workers = await server.db.selectFrom("jobs").select("locked_by").where("kind", "=", "sop.run").execute();
      expect(workers.length).toBeGreaterThanOrEqual(30);
    } finally {
      await counting.close();
      await second.atrium.close();
    }
  });
});

describe("housekeeping", () => {
  it("purges expired replay records and old finished jobs when a runner starts, and keeps the rest", async () => {
    const database = await freshDatabase();
    try {
      const first = await startServer({ JOBS_CONCURRENCY: "0" }, database);
      const old = new Date(Date.now() - 8 * 86_400_000).toISOString();
      const future = new Date(Date.now() + 60_000).toISOString();
      await first.db
        .insertInto("sop_signature_replays")
        .values([
          { signature_hash: "expired", expires_at: old },
          { signature_hash: "current", expires_at: future },
        ])
        .execute();
      const job = { workspace_id: null, kind: "sop.run", payload: "{}", run_at: old, attempts: 1, max_attempts: 6 };
      await first.db
        .insertInto("jobs")
        .values([
          { ...job, id: "old-done", status: "done", created_at: old, updated_at: old },
          { ...job, id: "old-failed", status: "failed", created_at: old, updated_at: old },
        ])
        .execute();
      await first.atrium.close();

      const second = await startServer({ ...FAST_JOBS }, database);
      try {
        const remaining = async () =>
          (await second.db.selectFrom("sop_signature_replays").select("signature_hash").execute()).map(
            (r) => r.signature_hash,
          );
        await expect.poll(remaining).toEqual(["current"]);
        // The same maintenance pass purges old jobs, after every module's other tasks (the jobs module is last):
        // wait for it rather than race it.
        const jobs = async () => (await second.db.selectFrom("jobs").select("id").execute()).map((j) => j.id);
        await expect.poll(jobs).toEqual(["old-failed"]);
      } finally {
        await second.atrium.close();
      }
    } finally {
      await database.drop();
    }
  });
});

describe("a run whose runners keep dying", () => {
  it("is failed, not retried for ever, once its job has been claimed more often than it has attempts", async () => {
    const database = await freshDatabase();
    try {
      // A web-only node takes the trigger; then the rows are left as six crashed runners would leave them.
      const web = await startServer({ ...FAST_JOBS, JOBS_CONCURRENCY: "0" }, database);
      const { client } = await signUp(web.url);
      await createWorkspace(client, "Dying", slug("dying"));
      const id = await createSop(client, {
        name: "Dying",
        slug: slug("dying-sop"),
        steps: [{ type: "http_request", method: "GET", url: `${target.url}/never` }],
      });
      const secret = await consoleTrigger(client, id);
      const { runId, statusUrl } = (await (await trigger(web.url, id, secret, {})).json()) as Record<string, string>;
      const past = new Date(Date.now() - 60_000).toISOString();
      await web.db.updateTable("sop_runs").set({ status: "running" }).where("id", "=", runId!).execute();
      await web.db
        .updateTable("jobs")
        .set({ status: "running", attempts: 6, locked_by: "dead-runner", locked_until: past })
        .where("kind", "=", "sop.run")
        .execute();
      const before = target.received.length;
      await web.atrium.close();

      const worker = await startServer({ ...FAST_JOBS }, database);
      try {
        const again = new Client(worker.url);
        again.setCookie("atrium_session", client.cookie("atrium_session")!);
        const done = await waitForRun(again, statusUrl!);
        expect(done.status).toBe("failed");
        expect(done.error).toBe("The run was abandoned: its runner stopped responding 6 times");
        expect(target.received.length).toBe(before);
      } finally {
        await worker.atrium.close();
      }
    } finally {
      await database.drop();
    }
  });
});

describe("the console's step editor", () => {
  it("answers any ?page= with a page, not an error", async () => {
    const { client } = await operator();
    const sop = await sopWithTrigger(client);
    for (const page of ["1e400", "-3", "abc", "99999999999999999999"]) {
      expect((await client.get(`/settings/sops/${sop.id}?page=${page}`)).status, page).toBe(200);
      expect((await client.get(`/settings/outbox?page=${page}`)).status, page).toBe(200);
    }
  });

  it("names each invalid field, keeps what was typed, and stores nothing", async () => {
    const { client } = await operator();
    const id = await createSop(client, { name: "Editor", slug: slug("editor") });
    const response = await saveSop(client, id, {
      name: "Editor",
      slug: "Bad Slug",
      steps: [
        { type: "condition", expression: "input.total >" },
        { type: "http_request", method: "GET", url: "ftp://example.com" },
        { type: "send_email", to: "", subject: "Hi {{input.name", body: "x" },
        { type: "set", assignments: "no equals sign" },
      ],
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("Use lowercase letters");
    expect(html).toMatch(/id="step-0-expression-error"[^>]*>[^<]+/);
    expect(html).toContain("The URL must start with https://");
    expect(html).toContain("To is required");
    expect(html).toMatch(/id="step-2-subject-error"/);
    expect(html).toContain("name = expression");
    expect(html).toContain('value="input.total &gt;"');
    const stored = await server.db
      .selectFrom("sops")
      .select(["slug", "steps"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(stored.steps).toBe("[]");
  });

  it("adds, reorders and removes steps without saving until Save", async () => {
    const { client } = await operator();
    const id = await createSop(client, { name: "Draft", slug: slug("draft") });
    const added = await client.post(`/settings/sops/${id}`, {
      intent: "add-step",
      newStepType: "condition",
      name: "Draft",
      slug: "x",
    });
    const html = await added.text();
    expect(html).toContain("Step 1: Condition");
    expect(html).toContain("Unsaved changes");
    const stored = await server.db.selectFrom("sops").select("steps").where("id", "=", id).executeTakeFirstOrThrow();
    expect(stored.steps).toBe("[]");
    const moved = await client.post(`/settings/sops/${id}`, {
      intent: "up-step:1",
      name: "Draft",
      slug: "x",
      "step.0.type": "condition",
      "step.0.expression": "true",
      "step.1.type": "set",
      "step.1.assignments": "a = 1",
    });
    expect(await moved.text()).toMatch(/Step 1: Set values[\s\S]*Step 2: Condition/);
  });

  it("deletes a SOP only when its slug is typed", async () => {
    const { client } = await operator();
    const sop = await sopWithTrigger(client);
    const refused = await client.post(`/settings/sops/${sop.id}`, { intent: "delete", confirm: "nope" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(`Type ${sop.slug} to confirm`);
    const deleted = await client.post(`/settings/sops/${sop.id}`, { intent: "delete", confirm: sop.slug });
    expect(deleted.status).toBe(302);
    expect((await client.get(`/settings/sops/${sop.id}`)).status).toBe(404);
    expect((await trigger(server.url, sop.id, sop.secret, {})).status).toBe(404);
  });
});

describe("the README's signing example", () => {
  it("runs as written and gets 202", async () => {
    const { client } = await operator();
    const sop = await sopWithTrigger(client);
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("## Triggering a SOP"));
    const curl = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
    const { stdout } = await run("bash", ["-euo", "pipefail", "-c", curl], {
      env: { ...process.env, ATRIUM_URL: server.url, SOP: sop.slug, SOP_SECRET: sop.secret },
    });
    const accepted = JSON.parse(stdout) as { status: string; statusUrl: string };
    expect(accepted.status).toBe("queued");
    expect((await waitForRun(client, accepted.statusUrl)).status).toBe("succeeded");

    // The same body within the same second would be the same signature, answered with the first run: wait for
    // the next second so that the second example queues its own.
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 10));
    const node = /```js\n([\s\S]*?)```/.exec(section)![1]!;
    const result = await run(process.execPath, ["--input-type=module", "-e", node], {
      env: { ...process.env, ATRIUM_URL: server.url, SOP: sop.slug, SOP_SECRET: sop.secret },
    });
    expect(result.stdout).toMatch(/^202 /);
  });
});
