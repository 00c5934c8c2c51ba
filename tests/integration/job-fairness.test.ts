/**
 * Fair claiming across workspaces (db/job-claims.ts, ADR 010 "Jobs") on a real database (SQLite, or Postgres
 * with TEST_DATABASE_URL): which jobs a claim takes, in which order. Claim order only: no timings.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~db/client";
import { claimDueJobs } from "~db/job-claims";
import { migrateToLatest } from "~db/migrate";
import { createUser } from "~/modules/accounts/users.server";
import { enqueueJob } from "~/modules/jobs/jobs.server";
import { createWorkspace } from "~/modules/tenancy/workspaces.server";
import { PASSWORD, uniqueEmail } from "../helpers/client";
import { freshDatabase, type TestDatabase } from "../helpers/database";

let database: TestDatabase;
let handle: DatabaseHandle;
const workspaces: Record<"A" | "B" | "C", string> = { A: "", B: "", C: "" };

beforeAll(async () => {
  database = await freshDatabase();
  handle = openDatabase(database.url);
  await migrateToLatest(handle.db);
  const user = await createUser(handle.db, { email: uniqueEmail(), password: PASSWORD });
  for (const name of ["A", "B", "C"] as const) {
    workspaces[name] = (await createWorkspace(handle.db, user.id, { name, slug: `fair-${name.toLowerCase()}` })).id;
  }
});
afterAll(async () => {
  await handle.close();
  await database.drop();
});
beforeEach(async () => {
  await handle.db.deleteFrom("jobs").execute();
});

const T0 = Date.parse("2026-01-01T00:00:00Z");
const NOW = new Date(T0 + 3_600_000).toISOString();
let sequence = 0;
/** Jobs queued one second apart, in the order of the calls: the order a global FIFO would claim them in. */
async function queue(owner: keyof typeof workspaces | null, label: string, kind = "work"): Promise<string> {
  const id = await enqueueJob(handle.db, {
    kind,
    payload: { label },
    workspaceId: owner ? workspaces[owner] : null,
    maxAttempts: 1,
    runAt: new Date(T0 + ++sequence * 1000),
  });
  labels.set(id, label);
  return id;
}
const labels = new Map<string, string>();

async function claim(limit: number, kinds = ["work"], workerId = "test-worker"): Promise<string[]> {
  const jobs = await claimDueJobs(handle.db, database.dialect, {
    workerId,
    now: NOW,
    leaseUntil: new Date(T0 + 7_200_000).toISOString(),
    limit,
    kinds,
  });
  return jobs.map((j) => labels.get(j.id)!).sort();
}

async function finish(label: string) {
  const id = [...labels].find(([, l]) => l === label)![0];
  await handle.db
    .updateTable("jobs")
    .set({ status: "done", locked_by: null, locked_until: null })
    .where("id", "=", id)
    .execute();
}

describe("claiming due jobs fairly across workspaces", () => {
  it("claims B's one job among the first, ahead of A's older backlog of twelve", async () => {
    for (let i = 1; i <= 12; i++) await queue("A", `A${i}`);
    await queue("B", "B1");
    // Two free slots (the default JOBS_CONCURRENCY): one for each workspace, not A's two oldest.
    expect(await claim(2)).toEqual(["A1", "B1"]);
  });

  it("gives the next free slot to B while A holds every slot, then goes back to A's backlog", async () => {
    for (let i = 1; i <= 12; i++) await queue("A", `A${i}`);
    // A alone: it gets every free slot (nothing is held back for workspaces that might come).
    expect(await claim(2)).toEqual(["A1", "A2"]);
    await queue("B", "B1");
    // Both slots are A's: B waits for the first one to free, and takes it before A's older A3.
    await finish("A1");
    expect(await claim(1)).toEqual(["B1"]);
    await finish("A2");
    expect(await claim(1)).toEqual(["A3"]);
  });

  it("takes workspaces with backlogs in turns (round-robin), each claim one slot", async () => {
    for (let i = 1; i <= 3; i++) await queue("A", `A${i}`);
    for (let i = 1; i <= 3; i++) await queue("B", `B${i}`);
    for (let i = 1; i <= 2; i++) await queue("C", `C${i}`);
    const order: string[] = [];
    // Claimed jobs stay running: each claim sees what every workspace already holds.
    for (let n = 0; n < 8; n++) order.push(...(await claim(1)));
    expect(order).toEqual(["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3"]);
  });

  it("still runs jobs without a workspace (system work) beside a workspace's backlog", async () => {
    for (let i = 1; i <= 5; i++) await queue("A", `A${i}`);
    await queue(null, "S1");
    expect(await claim(2)).toEqual(["A1", "S1"]);
  });

  it("counts what a workspace holds across kinds and runners, and takes only the kinds asked for", async () => {
    await queue("A", "A-other", "other");
    await queue("A", "A1");
    await queue("A", "A2");
    await queue("B", "B1");
    // Another runner (the only one handling "other") holds one of A's slots.
    expect(await claim(1, ["other"])).toEqual(["A-other"]);
    expect(await claim(1)).toEqual(["B1"]);
  });

  it("takes a job whose runner's lease expired, counting it as no longer held", async () => {
    await queue("A", "A1");
    await queue("A", "A2");
    await queue("B", "B1");
    expect(await claim(1)).toEqual(["A1"]);
    // A1's runner died: its lease ran out before NOW, so A holds nothing and A1 is due again, oldest of all.
    await handle.db
      .updateTable("jobs")
      .set({ locked_until: new Date(T0).toISOString() })
      .where("status", "=", "running")
      .execute();
    expect(await claim(2)).toEqual(["A1", "B1"]);
  });

  it("never gives one job to two runners claiming at once, and each gets its share of the turns", async () => {
    for (let i = 1; i <= 4; i++) await queue("A", `A${i}`);
    for (let i = 1; i <= 2; i++) await queue("B", `B${i}`);
    // On Postgres the two claims run on two connections (SKIP LOCKED); SQLite's single writer serialises them.
    const [first, second] = await Promise.all([claim(3, ["work"], "runner-1"), claim(3, ["work"], "runner-2")]);
    expect([...first, ...second].sort()).toEqual(["A1", "A2", "A3", "A4", "B1", "B2"]);
    const owners = await handle.db.selectFrom("jobs").select(["locked_by"]).where("status", "=", "running").execute();
    expect(owners.filter((o) => o.locked_by === "runner-1")).toHaveLength(3);
  });
});
