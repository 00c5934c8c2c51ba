/** The token API: API keys, bearer verification, /api/auth/me, plan tiers and per-key rate limits. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, setRateLimits, setStatus, setTier } from "~/modules/accounts/users.server";
import { apiKeysOf } from "~/modules/api-keys/api-keys.server";
import { generateKey } from "~/modules/api-keys/format.server";
import { Client, PASSWORD, signUp, uniqueEmail } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
beforeAll(async () => {
  // Failed authentications from loopback are throttled too; this file's main server allows plenty.
  server = await startServer({ API_AUTH_FAILURES_PER_MINUTE: "10000" });
});
afterAll(() => server.close());

const UNAUTHORIZED = { error: "Unauthorized", message: "Invalid or missing API key", statusCode: 401 };
const FORBIDDEN = { error: "Forbidden", message: "Insufficient permissions", statusCode: 403 };

async function account(tier: "free" | "pro" | "enterprise" = "free", db = server.db) {
  const email = uniqueEmail("integrator");
  const user = await createUser(db, { email, password: PASSWORD, tier });
  const { key, view } = await apiKeysOf(db, user).generate({
    name: "test",
    environment: "live",
    expiresInDays: null,
    workspaceId: null,
  });
  return { user, key, keyId: view.id };
}

/** Generates a live key through the API Keys page's form, as an operator would. */
const generateInConsole = (client: Client, name: string) =>
  client.post("/settings/api-keys", {
    intent: "generate",
    name,
    environment: "live",
    expiresInDays: "",
    workspaceId: "",
  });

/** A key's id, found by its visible prefix as the console shows it. */
const idOfKey = async (key: string) =>
  (
    await server.db
      .selectFrom("api_keys")
      .select("id")
      .where("display_prefix", "=", key.slice(0, "atr_live_".length + 6))
      .executeTakeFirstOrThrow()
  ).id;

