/**
 * What `npm start` prints, as a self-hoster sees it: JSON records only when its output is piped (process
 * managers, the CI smoke test), readable lines and a plain-text banner with LOG_FORMAT=pretty.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freshDatabase, type TestDatabase } from "../helpers/database";
import { tempDir, type TempDir } from "../helpers/temp";

let database: TestDatabase | undefined;
let data: TempDir | undefined;
afterEach(async () => {
  await database?.drop();
  data?.remove();
});

/** `node scripts/launch.mjs server` (what `npm start` runs) until its banner, then SIGTERM; returns stdout. */
async function startAndStop(env: Record<string, string>, ready: RegExp): Promise<string> {
  database = await freshDatabase();
  data = tempDir("atrium-start-up");
  const child = spawn(process.execPath, ["scripts/launch.mjs", "server"], {
    env: {
      ...process.env,
      NODE_ENV: "development",
      DATABASE_URL: database.url,
      PORT: "0",
      HOST: "127.0.0.1",
      SEED_DEMO: "true",
      APP_KEY: "",
      APP_KEY_FILE: join(data.path, "app.key"),
      ...env,
    },
  });
  let stdout = "";
  let stopping = false;
  child.stdout.on("data", (d: Buffer) => {
    stdout += d.toString();
    const url = /Atrium is listening on (http:\/\/[\d.:]+)/.exec(stdout)?.[1];
    if (stopping || !url || !ready.test(stdout)) return;
    stopping = true;
    // An answer means main() has returned, its SIGTERM handler in place; then stop it as a process manager does.
    void fetch(`${url}/api/health/live`).then(() => child.kill("SIGTERM"));
  });
  const [code] = (await once(child, "exit")) as [number | null];
  expect(code).toBe(0);
  return stdout;
}

describe("npm start's output", () => {
  it("is JSON records only on a pipe, the banner one of them, the password in no other", async () => {
    const stdout = await startAndStop({}, /Atrium is listening on/);
    const lines = stdout.split("\n").filter((line) => line !== "");
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const banner = records.find((r) => String(r.msg).startsWith("Atrium is listening on"));
    const url = String(banner?.url);
    expect(banner).toMatchObject({
      msg: `Atrium is listening on ${url}`,
      database: database?.dialect,
      appKey: join(data?.path ?? "", "app.key"),
      demo: { email: "demo@atrium.test", password: "atrium-demo-password", site: `${url}/harbor-bakery` },
    });
    // Where the data is, and no credentials of the database's.
    const { host, pathname } = new URL(database?.url ?? "");
    expect(banner?.databaseLocation).toBe(
      database?.dialect === "postgres" ? `postgres://${host}${pathname}` : database?.url.slice("file:".length),
    );
    // The seed's record names the account; the credentials are in the banner alone.
    expect(records.filter((r) => JSON.stringify(r).includes("atrium-demo-password"))).toEqual([banner]);
    expect(stdout).not.toMatch(/empty chunk/i);
    expect(records.at(-1)?.msg).toBe("stopped");
  });

  it("is readable lines and a plain-text banner with LOG_FORMAT=pretty, even on a pipe", async () => {
    const stdout = await startAndStop({ LOG_FORMAT: "pretty" }, /Ctrl\+C stops it/);
    expect(stdout).not.toMatch(/^\{/m);
    expect(stdout).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: demo data seeded/m);
    expect(stdout).toMatch(/^ {2}Atrium is listening on http:\/\/127\.0\.0\.1:\d+$/m);
    expect(stdout).toMatch(/^ {2}Sign in +demo@atrium\.test \/ atrium-demo-password$/m);
    expect(stdout).toMatch(/^ {2}Demo site +http:\/\/127\.0\.0\.1:\d+\/harbor-bakery$/m);
    expect(stdout).toContain(`App key    ${join(data?.path ?? "", "app.key")}`);
    expect(stdout).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: stopped/m);
  });
});
