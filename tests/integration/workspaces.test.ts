/** Workspaces, the picker, settings and members, through the console's own forms. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Client,
  addMember,
  createWorkspace,
  lastMailTo,
  linkIn,
  mailedText,
  signUp,
  uniqueEmail,
} from "../helpers/client";
import { TOKEN_NOT_STORED } from "~/modules/mail/mail.server";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function userId(email: string) {
  return (await server.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
}

describe("creating a workspace", () => {
  it("creates it, makes the creator its owner, selects it and lists it in the picker", async () => {
    const { client, email } = await signUp(server.url);
    const res = await client.post("/?index", { intent: "create", name: "Acme", slug: "acme-create" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/get-started");
    const picker = await (await client.get("/")).text();
    expect(picker).toContain("Acme");
    expect(picker).toContain("/acme-create");
    const member = await server.db
      .selectFrom("workspace_members")
      .innerJoin("workspaces", "workspaces.id", "workspace_members.workspace_id")
      .select(["role", "owner_user_id"])
      .where("workspaces.slug", "=", "acme-create")
      .executeTakeFirstOrThrow();
    expect(member).toEqual({ role: "owner", owner_user_id: await userId(email) });
    const started = await client.get("/get-started");
    expect(started.status).toBe(200);
    expect(await started.text()).toMatch(/Get started with (<!-- -->)?Acme/);
  });

  it("shows an empty state before the first workspace", async () => {
    const { client } = await signUp(server.url);
    expect(await (await client.get("/")).text()).toContain("You have no workspaces yet");
  });

  it.each([
    ["settings", "reserved"],
    ["api", "reserved"],
    ["login", "reserved"],
    ["oauth", "reserved"],
    ["Acme", "lowercase"],
    ["acme co", "lowercase"],
    ["-acme", "hyphen"],
    ["a", "at least 2"],
  ])("refuses the slug %j with a clear message", async (slug, words) => {
    const { client } = await signUp(server.url);
    const res = await client.post("/?index", { intent: "create", name: "Anything", slug });
    expect(res.status).toBe(400);
    expect((await res.text()).toLowerCase()).toContain(words.toLowerCase());
    const count = await server.db.selectFrom("workspaces").select("id").where("name", "=", "Anything").execute();
    expect(count).toHaveLength(0);
  });

  it("refuses a slug another workspace has", async () => {
    const a = await signUp(server.url);
    await createWorkspace(a.client, "First", "taken-slug");
    const b = await signUp(server.url);
    const res = await b.client.post("/?index", { intent: "create", name: "Second", slug: "taken-slug" });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("already taken");
  });

  it("sends pages that need a workspace back to the picker when none is selected", async () => {
    const { client } = await signUp(server.url);
    const res = await client.get("/settings");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
  });
});

describe("how many workspaces", () => {
  const create = (client: Client, slug: string) => client.post("/?index", { intent: "create", name: slug, slug });

  it("caps the workspaces a Free account owns at its plan's number", async () => {
    const { client } = await signUp(server.url);
    for (const slug of ["cap-one", "cap-two", "cap-three"]) expect((await create(client, slug)).status).toBe(302);
    const refused = await create(client, "cap-four");
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("The Free plan allows 3 workspaces of your own");
    expect(await server.db.selectFrom("workspaces").select("id").where("slug", "=", "cap-four").execute()).toEqual([]);
  });

  it("throttles new workspaces per account, with Retry-After, under a larger plan too", async () => {
    const { client, email } = await signUp(server.url);
    await server.db.updateTable("users").set({ tier: "pro" }).where("email", "=", email).execute();
    // An invalid form is not counted.
    expect((await create(client, "-bad")).status).toBe(400);
    for (let i = 1; i <= 5; i += 1) expect((await create(client, `pro-many-${i}`)).status).toBe(302);
    const refused = await create(client, "pro-many-6");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(59 * 60);
    expect(await refused.text()).toContain("Too many new workspaces");
  });
});

describe("settings and members", () => {
  let owner: { client: Client; email: string };
  let admin: { client: Client; email: string };
  let viewer: { client: Client; email: string };

  beforeAll(async () => {
    owner = await signUp(server.url);
    admin = await signUp(server.url);
    viewer = await signUp(server.url);
    await createWorkspace(owner.client, "Members Co", "members-co");
    await addMember(server.url, owner.client, admin, "admin");
    await addMember(server.url, owner.client, viewer, "viewer");
    const workspace = await server.db
      .selectFrom("workspaces")
      .select("id")
      .where("slug", "=", "members-co")
      .executeTakeFirstOrThrow();
    for (const m of [admin, viewer]) {
      const res = await m.client.post("/?index", { intent: "select", workspaceId: workspace.id });
      expect(res.status).toBe(302);
    }
  });

  it("lists the members with their roles", async () => {
    const html = await (await owner.client.get("/settings")).text();
    for (const m of [owner, admin, viewer]) expect(html).toContain(m.email);
  });

  it("lets an admin rename the workspace and move its site", async () => {
    const res = await admin.client.post("/settings", {
      intent: "workspace",
      name: "Members & Co",
      slug: "members-and-co",
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Saved.");
    const site = await fetch(`${server.url}/members-and-co`);
    expect(site.status).toBe(200);
    expect(await site.text()).toContain("Members &amp; Co");
    // The old address follows for 90 days (ADR 019; tests/integration/site-address.test.ts).
    const moved = await fetch(`${server.url}/members-co`, { redirect: "manual" });
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe("/members-and-co");
  });

  it("refuses a reserved slug in settings too", async () => {
    const res = await owner.client.post("/settings", { intent: "workspace", name: "X", slug: "settings" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("reserved");
  });

  it("refuses every change from a viewer with 403", async () => {
    const before = await server.db
      .selectFrom("workspaces")
      .select(["name", "slug"])
      .where("slug", "=", "members-and-co")
      .executeTakeFirstOrThrow();
    const attempts: Record<string, string>[] = [
      { intent: "workspace", name: "Hijacked", slug: "hijacked" },
      { intent: "invite", email: owner.email, role: "admin" },
      { intent: "remove-member", userId: await userId(admin.email) },
    ];
    for (const fields of attempts) {
      expect((await viewer.client.post("/settings", fields)).status, fields.intent).toBe(403);
    }
    const after = await server.db
      .selectFrom("workspaces")
      .select(["name", "slug"])
      .where("slug", "=", "members-and-co")
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect(await (await viewer.client.get("/settings")).text()).toContain(
      "you can see these settings but not change them",
    );
  });

  it("never removes or demotes the owner", async () => {
    const ownerId = await userId(owner.email);
    expect((await admin.client.post("/settings", { intent: "remove-member", userId: ownerId })).status).toBe(403);
    expect(
      (await admin.client.post("/settings", { intent: "change-role", userId: ownerId, role: "viewer" })).status,
    ).toBe(403);
    const role = await server.db
      .selectFrom("workspace_members")
      .select("role")
      .where("user_id", "=", ownerId)
      .executeTakeFirstOrThrow();
    expect(role.role).toBe("owner");
  });

  it("invites a known and an unknown address with the same answer, and refuses an existing member", async () => {
    const known = await signUp(server.url);
    const unknownEmail = uniqueEmail("newcomer");
    const answers = [];
    for (const email of [known.email, unknownEmail]) {
      const res = await owner.client.post("/settings", { intent: "invite", email, role: "editor" });
      answers.push({ status: res.status, message: (await res.text()).includes(`Invitation sent to ${email}.`) });
      const mail = await lastMailTo(server.url, email);
      // Renamed "Members & Co" by a test above.
      expect(mail.subject).toMatch(/^You are invited to Members (& )?Co on Atrium$/);
      expect(linkIn(mailedText(server.url, email), "/invitations")).toMatch(/^\/invitations\?token=[\w-]{43}$/);
      // The record keeps the message without the link's token (DESIGN rule 4).
      expect(mail.body).toContain(`/invitations?token=${TOKEN_NOT_STORED}`);
    }
    expect(answers).toEqual([
      { status: 200, message: true },
      { status: 200, message: true },
    ]);
    // Only a hash of each link's token is stored, and the workspace's outbox does not show it; both are pending,
    // listed with a way to revoke them.
    const link = linkIn(mailedText(server.url, unknownEmail), "/invitations");
    const token = new URL(link, server.url).searchParams.get("token")!;
    const stored = await server.db.selectFrom("workspace_invitations").select("token_hash").execute();
    expect(stored.map((r) => r.token_hash)).not.toContain(token);
    const bodies = await server.db.selectFrom("mail_messages").select("body").execute();
    expect(bodies.filter((m) => m.body.includes(token))).toEqual([]);
    const outbox = await (await owner.client.get("/settings/outbox")).text();
    expect(outbox).toContain(`/invitations?token=${TOKEN_NOT_STORED}`);
    expect(outbox).not.toContain(token);
    const settings = await (await owner.client.get("/settings")).text();
    expect(settings).toContain("Pending invitations");
    expect(settings).toContain(unknownEmail);
    expect(settings).toContain(known.email);

    const again = await owner.client.post("/settings", { intent: "invite", email: admin.email, role: "editor" });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("already a member");
  });

  it("lets a newcomer sign up from the invitation and join; the link works once", async () => {
    const email = uniqueEmail("joiner");
    await owner.client.post("/settings", { intent: "invite", email, role: "viewer" });
    const link = linkIn(mailedText(server.url, email), "/invitations");
    const visitor = new Client(server.url);
    const page = await (await visitor.get(link)).text();
    // The workspace is renamed "Members & Co" by a test above.
    expect(page).toMatch(/Join Members (&amp; )?Co/);
    expect(page).toContain(`/signup?redirectTo=${encodeURIComponent(link)}`);
    // Taking the sign-in link first and switching to sign-up keeps the way back.
    const login = await (await visitor.get(`/login?redirectTo=${encodeURIComponent(link)}`)).text();
    expect(login).toContain(`/signup?redirectTo=${encodeURIComponent(link)}`);
    // Sign-up carries the invitation through its own e-mailed link, back to the invitation.
    const { location } = await signUp(server.url, email, { client: visitor, redirectTo: link });
    expect(location).toBe(link);
    const accepted = await visitor.post(link, {});
    expect(accepted.status).toBe(302);
    const memberships = await server.db
      .selectFrom("workspace_members")
      .innerJoin("workspaces", "workspaces.id", "workspace_members.workspace_id")
      .select(["workspaces.owner_user_id", "role"])
      .where("user_id", "=", await userId(email))
      .execute();
    expect(memberships).toEqual([{ owner_user_id: await userId(owner.email), role: "viewer" }]);
    expect(await (await visitor.get("/settings")).text()).toMatch(/Members (&amp; )?Co/);
    expect((await visitor.post(link, {})).status).toBe(404);
  });

  it("accepts only as the invited address, and not after revocation", async () => {
    const invited = await signUp(server.url);
    const other = await signUp(server.url);
    await owner.client.post("/settings", { intent: "invite", email: invited.email, role: "editor" });
    const link = linkIn(mailedText(server.url, invited.email), "/invitations");
    const wrong = await other.client.post(link, {});
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toContain(`This invitation is for ${invited.email}`);

    const { id } = await server.db
      .selectFrom("workspace_invitations")
      .select("id")
      .where("email", "=", invited.email)
      .executeTakeFirstOrThrow();
    const revoked = await owner.client.post("/settings", { intent: "revoke-invitation", invitationId: id });
    expect(revoked.status).toBe(200);
    expect((await invited.client.post(link, {})).status).toBe(404);
    const events = await server.db
      .selectFrom("audit_events")
      .select("action")
      .where("action", "in", ["member.invited", "member.invitation_revoked"])
      .execute();
    expect(events.map((e) => e.action)).toContain("member.invitation_revoked");
  });

  it("throttles invitations per inviter across workspaces: the 21st in an hour is refused with Retry-After", async () => {
    const inviter = await signUp(server.url);
    await createWorkspace(inviter.client, "Busy Inviter", "busy-inviter");
    for (let i = 0; i < 20; i += 1) {
      const res = await inviter.client.post("/settings", {
        intent: "invite",
        email: uniqueEmail("bulk"),
        role: "viewer",
      });
      expect(res.status).toBe(200);
    }
    // A second workspace of their own (now selected) brings no fresh allowance.
    await createWorkspace(inviter.client, "Busy Inviter Two", "busy-inviter-two");
    const refused = await inviter.client.post("/settings", { intent: "invite", email: uniqueEmail(), role: "viewer" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(59 * 60);
    expect(await refused.text()).toContain("Too many invitations");
  });

  it("throttles invitations per recipient across the deployment, whichever workspace sends them", async () => {
    const recipient = uniqueEmail("popular");
    const first = await signUp(server.url);
    await createWorkspace(first.client, "First Sender", "first-sender");
    const second = await signUp(server.url);
    await createWorkspace(second.client, "Second Sender", "second-sender");
    const invite = (client: Client) => client.post("/settings", { intent: "invite", email: recipient, role: "viewer" });
    expect((await invite(first.client)).status).toBe(200);
    expect((await invite(first.client)).status).toBe(200);
    expect((await invite(second.client)).status).toBe(200);
    const refused = await invite(second.client);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("Too many invitations");
    // The inviter's own allowance is untouched: another address goes out.
    expect(
      (await second.client.post("/settings", { intent: "invite", email: uniqueEmail(), role: "viewer" })).status,
    ).toBe(200);
  });

  it("changes a role, and removing a member ends their access at once", async () => {
    const viewerId = await userId(viewer.email);
    expect(
      (await owner.client.post("/settings", { intent: "change-role", userId: viewerId, role: "editor" })).status,
    ).toBe(200);
    expect(
      (
        await server.db
          .selectFrom("workspace_members")
          .select("role")
          .where("user_id", "=", viewerId)
          .executeTakeFirstOrThrow()
      ).role,
    ).toBe("editor");
    expect((await owner.client.post("/settings", { intent: "remove-member", userId: viewerId })).status).toBe(200);
    const res = await viewer.client.get("/settings");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    expect(await (await viewer.client.get("/")).text()).not.toContain("Members &amp; Co");
  });

  it("ticks the checklist from real state: a teammate counts once there is one", async () => {
    const html = await (await owner.client.get("/get-started")).text();
    expect(html).toMatch(/Invite a teammate<span class="visually-hidden"> \(done\)/);
    const solo = await signUp(server.url);
    await createWorkspace(solo.client, "Solo", "solo-shop");
    expect(await (await solo.client.get("/get-started")).text()).toMatch(
      /Invite a teammate<span class="visually-hidden"> \(to do\)/,
    );
  });
});

describe("tenant isolation", () => {
  it("answers 404 when an operator selects a workspace they do not belong to", async () => {
    const a = await signUp(server.url);
    const b = await signUp(server.url);
    await createWorkspace(b.client, "Bee", "bee-only");
    const bee = await server.db
      .selectFrom("workspaces")
      .select("id")
      .where("slug", "=", "bee-only")
      .executeTakeFirstOrThrow();
    const form = await a.client.post("/?index", { intent: "select", workspaceId: bee.id });
    expect(form.status).toBe(404);
    const api = await a.client.postJson("/api/editor/session", { workspaceId: bee.id });
    expect(api.status).toBe(404);
    const missing = await a.client.postJson("/api/editor/session", { workspaceId: "01JNOTAREALWORKSPACEID0000" });
    expect(await api.json()).toEqual(await missing.json());
    expect(await (await a.client.get("/")).text()).not.toContain("Bee");
  });

  it("keeps member changes of one workspace inside it", async () => {
    const a = await signUp(server.url);
    const b = await signUp(server.url);
    const bMember = await signUp(server.url);
    await createWorkspace(b.client, "B Shop", "b-shop");
    await addMember(server.url, b.client, bMember, "editor");
    await createWorkspace(a.client, "A Shop", "a-shop");
    // A's owner names B's member: not found in A, and B is untouched.
    const res = await a.client.post("/settings", { intent: "remove-member", userId: await userId(bMember.email) });
    expect(res.status).toBe(404);
    const stillThere = await server.db
      .selectFrom("workspace_members")
      .innerJoin("workspaces", "workspaces.id", "workspace_members.workspace_id")
      .select("role")
      .where("workspaces.slug", "=", "b-shop")
      .where("user_id", "=", await userId(bMember.email))
      .executeTakeFirst();
    expect(stillThere?.role).toBe("editor");
  });
});

describe("the editor session API", () => {
  it("reports the operator and the selected workspace, and refuses bearer-only callers", async () => {
    const { client, email } = await signUp(server.url);
    await createWorkspace(client, "Editor Co", "editor-co");
    const res = await client.get("/api/editor/session");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      user: { email, tier: "free" },
      workspace: { slug: "editor-co", name: "Editor Co", role: "owner" },
    });
    const bearer = await fetch(`${server.url}/api/editor/session`, {
      headers: { authorization: "Bearer atr_live_whatever" },
    });
    expect(bearer.status).toBe(401);
    expect(await bearer.json()).toMatchObject({ error: "Unauthorized", statusCode: 401 });
  });
});
