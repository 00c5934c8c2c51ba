/** The self-hoster's commands, run as they would be: `npm run admin -- …` against a database. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrations } from "~db/migrations";
import { freshDatabase, type TestDatabase } from "../helpers/database";
import { Client, PASSWORD } from "../helpers/client";
import { runCommand } from "../helpers/process";
import { startServer } from "../helpers/server";

let database: TestDatabase;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.drop());

const run = (command: string, ...args: string[]) => runCommand(database.url, command, ...args);

describe("npm run db:migrate and db:seed", () => {
  it("migrates, then seeds the demo only into an empty database", async () => {
    expect(await run("migrate")).toMatchObject({
      code: 0,
      // Every migration of the list, in its order (the list is the one the server applies).
      stdout: `Applied ${Object.keys(migrations).join(", ")}.\n`,
    });
    expect(await run("migrate")).toMatchObject({ code: 0, stdout: "The database is up to date.\n" });
    const seeded = await run("seed");
    expect(seeded.code).toBe(0);
    expect(seeded.stdout).toContain("demo@atrium.test");
    expect((await run("seed")).stdout).toContain("only into an empty database");
  });
});

describe("npm run admin", () => {
  it("creates a user who can then sign in", async () => {
    const created = await run(
      "admin",
      "users:create",
      "--email",
      "Owner@Example.test",
      "--password",
      PASSWORD,
      "--tier",
      "pro",
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^Created owner@example\.test \(id \w+, tier pro\)\.\n$/);
    const server = await startServer({}, database);
    try {
      expect(
        (await new Client(server.url).post("/login", { email: "owner@example.test", password: PASSWORD })).status,
      ).toBe(302);
    } finally {
      await server.close();
    }
  });

  it("sets a tier and refuses an unknown one", async () => {
    expect(await run("admin", "users:set-tier", "owner@example.test", "enterprise")).toMatchObject({
      code: 0,
      stdout: "owner@example.test is now on the enterprise tier.\n",
    });
    const bad = await run("admin", "users:set-tier", "owner@example.test", "gold");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Unknown tier "gold"');
  });

  it("suspends and reactivates", async () => {
    expect((await run("admin", "users:suspend", "owner@example.test")).stdout).toContain(
      "is suspended and signed out everywhere",
    );
    expect((await run("admin", "users:show", "owner@example.test")).stdout).toContain("status suspended");
    expect((await run("admin", "users:suspend", "owner@example.test", "--undo")).stdout).toContain("is active again");
  });

  it("fails with a clear message and a non-zero exit", async () => {
    const missing = await run("admin", "users:suspend", "ghost@example.test");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No account with the email ghost@example.test");
    const invalid = await run("admin", "users:create", "--email", "not-an-email", "--password", "x");
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain("Enter a valid email address");
    const common = await run("admin", "users:create", "--email", "new@example.test", "--password", "password12");
    expect(common.code).toBe(1);
    expect(common.stderr).toContain("lists of common or leaked passwords");
    const unknown = await run("admin", "users:fly");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "users:fly"');
  });

  it("sets an enterprise account's own limits, and refuses them for other tiers", async () => {
    const set = await run("admin", "users:set-limits", "owner@example.test", "--per-hour", "50000", "--burst", "2000");
    expect(set).toMatchObject({
      code: 0,
      stdout: "owner@example.test may make 50000 requests per hour per key, 2000 per minute.\n",
    });
    await run("admin", "users:set-tier", "owner@example.test", "pro");
    const refused = await run("admin", "users:set-limits", "owner@example.test", "--per-hour", "5", "--burst", "5");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("custom limits are for enterprise accounts");
    const bad = await run("admin", "users:set-limits", "owner@example.test", "--per-hour", "lots", "--burst", "5");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--per-hour must be a whole number above 0");
  });

  it("creates an API key that works, printing only the key on stdout", async () => {
    const created = await run("admin", "keys:create", "owner@example.test", "--name", "provisioning");
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^atr_live_[0-9A-Za-z]{36}\n$/);
    expect(created.stderr).toContain('Created key "provisioning"');
    const server = await startServer({}, database);
    try {
      const res = await fetch(`${server.url}/api/auth/me`, {
        headers: { authorization: `Bearer ${created.stdout.trim()}` },
      });
      expect(res.status).toBe(200);
      expect((await res.json()).email).toBe("owner@example.test");
    } finally {
      await server.close();
    }
  });

  it("deletes only with --yes", async () => {
    const refused = await run("admin", "users:delete", "owner@example.test");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("Add --yes to confirm");
    const deleted = await run("admin", "users:delete", "owner@example.test", "--yes");
    expect(deleted).toMatchObject({ code: 0, stdout: "Deleted owner@example.test and 0 workspaces it owned.\n" });
    expect((await run("admin", "users:show", "owner@example.test")).code).toBe(1);
  });
});
