/**
 * DESIGN rule 2 for the other scoped repositories: contact events, the mail outbox, members and invitations
 * (per workspace), API keys, OAuth apps and connected apps (per user). Built for A, each finds none of B's rows and changes none of them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeysOf } from "~/modules/api-keys/api-keys.server";
import { pino } from "pino";
import { contactEventsOf } from "~/modules/contacts/contact-events.server";
import { createMailer, mailOf } from "~/modules/mail/mail.server";
import { approve } from "~/modules/oauth/authorization.server";
import { findClient, oauthAppsOf } from "~/modules/oauth/clients.server";
import { connectedAppsOf } from "~/modules/oauth/connected-apps.server";
import { invitationsOf } from "~/modules/tenancy/invitations.server";
import { workspaceOf } from "~/modules/tenancy/workspaces.server";
import { twoTenants, type Fixture } from "./fixture";

let f: Fixture;
const notFound = { kind: "not-found" };
const EMAIL = "customer@example.test";

beforeAll(async () => {
  f = await twoTenants();
});
afterAll(() => f.close());

describe("contactEventsOf, built for workspace A", () => {
  it("does not see workspace B's events, even for the same address", async () => {
    await contactEventsOf(f.db, f.b.workspace.id).record({ email: EMAIL, type: "signup", note: "", source: "test" });
    expect(await contactEventsOf(f.db, f.a.workspace.id).list(EMAIL)).toEqual([]);
    expect(await contactEventsOf(f.db, f.b.workspace.id).list(EMAIL)).toHaveLength(1);
  });

  it("records into its own workspace only", async () => {
    const before = await f.rowsOf("contact_events", "workspace_id", f.b.workspace.id);
    await contactEventsOf(f.db, f.a.workspace.id).record({ email: EMAIL, type: "order", note: "", source: "test" });
    expect(await f.rowsOf("contact_events", "workspace_id", f.b.workspace.id)).toEqual(before);
    expect(await contactEventsOf(f.db, f.a.workspace.id).list(EMAIL)).toMatchObject([{ type: "order" }]);
  });
});

describe("mailOf (the outbox), built for workspace A", () => {
  it("does not list or count workspace B's messages", async () => {
    const mailer = createMailer(
      f.db,
      { MAIL_FROM: "Atrium <test@atrium.test>", OUTBOUND_TIMEOUT_MS: 1000, production: false },
      pino({ level: "silent" }),
    );
    await mailer.send({ workspaceId: f.b.workspace.id, to: EMAIL, subject: "B's receipt", text: "for B" });
    expect(await mailOf(f.db, f.a.workspace.id).list({ size: 50, offset: 0 })).toEqual([]);
    expect(await mailOf(f.db, f.a.workspace.id).count()).toBe(0);
    // B's own outbox has it: the scope is B's, not empty.
    expect(await mailOf(f.db, f.b.workspace.id).list({ size: 50, offset: 0 })).toMatchObject([
      { subject: "B's receipt" },
    ]);
  });
});

describe("workspaceOf (members), built for workspace A", () => {
  it("does not see workspace B's members", async () => {
    const a = workspaceOf(f.db, f.a.workspace.id);
    expect(await a.roleOf(f.b.user.id)).toBeUndefined();
    expect(await a.withRoleOf(f.b.user.id)).toBeUndefined();
    expect((await a.listMembers()).map((m) => m.userId)).toEqual([f.a.user.id]);
  });

  it("cannot change their role or remove them", async () => {
    const before = await f.rowsOf("workspace_members", "workspace_id", f.b.workspace.id);
    const a = workspaceOf(f.db, f.a.workspace.id);
    await expect(a.changeRole(f.a.user.id, f.b.user.id, "viewer")).rejects.toMatchObject(notFound);
    await expect(a.removeMember(f.a.user.id, f.b.user.id)).rejects.toMatchObject(notFound);
    expect(await f.rowsOf("workspace_members", "workspace_id", f.b.workspace.id)).toEqual(before);
  });
});

describe("invitationsOf, built for workspace A", () => {
  it("does not list, revoke or replace workspace B's invitations", async () => {
    await invitationsOf(f.db, f.b.workspace.id).create(f.b.user.id, { email: EMAIL, role: "editor" });
    const before = await f.rowsOf("workspace_invitations", "workspace_id", f.b.workspace.id);
    const [invitation] = await invitationsOf(f.db, f.b.workspace.id).pending();
    const a = invitationsOf(f.db, f.a.workspace.id);
    expect(await a.pending()).toEqual([]);
    await expect(a.revoke(f.a.user.id, invitation!.id)).rejects.toMatchObject(notFound);
    // Inviting the same address to A is A's own invitation; B's stays as it was.
    await a.create(f.a.user.id, { email: EMAIL, role: "viewer" });
    expect(await f.rowsOf("workspace_invitations", "workspace_id", f.b.workspace.id)).toEqual(before);
    expect((await a.pending()).map((i) => i.role)).toEqual(["viewer"]);
  });
});

describe("apiKeysOf, built for user A", () => {
  it("does not see, revoke, roll or touch user B's key", async () => {
    const { view } = await apiKeysOf(f.db, f.b.user).generate({
      name: "bravo",
      environment: "live",
      expiresInDays: null,
      workspaceId: null,
    });
    const before = await f.rowsOf("api_keys", "user_id", f.b.user.id);
    const keys = apiKeysOf(f.db, f.a.user);
    expect(await keys.list({ size: 10, offset: 0 })).toEqual([]);
    expect(await keys.count()).toBe(0);
    await expect(keys.revoke(view.id)).rejects.toMatchObject(notFound);
    await expect(keys.roll(view.id, 0)).rejects.toMatchObject(notFound);
    await keys.touchLastUsed(view.id);
    expect(await f.rowsOf("api_keys", "user_id", f.b.user.id)).toEqual(before);
    expect(await f.rowsOf("api_keys", "user_id", f.a.user.id)).toEqual([]);
  });
});

describe("oauthAppsOf and connectedAppsOf, built for user A", () => {
  it("does not see, rotate or delete user B's app, nor revoke or touch B's grant", async () => {
    const { app } = await oauthAppsOf(f.db, f.b.user.id).register(f.b.actor, {
      name: "Bravo's app",
      clientType: "confidential",
      redirectUris: ["https://b.example/callback"],
    });
    const client = (await findClient(f.db, app.clientId))!;
    const request = {
      client,
      redirectUri: "https://b.example/callback",
      scopes: ["read_profile"],
      state: null,
      codeChallenge: null,
    };
    await approve(f.db, request, f.b.user.id, "https://atrium.example");
    const [grant] = await connectedAppsOf(f.db, f.b.user.id).list();
    const before = {
      clients: await f.rowsOf("oauth_clients", "owner_user_id", f.b.user.id),
      grants: await f.rowsOf("oauth_grants", "user_id", f.b.user.id),
    };

    const apps = oauthAppsOf(f.db, f.a.user.id);
    expect(await apps.list()).toEqual([]);
    await expect(apps.rotateSecret(f.a.actor, app.clientId)).rejects.toMatchObject(notFound);
    await expect(apps.remove(f.a.actor, app.clientId)).rejects.toMatchObject(notFound);
    const connected = connectedAppsOf(f.db, f.a.user.id);
    expect(await connected.list()).toEqual([]);
    await expect(connected.revoke(f.a.actor, grant!.grantId)).rejects.toMatchObject(notFound);
    await connected.touchLastUsed(grant!.grantId);

    expect({
      clients: await f.rowsOf("oauth_clients", "owner_user_id", f.b.user.id),
      grants: await f.rowsOf("oauth_grants", "user_id", f.b.user.id),
    }).toEqual(before);
    // And B's own repository does reach it: the scope is B's, not empty.
    await connectedAppsOf(f.db, f.b.user.id).touchLastUsed(grant!.grantId);
    expect((await connectedAppsOf(f.db, f.b.user.id).list())[0]?.lastUsedAt).not.toBeNull();
  });
});
