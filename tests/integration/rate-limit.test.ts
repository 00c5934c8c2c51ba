/**
 * The counters of app/modules/rate-limit on a real database (SQLite, or Postgres with TEST_DATABASE_URL): the
 * one counter wrapper, and the limits that read the injectable clock.
 */
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~db/client";
import { migrateToLatest } from "~db/migrate";
import { setTestClock } from "~/lib/clock.server";
import { createUser } from "~/modules/accounts/users.server";
import { apiKeysOf } from "~/modules/api-keys/api-keys.server";
import { createApiRateLimit } from "~/modules/rate-limit/api-rate-limit.server";
import { createBearerFailures } from "~/modules/rate-limit/bearer-failures.server";
import { createCounter } from "~/modules/rate-limit/counter.server";
import { PASSWORD, uniqueEmail } from "../helpers/client";
import { freshDatabase, type TestDatabase } from "../helpers/database";

let database: TestDatabase;
let handle: DatabaseHandle;
beforeAll(async () => {
  database = await freshDatabase();
  handle = openDatabase(database.url);
  await migrateToLatest(handle.db);
});
afterAll(async () => {
  await handle.close();
  await database.drop();
});
afterEach(() => setTestClock(undefined));

const prefix = () => `test-${Math.random().toString(36).slice(2, 10)}`;

describe("counter", () => {
  it("admits the allowance, then refuses; a reward gives one back, delete starts afresh", async () => {
    const counter = createCounter(handle, { keyPrefix: prefix(), points: 2, durationSeconds: 60 });
    expect(await counter.consume("ada@example.com")).toMatchObject({ refused: false, consumed: 1 });
    await counter.reward("ada@example.com", 1);
    expect(await counter.consume("ada@example.com")).toMatchObject({ refused: false, consumed: 1 });
    expect(await counter.consume("ada@example.com")).toMatchObject({ refused: false, consumed: 2 });
    const refused = await counter.consume("ada@example.com");
    expect(refused.refused).toBe(true);
    expect(refused.msBeforeNext).toBeGreaterThan(0);
    expect(refused.msBeforeNext).toBeLessThanOrEqual(60_000);
    // Another key has its own allowance.
    expect((await counter.consume("bob@example.com")).refused).toBe(false);
    await counter.delete("ada@example.com");
    expect(await counter.consume("ada@example.com")).toMatchObject({ refused: false, consumed: 1 });
  });

  it("counts a penalty past the allowance (failures that already happened)", async () => {
    const counter = createCounter(handle, { keyPrefix: prefix(), points: 1, durationSeconds: 60 });
    await counter.penalty("203.0.113.9");
    expect(await counter.penalty("203.0.113.9")).toMatchObject({ consumed: 2 });
  });

  it("keeps no key in clear in the counters' table", async () => {
    const keyPrefix = prefix();
    await createCounter(handle, { keyPrefix, points: 5, durationSeconds: 60 }).consume("ada@example.com");
    const { rows } = await sql<{
      key: string;
    }>`select key from rate_limit_counters where key like ${`${keyPrefix}%`}`.execute(handle.db);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key).not.toContain("ada");
  });

  it("fails when the store fails, instead of reading the failure as a refusal", async () => {
    const own = await freshDatabase();
    const closed = openDatabase(own.url);
    await migrateToLatest(closed.db);
    const counter = createCounter(closed, { keyPrefix: prefix(), points: 5, durationSeconds: 60 });
    await closed.close();
    try {
      await expect(counter.consume("ada@example.com")).rejects.toBeInstanceOf(Error);
    } finally {
      await own.drop();
    }
  });
});

describe("limits on the injectable clock", () => {
  const T0 = Date.UTC(2031, 0, 1, 12, 0, 0);

  it("the token API's burst window opens again when the clock has moved a minute", async () => {
    const user = await createUser(handle.db, { email: uniqueEmail("limits"), password: PASSWORD });
    const { view } = await apiKeysOf(handle.db, user).generate({
      name: "limits",
      environment: "test",
      expiresInDays: null,
      workspaceId: null,
    });
    const limit = createApiRateLimit(handle.db);
    const limits = { perHour: 100, burst: 2 };
    setTestClock(() => new Date(T0));
    expect(await limit.consume(view.id, limits)).toEqual({ limit: 100, remaining: 99, reset: T0 / 1000 + 3600 });
    await limit.consume(view.id, limits);
    expect((await limit.consume(view.id, limits)).retryAfter).toBe(60);
    setTestClock(() => new Date(T0 + 60_000));
    expect(await limit.consume(view.id, limits)).toEqual({ limit: 100, remaining: 97, reset: T0 / 1000 + 3600 });
    expect((await limit.peek([view.id], limits)).get(view.id)).toEqual({
      limit: 100,
      remaining: 97,
      reset: T0 / 1000 + 3600,
    });
  });

  it("a bearer-failure block ends when the clock passes it", async () => {
    const failures = createBearerFailures(handle, 2);
    setTestClock(() => new Date(T0));
    const ip = `198.51.100.${Math.floor(Math.random() * 250)}`;
    await failures.record(ip);
    expect(failures.blockedFor(ip)).toBe(0);
    await failures.record(ip);
    expect(failures.blockedFor(ip)).toBeGreaterThan(50);
    setTestClock(() => new Date(T0 + 61_000));
    expect(failures.blockedFor(ip)).toBe(0);
  });
});
