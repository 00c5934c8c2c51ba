/**
 * Deleting an account leaves nothing of it in any table — counted over every table the database has, so
 * a table added later is audited too — while other people's workspaces keep their data, including the mail
 * they sent to its address.
 */
import { createHash } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listTables } from "../../db/client";
import { Client, PASSWORD, addMember, createWorkspace, signUp } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { TOKEN_NOT_STORED, mailOf } from "~/modules/mail/mail.server";
import { consoleTrigger, createSop, trigger } from "../helpers/sops";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ JOBS_CONCURRENCY: "0" });
});
afterAll(() => server.close());

const idOf = async (email: string) =>
  (await server.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
const workspaceId = async (slug: string) =>
  (await server.db.selectFrom("workspaces").select("id").where("slug", "=", slug).executeTakeFirstOrThrow()).id;

/** Every row of every table in which any value mentions one of `needles`. */
async function rowsMentioning(needles: string[]) {
  const found: { table: string; row: Record<string, unknown> }[] = [];
  for (const table of await listTables(server.db, server.database.dialect)) {
    if (table.startsWith("kysely_migration")) continue;
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(server.db);
    for (const row of rows.rows) {
      const text = JSON.stringify(Object.values(row));
      if (needles.some((n) => text.includes(n))) found.push({ table, row });
    }
  }
  return found;
}

describe("deleting an account", () => {
  it("refuses without the typed email, and deletes nothing", async () => {
    const { client, email } = await signUp(server.url);
    const res = await client.post("/settings/account", { confirmEmail: "someone-else@example.test" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(`Type ${email} to confirm`);
    expect(await idOf(email)).toBeTruthy();
  });

  it("removes the account, its workspaces and every row under them from every table, on this dialect", async () => {
    // The account to delete: owns a workspace with a member, belongs to someone else's workspace, has two
    // sessions, account events, workspace events elsewhere, and a failed sign-in on record.
    const leaving = await signUp(server.url);
    const teammate = await signUp(server.url);
    const neighbour = await signUp(server.url);
    await createWorkspace(leaving.client, "Leaving Ltd", "leaving-ltd");
    await addMember(server.url, leaving.client, teammate, "editor");
    await createWorkspace(neighbour.client, "Neighbour", "neighbour");
    await addMember(server.url, neighbour.client, leaving, "admin");
    await leaving.client.post("/?index", { intent: "select", workspaceId: await workspaceId("neighbour") });
    await addMember(server.url, leaving.client, teammate, "viewer");
    await new Client(server.url).post("/login", { email: leaving.email, password: "not the password" });
    const secondDevice = new Client(server.url);
    expect((await secondDevice.post("/login", { email: leaving.email, password: PASSWORD })).status).toBe(302);
    // A failed attempt after that success, so the throttle holds a counter for this email at deletion time.
    expect(
      (await new Client(server.url).post("/login", { email: leaving.email, password: "not it either" })).status,
    ).toBe(401);

    // And an API key that has been used, so its rate-limit counters exist too.
    const generated = await leaving.client.post("/settings/api-keys", {
      intent: "generate",
      name: "sync",
      environment: "live",
      expiresInDays: "",
      workspaceId: "",
    });
    const key = /data-testid="new-api-key">([^<]+)</.exec(await generated.text())?.[1];
    expect((await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(
      200,
    );

    // A SOP in the owned workspace with a trigger and a run (the runner is left off: the job stays queued).
    await leaving.client.post("/?index", { intent: "select", workspaceId: await workspaceId("leaving-ltd") });
    const sopId = await createSop(leaving.client, { name: "Leaving SOP", slug: "leaving-sop" });
    const triggerSecret = await consoleTrigger(leaving.client, sopId);
    expect((await trigger(server.url, sopId, triggerSecret, { a: 1 })).status).toBe(202);

    // A website page with its revision and its menu link.
    expect(
      (await leaving.client.post("/website/pages/new", { title: "Leaving page", inNavigation: "on" })).status,
    ).toBe(302);

    // An OAuth app the leaving user registered, and their consent to the neighbour's app, with a token used once.
    const ownApp = await leaving.client.post("/settings/integrations/oauth-apps", {
      intent: "register",
      name: "Own app",
      clientType: "confidential",
      redirectUris: "https://own.example.test/cb",
    });
    const ownClientId = /data-testid="client-id">([^<]+)</.exec(await ownApp.text())![1]!;
    const neighbourApp = await (
      await neighbour.client.post("/settings/integrations/oauth-apps", {
        intent: "register",
        name: "Neighbour app",
        clientType: "confidential",
        redirectUris: "https://neighbour.example.test/cb",
      })
    ).text();
    const clientId = /data-testid="client-id">([^<]+)</.exec(neighbourApp)![1]!;
    const clientSecret = /data-testid="client-secret">([^<]+)</.exec(neighbourApp)![1]!;
    const authorize = `/oauth/authorize?client_id=${clientId}&response_type=code&scope=read_profile`;
    const consentPage = await (await leaving.client.get(authorize)).text();
    const ticket = /name="ticket" value="([^"]+)"/.exec(consentPage)![1]!;
    const approved = await leaving.client.post(authorize, {
      query: authorize.slice(authorize.indexOf("?")),
      ticket,
      decision: "approve",
    });
    const code = new URL(approved.headers.get("location")!).searchParams.get("code")!;
    const issued = (await (
      await fetch(`${server.url}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          client_id: clientId,
          client_secret: clientSecret,
        }),
      })
    ).json()) as { access_token: string };
    expect(
      (await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${issued.access_token}` } }))
        .status,
    ).toBe(200);

    const userId = await idOf(leaving.email);
    const grantId = (
      await server.db.selectFrom("oauth_grants").select("id").where("user_id", "=", userId).executeTakeFirstOrThrow()
    ).id;
    const keyId = (
      await server.db.selectFrom("api_keys").select("id").where("user_id", "=", userId).executeTakeFirstOrThrow()
    ).id;
    const ownedId = await workspaceId("leaving-ltd");
    const emailKey = createHash("sha256").update(leaving.email).digest("base64url");
    // The trigger's id names its rate-limit windows (ADR 010, "Limits"), which go with it.
    const triggerId = (
      await server.db
        .selectFrom("sop_triggers")
        .select("id")
        .where("workspace_id", "=", ownedId)
        .executeTakeFirstOrThrow()
    ).id;
    const needles = [userId, ownedId, leaving.email, emailKey, keyId, grantId, ownClientId, triggerId];
    const before = await rowsMentioning(needles);
    expect(new Set(before.map((r) => r.table))).toEqual(
      new Set([
        "users",
        "workspaces",
        "workspace_members",
        "sessions",
        "auth_known_addresses",
        "audit_events",
        "rate_limit_counters",
        "api_keys",
        "api_rate_windows",
        "sops",
        "sop_triggers",
        "sop_runs",
        "sop_trigger_rate_windows",
        "jobs",
        "mail_messages",
        "oauth_clients",
        "oauth_grants",
        "oauth_codes",
        "oauth_tokens",
        "oauth_rate_windows",
        "site_pages",
        "site_page_revisions",
        "site_nav_links",
      ]),
    );

    const res = await leaving.client.post("/settings/account", { confirmEmail: leaving.email.toUpperCase() });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login?deleted=1");

    // What stays naming the address is another workspace's record: the neighbour's invitation to it, whose
    // stored copy holds no token. Account mail (the sign-up link) went with the account.
    const neighbourId = await workspaceId("neighbour");
    const found = await rowsMentioning(needles);
    // On SQLite the deletion's purge of the deleted workspace's pages is a row of the purge log, for other
    // processes sharing the file to read (ADR 026): its tags, nothing else, deleted ten minutes later.
    const purges = found.filter((r) => r.table === "cache_purges");
    const left = found.filter((r) => r.table !== "cache_purges");
    expect(purges).toHaveLength(server.database.dialect === "sqlite" ? 1 : 0);
    for (const { row } of purges) {
      expect((JSON.parse(String(row.tags)) as string[]).every((tag) => tag.startsWith(`ws:${ownedId}`))).toBe(true);
    }
    expect(left.map((r) => [r.table, r.row.workspace_id, r.row.to_address, r.row.subject])).toEqual([
      ["mail_messages", neighbourId, leaving.email, "You are invited to Neighbour on Atrium"],
    ]);
    expect(String(left[0]!.row.body)).toContain(`/invitations?token=${TOKEN_NOT_STORED}`);
    expect(await mailOf(server.db, neighbourId).count()).toBe(2);
    expect((await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(
      401,
    );
    expect((await secondDevice.get("/")).status).toBe(302);
    expect((await fetch(`${server.url}/leaving-ltd`)).status).toBe(404);

    // Everyone else keeps what is theirs: the neighbour's workspace, its members and its history.
    expect((await fetch(`${server.url}/neighbour`)).status).toBe(200);
    const neighbourMembers = await server.db
      .selectFrom("workspace_members")
      .select("user_id")
      .where("workspace_id", "=", await workspaceId("neighbour"))
      .execute();
    expect(neighbourMembers.map((m) => m.user_id).sort()).toEqual(
      [await idOf(neighbour.email), await idOf(teammate.email)].sort(),
    );
    const history = await server.db
      .selectFrom("audit_events")
      .select(["action", "actor_user_id"])
      .where("workspace_id", "=", await workspaceId("neighbour"))
      .where("action", "=", "member.added")
      .execute();
    expect(history).toContainEqual({ action: "member.added", actor_user_id: null });
    expect(await (await teammate.client.get("/")).text()).toContain("Neighbour");
  });
});
