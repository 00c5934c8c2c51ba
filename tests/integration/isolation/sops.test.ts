/**
 * DESIGN rule 2 for the SOP module's repositories: built for workspace A, each finds none of workspace B's
 * SOPs, triggers, failures, runs or completion notices, and changes none of them (B's rows are compared
 * before and after every attempt).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueRun } from "~/modules/sops/runs.server";
import { runsOf } from "~/modules/sops/sop-runs.server";
import { triggersOf } from "~/modules/sops/sop-triggers.server";
import { sopsOf } from "~/modules/sops/sops.server";
import { twoTenants, type Fixture } from "./fixture";

let f: Fixture;
let sopB: { id: string; slug: string };
let triggerB: string;
let runB: string;
const deliveryB = "msg_bravo";

const notFound = { kind: "not-found" };
const TABLES = ["sops", "sop_triggers", "sop_verification_failures", "sop_runs", "webhook_deliveries", "audit_events"];
const snapshotOfB = async () =>
  Object.fromEntries(
    await Promise.all(TABLES.map(async (t) => [t, await f.rowsOf(t, "workspace_id", f.b.workspace.id)] as const)),
  );

beforeAll(async () => {
  f = await twoTenants();
  const { db, box, b } = f;
  const fields = { name: "Bravo's", slug: "bravo-sop", description: "", callbackUrl: "https://b.example/done" };
  const created = await sopsOf(db, b.workspace.id, box).create(b.actor, fields, []);
  sopB = { id: created.id, slug: created.slug };
  triggerB = (await triggersOf(db, b.workspace.id, box).create(b.actor, sopB.id)).triggerId;
  await triggersOf(db, b.workspace.id, box).recordFailure({
    sopId: sopB.id,
    triggerId: triggerB,
    reason: "bad_signature",
    ip: "192.0.2.9",
    since: "2000-01-01T00:00:00.000Z",
  });
  runB = await queueRun(db, { id: sopB.id, workspace_id: b.workspace.id, steps: "[]" }, triggerB, { n: 1 });
  await runsOf(db, b.workspace.id).addDelivery({
    id: deliveryB,
    sop_id: sopB.id,
    run_id: runB,
    url: "https://b.example/done",
    event_type: "sop.run.succeeded",
    payload: "{}",
    status: "pending",
    attempts: 0,
    response_status: null,
    last_error: null,
    created_at: new Date().toISOString(),
    delivered_at: null,
  });
});
afterAll(() => f.close());

describe("sopsOf, built for workspace A", () => {
  it("does not see workspace B's SOPs", async () => {
    const sops = sopsOf(f.db, f.a.workspace.id, f.box);
    expect(await sops.list()).toEqual([]);
    await expect(sops.get(sopB.id)).rejects.toMatchObject(notFound);
    await expect(sops.callbackSecret(sopB.id)).rejects.toMatchObject(notFound);
  });

  it("cannot change or delete them", async () => {
    const before = await snapshotOfB();
    const sops = sopsOf(f.db, f.a.workspace.id, f.box);
    const fields = { name: "Taken over", slug: "taken-over", description: "", callbackUrl: null };
    await expect(sops.update(f.a.actor, sopB.id, fields, [])).rejects.toMatchObject(notFound);
    await expect(sops.setEnabled(f.a.actor, sopB.id, false)).rejects.toMatchObject(notFound);
    await expect(sops.remove(f.a.actor, sopB.id)).rejects.toMatchObject(notFound);
    expect(await snapshotOfB()).toEqual(before);
    expect(await f.rowsOf("audit_events", "workspace_id", f.a.workspace.id)).toHaveLength(1); // workspace.created
  });
});

describe("triggersOf, built for workspace A", () => {
  it("does not see workspace B's trigger or its failed verifications", async () => {
    const triggers = triggersOf(f.db, f.a.workspace.id, f.box);
    expect(await triggers.ofSop(sopB.id)).toBeNull();
    expect(await triggers.failures(sopB.id)).toEqual({ counts: [], latest: [] });
  });

  it("cannot create, rotate, use or delete it", async () => {
    const before = await snapshotOfB();
    const triggers = triggersOf(f.db, f.a.workspace.id, f.box);
    await expect(triggers.create(f.a.actor, sopB.id)).rejects.toMatchObject(notFound);
    await expect(triggers.rotate(f.a.actor, sopB.id, triggerB)).rejects.toMatchObject(notFound);
    await expect(triggers.remove(f.a.actor, sopB.id, triggerB)).rejects.toMatchObject(notFound);
    await triggers.markUsed(triggerB);
    expect(await snapshotOfB()).toEqual(before);
    expect(await f.rowsOf("sop_triggers", "workspace_id", f.a.workspace.id)).toEqual([]);
  });
});

describe("runsOf, built for workspace A", () => {
  it("does not see workspace B's runs or completion notices", async () => {
    const runs = runsOf(f.db, f.a.workspace.id);
    expect(await runs.list(sopB.id, { size: 10, offset: 0 })).toEqual({ runs: [], total: 0 });
    await expect(runs.get(sopB.id, runB)).rejects.toMatchObject(notFound);
    expect(await runs.row(runB)).toBeUndefined();
    expect(await runs.withCallback(runB)).toBeUndefined();
    expect(await runs.delivery(deliveryB)).toBeUndefined();
    expect(await runs.deliveries(sopB.id)).toEqual([]);
  });

  it("cannot change them", async () => {
    const before = await snapshotOfB();
    const runs = runsOf(f.db, f.a.workspace.id);
    await runs.save(runB, { status: "failed", error: "from A" });
    expect(await runs.finish(runB, { status: "failed", error: "from A" })).toBe(false);
    await runs.recordDelivery(deliveryB, { status: "failed", last_error: "from A" });
    expect(await snapshotOfB()).toEqual(before);
  });

  it("sees its own workspace's rows through the same calls (the scope is not simply empty)", async () => {
    const runs = runsOf(f.db, f.b.workspace.id);
    expect((await runs.list(sopB.id, { size: 10, offset: 0 })).total).toBe(1);
    expect((await runs.get(sopB.id, runB)).id).toBe(runB);
    expect((await runs.delivery(deliveryB))?.id).toBe(deliveryB);
    expect(await triggersOf(f.db, f.b.workspace.id, f.box).ofSop(sopB.id)).toMatchObject({ id: triggerB });
    expect((await sopsOf(f.db, f.b.workspace.id, f.box).list()).map((s) => s.id)).toEqual([sopB.id]);
  });
});
