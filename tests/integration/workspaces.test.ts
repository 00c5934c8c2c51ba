/** Workspaces, the picker, settings and members, through the console's own forms. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, createWorkspace, signUp } from "../helpers/client";
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

describe("settings and members", () => {
  let owner: { client: Client; email: string };
  let admin: { client: Client; email: string };
  let viewer: { client: Client; email: string };

  beforeAll(async () => {
    owner = await signUp(server.url);
    admin = await signUp(server.url);
    viewer = await signUp(server.url);
    await createWorkspace(owner.client, "Members Co", "members-co");
    expect(
      (await owner.client.post("/settings", { intent: "add-member", email: admin.email, role: "admin" })).status,
    ).toBe(200);
    expect(
      (await owner.client.post("/settings", { intent: "add-member", email: viewer.email, role: "viewer" })).status,
    ).toBe(200);
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
    expect((await fetch(`${server.url}/members-co`)).status).toBe(404);
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
      { intent: "add-member", email: owner.email, role: "admin" },
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

  it("refuses to add an unknown email or an existing member, with the reason by the field", async () => {
    const unknown = await owner.client.post("/settings", {
      intent: "add-member",
      email: "nobody@example.test",
      role: "editor",
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("ask them to sign up first");
    const again = await owner.client.post("/settings", { intent: "add-member", email: admin.email, role: "editor" });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("already a member");
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
    await b.client.post("/settings", { intent: "add-member", email: bMember.email, role: "editor" });
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