const me = (key: string | null, base = server.url, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/auth/me`, { headers: key === null ? headers : { authorization: `Bearer ${key}`, ...headers } });

describe("GET /api/auth/me", () => {
  it("returns the key's user: id, email, tier and created_at, nothing else", async () => {
    const { user, key } = await account("pro");
    const res = await me(key);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ id: user.id, email: user.email, tier: "pro", created_at: user.created_at });
    expect(Object.keys(body).sort()).toEqual(["created_at", "email", "id", "tier"]);
    expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  });

  it("describes the hourly window in X-RateLimit-* headers", async () => {
    const { key } = await account();
    const first = await me(key);
    const second = await me(key);
    expect(first.headers.get("x-ratelimit-limit")).toBe("100");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("99");
    expect(second.headers.get("x-ratelimit-remaining")).toBe("98");
    const reset = Number(first.headers.get("x-ratelimit-reset"));
    const now = Date.now() / 1000;
    expect(reset).toBeGreaterThan(now + 3590);
    expect(reset).toBeLessThanOrEqual(now + 3601);
    expect(Number(second.headers.get("x-ratelimit-reset"))).toBe(reset);
  });
});

describe("the Authorization header", () => {
  it("accepts the scheme name in any case", async () => {
    const { key } = await account();
    expect((await me(null, server.url, { authorization: `bearer ${key}` })).status).toBe(200);
  });
});

describe("401 Unauthorized", () => {
  const refused = async (res: Response) => {
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe("Bearer");
    expect(await res.json()).toEqual(UNAUTHORIZED);
  };

  it("without an Authorization header", async () => refused(await me(null)));
  it("with another scheme", async () => refused(await me(null, server.url, { authorization: "Basic dXNlcjpwYXNz" })));
  it("with an empty bearer", async () => refused(await me(null, server.url, { authorization: "Bearer " })));
  it("with a token that is not a key", async () => refused(await me("not-a-key")));

  it("with a bad checksum (a mistyped key), without touching the database", async () => {
    const { key } = await account();
    const last = key.at(-1) === "a" ? "b" : "a";
    await refused(await me(key.slice(0, -1) + last));
  });

  it("with a well-formed key nobody issued", async () => refused(await me(generateKey("live").key)));

  it("with an expired key", async () => {
    const { key, keyId } = await account();
    await server.db
      .updateTable("api_keys")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", keyId)
      .execute();
    await refused(await me(key));
  });

  it("with a revoked key, at once", async () => {
    const { user, key, keyId } = await account();
    expect((await me(key)).status).toBe(200);
    await apiKeysOf(server.db, user).revoke(keyId);
    await refused(await me(key));
  });

  it("with an operator's session cookie instead of a key", async () => {
    const { client } = await signUp(server.url);
    await refused(await client.get("/api/auth/me"));
  });
});

describe("403 Forbidden", () => {
  it("for a suspended account, still describing its rate limit", async () => {
    const { user, key } = await account();
    await setStatus(server.db, user.email, "suspended");
    const res = await me(key);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual(FORBIDDEN);
    expect(res.headers.get("x-ratelimit-limit")).toBe("100");
  });

  it("for a key beyond the plan's active keys (Free: 3), until the account moves up a tier", async () => {
    const { client, email } = await signUp(server.url);
    for (const name of ["one", "two", "three"]) expect((await generateInConsole(client, name)).status).toBe(200);
    const fourth = await generateInConsole(client, "four");
    expect(fourth.status).toBe(403);
    expect(await fourth.text()).toContain("The Free plan allows 3 active keys");
    await setTier(server.db, email, "pro");
    expect((await generateInConsole(client, "four")).status).toBe(200);
  });
});

describe("429 Too Many Requests", () => {
  it("refuses the 21st rapid request of a Free key, with the true wait until the burst admits again", async () => {
    const { key } = await account();
    const windowOpened = Date.now();
    for (let i = 0; i < 20; i += 1) expect((await me(key)).status).toBe(200);
    const res = await me(key);
    expect(res.status).toBe(429);
    const body = await res.json();
    expect(body).toEqual({
      error: "Too Many Requests",
      message: "Rate limit exceeded",
      statusCode: 429,
      retryAfter: expect.any(Number),
    });
    expect(Number.isInteger(body.retryAfter)).toBe(true);
    // The burst window opened with the first of the 20 requests: the wait is what is left of its 60 s.
    expect(body.retryAfter).toBeGreaterThanOrEqual(60 - Math.ceil((Date.now() - windowOpened) / 1000));
    expect(body.retryAfter).toBeLessThanOrEqual(60);
    expect(res.headers.get("retry-after")).toBe(String(body.retryAfter));
    // The hourly window is described as it stands: 20 counted, the refused one not.
    expect(res.headers.get("x-ratelimit-limit")).toBe("100");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("80");
  });

  it("refuses past the hourly quota with the wait until the hour resets", async () => {
    const { user, key } = await account("enterprise");
    await setRateLimits(server.db, user.email, { perHour: 5, burst: 100 });
    for (let i = 0; i < 5; i += 1) expect((await me(key)).status).toBe(200);
    const res = await me(key);
    expect(res.status).toBe(429);
    const body = await res.json();
    expect(body.retryAfter).toBeGreaterThan(3500);
    expect(body.retryAfter).toBeLessThanOrEqual(3600);
    expect(res.headers.get("x-ratelimit-limit")).toBe("5");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(res.headers.get("x-ratelimit-reset"))).toBeCloseTo(Date.now() / 1000 + body.retryAfter, -1);
  });

  it("gives the later wait when both windows are full", async () => {
    const { user, key } = await account("enterprise");
    await setRateLimits(server.db, user.email, { perHour: 5, burst: 5 });
    for (let i = 0; i < 5; i += 1) expect((await me(key)).status).toBe(200);
    const body = await (await me(key)).json();
    expect(body.retryAfter).toBeGreaterThan(3500);
  });

  it("answers a suspended account 403 even past its limit, counting nothing", async () => {
    const { user, key } = await account();
    for (let i = 0; i < 20; i += 1) await me(key);
    await setStatus(server.db, user.email, "suspended");
    const res = await me(key);
    expect(res.status).toBe(403);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("80");
    expect((await me(key)).headers.get("x-ratelimit-remaining")).toBe("80");
  });

  it("counts exactly under concurrency: 200 simultaneous requests on a fresh Free key admit 20", async () => {
    const { key } = await account();
    const statuses = await Promise.all(Array.from({ length: 200 }, () => me(key).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(180);
  });

  it("shares the count between two server processes on one database", async () => {
    const first = await startServer();
    const second = await startServer({}, first.database);
    try {
      const { key } = await account("free", first.db);
      const statuses = await Promise.all(
        Array.from({ length: 60 }, (_, i) => me(key, i % 2 ? first.url : second.url).then((r) => r.status)),
      );
      expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    } finally {
      await second.atrium.close();
      await first.close();
    }
  });

  it("keeps counting across a restart", async () => {
    const restartable = await startServer();
    try {
      const { key } = await account("free", restartable.db);
      for (let i = 0; i < 5; i += 1) await me(key, restartable.url);
      await restartable.atrium.close();
      const again = await startServer({}, restartable.database);
      try {
        const res = await me(key, again.url);
        expect(res.headers.get("x-ratelimit-remaining")).toBe("94");
      } finally {
        await again.close();
      }
    } finally {
      await restartable.database.drop();
    }
  });

  it("slows key guessing: a client address that keeps failing is refused, even with a good key", async () => {
    const guarded = await startServer({ API_AUTH_FAILURES_PER_MINUTE: "5" });
    try {
      const { key } = await account("free", guarded.db);
      for (let i = 0; i < 5; i += 1) expect((await me(generateKey("live").key, guarded.url)).status).toBe(401);
      const res = await me(key, guarded.url);
      expect(res.status).toBe(429);
      const body = await res.json();
      expect(body).toMatchObject({ error: "Too Many Requests", statusCode: 429 });
      expect(body.retryAfter).toBeGreaterThan(0);
      expect(body.retryAfter).toBeLessThanOrEqual(60);
    } finally {
      await guarded.close();
    }
  });
});

describe("the API Keys page", () => {
  it("shows a new key once, stores only its hash, and lists it with this hour's usage", async () => {
    const { client } = await signUp(server.url);
    const res = await client.post("/settings/api-keys", {
      intent: "generate",
      name: "Zapier",
      environment: "test",
      expiresInDays: "30",
      workspaceId: "",
    });
    expect(res.status).toBe(200);
    const html = await res.text();
    const key = /data-testid="new-api-key">(atr_test_[0-9A-Za-z]{36})</.exec(html)?.[1];
    expect(key).toBeTruthy();
    expect(html).toContain(`curl -H &quot;Authorization: Bearer ${key}&quot;`);
    const rows = await server.db.selectFrom("api_keys").selectAll().where("name", "=", "Zapier").execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(key!);
    expect(rows[0]!.expires_at!.slice(0, 10)).toBe(new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10));

    for (let i = 0; i < 3; i += 1) await me(key!);
    // Never logged: request lines hold paths only, and nothing else writes the key.
    expect(JSON.stringify(server.logs)).not.toContain(key!);
    const page = await (await client.get("/settings/api-keys")).text();
    expect(page).not.toContain(key!);
    expect(page).toContain(`${key!.slice(0, 15)}…`);
    expect(page).toContain("3 / 100");
    expect(page).toContain("Your plan: <strong>Free</strong>");
  });

  it("rolls a key: the new one works, the old one stops (or keeps going for the grace period)", async () => {
    const { client } = await signUp(server.url);
    const newKeyIn = async (res: Response) => /data-testid="new-api-key">([^<]+)</.exec(await res.text())?.[1] ?? "";
    const old = await newKeyIn(await generateInConsole(client, "ci"));
    const oldId = await idOfKey(old);

    const graceful = await newKeyIn(
      await client.post("/settings/api-keys", { intent: "roll", keyId: oldId, graceHours: "24" }),
    );
    expect((await me(graceful)).status).toBe(200);
    expect((await me(old)).status).toBe(200);

    const gracefulId = await idOfKey(graceful);
    const immediate = await newKeyIn(
      await client.post("/settings/api-keys", { intent: "roll", keyId: gracefulId, graceHours: "0" }),
    );
    expect((await me(immediate)).status).toBe(200);
    expect((await me(graceful)).status).toBe(401);

    // A key is rolled once: rolling the old one again (still in its grace) is refused.
    const again = await client.post("/settings/api-keys", { intent: "roll", keyId: oldId, graceHours: "24" });
    expect(again.status).toBe(400);
    // When the grace period ends, the old key stops.
    await server.db
      .updateTable("api_keys")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", oldId)
      .execute();
    expect((await me(old)).status).toBe(401);
  });

  it("never lets a grace period outlast the key's own expiry", async () => {
    const { user, keyId } = await account();
    const expires = new Date(Date.now() + 3_600_000).toISOString();
    await server.db.updateTable("api_keys").set({ expires_at: expires }).where("id", "=", keyId).execute();
    await apiKeysOf(server.db, user).roll(keyId, 168);
    const old = await server.db
      .selectFrom("api_keys")
      .select("expires_at")
      .where("id", "=", keyId)
      .executeTakeFirstOrThrow();
    expect(old.expires_at).toBe(expires);
  });

  it("counts a rolled key in its grace period against the plan", async () => {
    const { client, email } = await signUp(server.url);
    for (const name of ["a", "b", "c"]) expect((await generateInConsole(client, name)).status).toBe(200);
    const { id } = await server.db
      .selectFrom("api_keys as k")
      .innerJoin("users as u", "u.id", "k.user_id")
      .select("k.id")
      .where("k.name", "=", "a")
      .where("u.email", "=", email)
      .executeTakeFirstOrThrow();
    const withGrace = await client.post("/settings/api-keys", { intent: "roll", keyId: id, graceHours: "24" });
    expect(withGrace.status).toBe(403);
    const immediately = await client.post("/settings/api-keys", { intent: "roll", keyId: id, graceHours: "0" });
    expect(immediately.status).toBe(200);
  });

  it("lets only one of several simultaneous generations take a Free account's last key", async () => {
    const { client } = await signUp(server.url);
    for (const name of ["a", "b"]) expect((await generateInConsole(client, name)).status).toBe(200);
    const statuses = await Promise.all(["c", "d", "e"].map((n) => generateInConsole(client, n).then((r) => r.status)));
    expect(statuses.sort()).toEqual([200, 403, 403]);
  });

  it("never lets one operator revoke another's key", async () => {
    const owner = await account();
    const { client } = await signUp(server.url);
    const res = await client.post("/settings/api-keys", { intent: "revoke", keyId: owner.keyId });
    expect(res.status).toBe(404);
    expect((await me(owner.key)).status).toBe(200);
  });

  it("refuses a workspace restriction to someone else's workspace", async () => {
    const other = await signUp(server.url);
    await other.client.post("/?index", { intent: "create", name: "Not Yours", slug: "not-yours" });
    const ws = await server.db
      .selectFrom("workspaces")
      .select("id")
      .where("slug", "=", "not-yours")
      .executeTakeFirstOrThrow();
    const { client } = await signUp(server.url);
    const res = await client.post("/settings/api-keys", {
      intent: "generate",
      name: "x",
      environment: "live",
      expiresInDays: "",
      workspaceId: ws.id,
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Choose one of your workspaces");
  });
});

describe("tiers", () => {
  it.each([
    ["pro", "1000"],
    ["enterprise", "10000"],
  ] as const)("gives a %s key its plan's hourly quota", async (tier, limit) => {
    const { key } = await account(tier);
    expect((await me(key)).headers.get("x-ratelimit-limit")).toBe(limit);
  });

  it("signs in with the same password after all this (the key is not a password)", async () => {
    const { user } = await account();
    expect((await new Client(server.url).post("/login", { email: user.email, password: PASSWORD })).status).toBe(302);
  });
});
