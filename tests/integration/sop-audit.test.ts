/**
 * The SOP module's acts record their audit event in their own transaction: an act that succeeds leaves exactly
 * one event with its name, actor, address and detail; an act that fails leaves none; and an event that cannot
 * be written undoes the act. Through the repositories, on a real database (both dialects).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { triggersOf } from "~/modules/sops/sop-triggers.server";
import { sopsOf } from "~/modules/sops/sops.server";
import { twoTenants, type Fixture } from "./isolation/fixture";

let f: Fixture;
beforeAll(async () => {
  f = await twoTenants();
});
afterAll(() => f.close());

const sops = () => sopsOf(f.db, f.a.workspace.id, f.box);
const triggers = () => triggersOf(f.db, f.a.workspace.id, f.box);
const fields = (slug: string) => ({ name: slug, slug, description: "", callbackUrl: null });

/** The workspace's events written by `act`, oldest first. */
async function eventsOf(act: () => Promise<unknown>) {
  const before = new Set(
    (await f.db.selectFrom("audit_events").select("id").where("workspace_id", "=", f.a.workspace.id).execute()).map(
      (r) => r.id,
    ),
  );
  const outcome = await act().then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  const rows = await f.db
    .selectFrom("audit_events")
    .select(["id", "action", "actor_user_id", "ip", "detail"])
    .where("workspace_id", "=", f.a.workspace.id)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  const events = rows
    .filter((r) => !before.has(r.id))
    .map(({ action, actor_user_id, ip, detail }) => ({
      action,
      actor: actor_user_id,
      ip,
      detail: JSON.parse(detail) as unknown,
    }));
  return { ...outcome, events };
}

const by = () => ({ actor: f.a.user.id, ip: "192.0.2.1" });

describe("SOP acts and their audit events", () => {
  it("records one event per act, with its name and detail", async () => {
    const created = await eventsOf(() => sops().create(f.a.actor, fields("audited"), []));
    const id = (created.value as { id: string }).id;
    expect(created.events).toEqual([{ action: "sop.created", ...by(), detail: { sopId: id, slug: "audited" } }]);

    expect((await eventsOf(() => sops().update(f.a.actor, id, fields("audited"), []))).events).toEqual([
      { action: "sop.updated", ...by(), detail: { sopId: id } },
    ]);
    expect((await eventsOf(() => sops().setEnabled(f.a.actor, id, false))).events).toEqual([
      { action: "sop.disabled", ...by(), detail: { sopId: id } },
    ]);
    expect((await eventsOf(() => sops().setEnabled(f.a.actor, id, true))).events).toEqual([
      { action: "sop.enabled", ...by(), detail: { sopId: id } },
    ]);

    const issued = await eventsOf(() => triggers().create(f.a.actor, id));
    const triggerId = (issued.value as { triggerId: string }).triggerId;
    expect(issued.events).toEqual([{ action: "sop.trigger.created", ...by(), detail: { sopId: id, triggerId } }]);
    expect((await eventsOf(() => triggers().rotate(f.a.actor, id, triggerId))).events).toEqual([
      { action: "sop.trigger.rotated", ...by(), detail: { sopId: id, triggerId } },
    ]);
    expect((await eventsOf(() => triggers().remove(f.a.actor, id, triggerId))).events).toEqual([
      { action: "sop.trigger.deleted", ...by(), detail: { sopId: id, triggerId } },
    ]);
    expect((await eventsOf(() => sops().remove(f.a.actor, id))).events).toEqual([
      { action: "sop.deleted", ...by(), detail: { sopId: id, slug: "audited" } },
    ]);
  });

  it("records nothing when the act fails", async () => {
    const { id } = await sops().create(f.a.actor, fields("first"), []);
    await sops().create(f.a.actor, fields("second"), []);
    const taken = await eventsOf(() => sops().create(f.a.actor, fields("first"), []));
    expect(taken.error).toMatchObject({ kind: "conflict" });
    expect(taken.events).toEqual([]);
    const renamed = await eventsOf(() => sops().update(f.a.actor, id, fields("second"), []));
    expect(renamed.error).toMatchObject({ kind: "conflict" });
    expect(renamed.events).toEqual([]);

    const { triggerId } = await triggers().create(f.a.actor, id);
    const again = await eventsOf(() => triggers().create(f.a.actor, id));
    expect(again.error).toMatchObject({ kind: "conflict" });
    expect(again.events).toEqual([]);
    const elsewhere = await eventsOf(() => triggers().rotate(f.a.actor, id, "no-such-trigger"));
    expect(elsewhere.error).toMatchObject({ kind: "not-found" });
    expect(elsewhere.events).toEqual([]);
    const gone = await eventsOf(() => triggers().remove(f.a.actor, "no-such-sop", triggerId));
    expect(gone.error).toMatchObject({ kind: "not-found" });
    expect(gone.events).toEqual([]);
  });

  it("undoes the act when its event cannot be written", async () => {
    // An actor that is no user: the event's foreign key refuses it, inside the act's transaction.
    const ghost = { userId: "no-such-user", ip: null };
    const created = await eventsOf(() => sops().create(ghost, fields("ghosted"), []));
    expect(created.error).toBeDefined();
    expect(await f.db.selectFrom("sops").select("id").where("slug", "=", "ghosted").execute()).toEqual([]);

    const { id } = await sops().create(f.a.actor, fields("kept"), []);
    const { triggerId } = await triggers().create(f.a.actor, id);
    const secretBefore = await f.rowsOf("sop_triggers", "id", triggerId);
    expect((await eventsOf(() => triggers().rotate(ghost, id, triggerId))).error).toBeDefined();
    expect(await f.rowsOf("sop_triggers", "id", triggerId)).toEqual(secretBefore);
    expect((await eventsOf(() => sops().setEnabled(ghost, id, false))).error).toBeDefined();
    expect((await sops().get(id)).enabled).toBe(true);
    expect((await eventsOf(() => sops().remove(ghost, id))).error).toBeDefined();
    expect((await sops().get(id)).id).toBe(id);
  });
});
