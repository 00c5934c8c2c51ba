/**
 * A suspended owner's workspace is refused to every API caller that reaches it, not only to those that remember
 * to ask (issue 12, item 7, amended), over HTTP on this dialect: the customer API's site resolution answers the
 * spec's 403 for its site, and a member's API key — restricted to the workspace, or reaching its SOPs — answers
 * the same 403 while the member's own account stays good. Undoing the suspension lets them all back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findUserByEmail, setStatus } from "~/modules/accounts/users.server";
import { apiKeysOf } from "~/modules/api-keys/api-keys.server";
import { addMember, createWorkspace, signUp } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { consoleTrigger, createSop } from "../helpers/sops";

const FORBIDDEN = { error: "Forbidden", message: "Insufficient permissions", statusCode: 403 };

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ JOBS_CONCURRENCY: "0", API_AUTH_FAILURES_PER_MINUTE: "10000" });
});
afterAll(() => server.close());

let counter = 0;
const slug = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

async function ownerWithSite() {
  const owner = await signUp(server.url);
  const site = slug("ws");
  await createWorkspace(owner.client, `Shop ${site}`, site);
  const { id: workspaceId } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", site)
    .executeTakeFirstOrThrow();
  return { ...owner, site, workspaceId };
}

async function keyOf(email: string, workspaceId: string | null) {
  const user = await findUserByEmail(server.db, email);
  const { key } = await apiKeysOf(server.db, user!).generate({
    name: "automation",
    environment: "live",
    expiresInDays: null,
    workspaceId,
  });
  return key;
}

describe("the customer API's site resolution", () => {
  const probe = (site: string, by: "header" | "query") =>
    by === "header"
      ? fetch(`${server.url}/api/routing-test?path=/api/v1/search`, { headers: { "x-atrium-site": site } })
      : fetch(`${server.url}/api/routing-test?path=/api/v1/search&site=${site}`);

  it("answers the spec's 403 for a suspended owner's site, saying nothing more, until the suspension is undone", async () => {
    const { email, site } = await ownerWithSite();
    for (const by of ["header", "query"] as const) {
      const open = await probe(site, by);
      expect(open.status, by).toBe(200);
      expect(((await open.json()) as { site: unknown }).site, by).toMatchObject({ slug: site, via: by });
    }

    await setStatus(server.db, email, "suspended");
    for (const by of ["header", "query"] as const) {
      const closed = await probe(site, by);
      expect(closed.status, by).toBe(403);
      expect(await closed.json(), by).toEqual(FORBIDDEN);
    }

    await setStatus(server.db, email, "active");
    expect((await probe(site, "header")).status).toBe(200);
  });
});

describe("a member's API key in a suspended owner's workspace", () => {
  const me = (key: string) => fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${key}` } });

  it("restricted to that workspace: works, answers the spec's 403 while the owner is suspended, works after undo", async () => {
    const owner = await ownerWithSite();
    const member = await signUp(server.url);
    await addMember(server.url, owner.client, member, "admin");
    const restricted = await keyOf(member.email, owner.workspaceId);
    const unrestricted = await keyOf(member.email, null);
    expect((await me(restricted)).status).toBe(200);

    await setStatus(server.db, owner.email, "suspended");
    const refused = await me(restricted);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual(FORBIDDEN);
    // The member's own account is not suspended: a key for all of its workspaces still answers for it.
    expect((await me(unrestricted)).status).toBe(200);

    await setStatus(server.db, owner.email, "active");
    expect((await me(restricted)).status).toBe(200);
  });

  it("for every workspace of its user: refused with the spec's 403 on the suspended workspace's SOPs", async () => {
    const owner = await ownerWithSite();
    const member = await signUp(server.url);
    await addMember(server.url, owner.client, member, "admin");
    const key = await keyOf(member.email, null);
    const sopId = await createSop(owner.client, {
      name: "Automated",
      slug: slug("sop"),
      steps: [{ type: "set", assignments: "x = 1" }],
    });
    await consoleTrigger(owner.client, sopId);
    const { id: triggerId } = await server.db
      .selectFrom("sop_triggers")
      .select("id")
      .where("sop_id", "=", sopId)
      .executeTakeFirstOrThrow();
    const rotate = () =>
      fetch(`${server.url}/api/sops/${sopId}/triggers/${triggerId}/rotate`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
      });
    expect((await rotate()).status).toBe(200);

    await setStatus(server.db, owner.email, "suspended");
    const refused = await rotate();
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual(FORBIDDEN);
    // Its members keep the console, to see what stopped (ADR 003).
    const viaConsole = await member.client.request(`/api/sops/${sopId}/triggers/${triggerId}/rotate`, {
      method: "POST",
      headers: { origin: server.url },
    });
    expect(viaConsole.status).toBe(200);

    await setStatus(server.db, owner.email, "active");
    expect((await rotate()).status).toBe(200);
  });
});
