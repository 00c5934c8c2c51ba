/**
 * The OAuth module's acts record their account audit event in their own transaction (issue "The house for forty
 * modules", item 5): registering, rotating and deleting an app, and revoking a connected app, each leave exactly
 * one event; an event that cannot be written undoes the act. Through the repositories, on a real database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approve } from "~/modules/oauth/authorization.server";
import { findClient, oauthAppsOf } from "~/modules/oauth/clients.server";
import { connectedAppsOf } from "~/modules/oauth/connected-apps.server";
import { twoTenants, type Fixture } from "./isolation/fixture";

let f: Fixture;
beforeAll(async () => {
  f = await twoTenants();
});
afterAll(() => f.close());

const APP = { name: "Ledger sync", clientType: "confidential" as const, redirectUris: ["https://ledger.example/cb"] };
/** An actor the audit trail cannot name: its event fails on the foreign key, so the act must not stay. */
const ghost = { userId: "no-such-user", ip: null };

async function eventsOf(userId: string) {
  const rows = await f.db
    .selectFrom("audit_events")
    .select(["action", "actor_user_id", "ip", "detail"])
    .where("user_id", "=", userId)
    .where("action", "like", "oauth.%")
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ action: r.action, actor: r.actor_user_id, ip: r.ip, detail: JSON.parse(r.detail) }));
}

describe("OAuth apps and their audit events", () => {
  it("records one event per act", async () => {
    const apps = oauthAppsOf(f.db, f.a.user.id);
    const { app } = await apps.register(f.a.actor, APP);
    await apps.rotateSecret(f.a.actor, app.clientId);
    await apps.remove(f.a.actor, app.clientId);
    const by = { actor: f.a.user.id, ip: "192.0.2.1", detail: { clientId: app.clientId } };
    expect(await eventsOf(f.a.user.id)).toEqual([
      { action: "oauth.app.registered", ...by },
      { action: "oauth.app.secret_rotated", ...by },
      { action: "oauth.app.deleted", ...by },
    ]);
  });

  it("undoes the act when its event cannot be written", async () => {
    const apps = oauthAppsOf(f.db, f.b.user.id);
    await expect(apps.register(ghost, { ...APP, name: "Ghost app" })).rejects.toThrow();
    expect((await apps.list()).map((a) => a.name)).not.toContain("Ghost app");

    const { app } = await apps.register(f.b.actor, APP);
    const stored = await f.rowsOf("oauth_clients", "id", app.clientId);
    await expect(apps.rotateSecret(ghost, app.clientId)).rejects.toThrow();
    await expect(apps.remove(ghost, app.clientId)).rejects.toThrow();
    expect(await f.rowsOf("oauth_clients", "id", app.clientId)).toEqual(stored);

    const client = (await findClient(f.db, app.clientId))!;
    const request = {
      client,
      redirectUri: APP.redirectUris[0]!,
      scopes: ["read_profile"],
      state: null,
      codeChallenge: null,
    };
    await approve(f.db, request, f.b.user.id, "https://atrium.example");
    const connected = connectedAppsOf(f.db, f.b.user.id);
    const [grant] = await connected.list();
    await expect(connected.revoke(ghost, grant!.grantId)).rejects.toThrow();
    expect(await connected.list()).toHaveLength(1);

    await connected.revoke(f.b.actor, grant!.grantId);
    expect(await connected.list()).toEqual([]);
    expect((await eventsOf(f.b.user.id)).at(-1)).toEqual({
      action: "oauth.grant.revoked",
      actor: f.b.user.id,
      ip: "192.0.2.1",
      detail: { grantId: grant!.grantId },
    });
  });
});
