/**
 * DESIGN rule 2 for event receivers: `receiverSecretsOf` and `receiverEventsOf`, built for workspace A, read
 * none of B's secrets or events and change none of them — not even when given B's row ids — and an event id
 * B holds does not make A's copy of it a duplicate.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { receiverEventsOf } from "~/modules/events/log.server";
import { receiverSecretsOf } from "~/modules/events/secrets.server";
import { twoTenants, type Fixture } from "./fixture";

let f: Fixture;
beforeAll(async () => {
  f = await twoTenants();
});
afterAll(() => f.close());

const services = () => ({ db: f.db, secrets: f.box });
const delivery = (eventId: string) => ({
  family: "branding",
  eventId,
  body: "{}",
  headers: { "webhook-id": eventId },
  verified: true,
});

describe("receiverSecretsOf, built for workspace A", () => {
  it("lists and opens A's secrets only, and cannot revoke B's", async () => {
    const ofB = await receiverSecretsOf(services(), f.b.workspace.id).create(f.b.actor, "branding", 24);
    const ofA = await receiverSecretsOf(services(), f.a.workspace.id).create(f.a.actor, "branding", 24);
    const a = receiverSecretsOf(services(), f.a.workspace.id);
    expect((await a.list()).map((s) => s.id)).toEqual([ofA.id]);
    expect(await a.activeSecrets("branding")).toEqual([ofA.secret]);

    const before = await f.rowsOf("webhook_receiver_secrets", "workspace_id", f.b.workspace.id);
    await expect(a.revoke(f.a.actor, ofB.id)).rejects.toMatchObject({ kind: "not-found" });
    // Rotating A's secret leaves B's current one current.
    await a.create(f.a.actor, "branding", 24);
    expect(await f.rowsOf("webhook_receiver_secrets", "workspace_id", f.b.workspace.id)).toEqual(before);
    expect(await receiverSecretsOf(services(), f.b.workspace.id).activeSecrets("branding")).toEqual([ofB.secret]);
  });
});

describe("receiverEventsOf, built for workspace A", () => {
  it("lists and reads A's events only, and B's event ids do not make A's duplicates", async () => {
    const b = receiverEventsOf(f.db, f.b.workspace.id);
    const a = receiverEventsOf(f.db, f.a.workspace.id);
    const claimedByB = await b.claim(delivery("evt_shared"));
    expect(claimedByB.kind).toBe("claimed");
    if (claimedByB.kind !== "claimed") return;
    await b.settle(claimedByB.id, { status: "applied" });

    expect((await a.claim(delivery("evt_shared"))).kind).toBe("claimed");
    expect((await a.list({ size: 50, offset: 0 })).events.map((e) => e.eventId)).toEqual(["evt_shared"]);
    expect(await a.get(claimedByB.id)).toBeUndefined();

    const before = await f.rowsOf("webhook_receiver_events", "workspace_id", f.b.workspace.id);
    await a.settle(claimedByB.id, { status: "failed", reason: "from A" });
    await a.countReplay(claimedByB.id);
    expect(await f.rowsOf("webhook_receiver_events", "workspace_id", f.b.workspace.id)).toEqual(before);
  });
});
