/**
 * Changing a site's address (the workspace's slug, ADR 019): the old address answers 301 to the same path
 * under the new one for 90 days, then 404; meanwhile no other workspace can take it, and its own workspace can.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client, createWorkspace, signUp } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { addDays, setTestClock } from "~/lib/clock.server";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
afterEach(() => setTestClock(undefined));

let n = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${(n += 1)}`;
const visitor = () => new Client(server.url);

async function siteAt(slug: string) {
  const { client } = await signUp(server.url);
  await createWorkspace(client, "Harbor Bakery", slug);
  return client;
}

const rename = (client: Client, slug: string) =>
  client.post("/settings", { intent: "workspace", name: "Harbor Bakery", slug });

describe("a site's former address", () => {
  it("answers 301 to the same path and query under the new address", async () => {
    const [old, moved] = [unique("old"), unique("new")];
    const owner = await siteAt(old);
    expect((await rename(owner, moved)).status).toBe(200);

    for (const [path, to] of [
      [`/${old}`, `/${moved}`],
      [`/${old}/contact?sent=1`, `/${moved}/contact?sent=1`],
      [`/${old}/policies/privacy`, `/${moved}/policies/privacy`],
      [`/${old}/a/b/c?x=1&y=2`, `/${moved}/a/b/c?x=1&y=2`],
    ] as const) {
      const res = await visitor().get(path);
      expect(res.status, path).toBe(301);
      expect(res.headers.get("location"), path).toBe(to);
      expect(res.headers.get("cache-control"), path).toBe("public, max-age=3600");
    }
    expect((await visitor().get(`/${moved}`)).status).toBe(200);
    expect((await visitor().get(`/${moved}/contact`)).status).toBe(200);
  });

  it("follows several moves to the current address", async () => {
    const [a, b, c] = [unique("first"), unique("second"), unique("third")];
    const owner = await siteAt(a);
    await rename(owner, b);
    await rename(owner, c);
    expect((await visitor().get(`/${a}/contact`)).headers.get("location")).toBe(`/${c}/contact`);
    expect((await visitor().get(`/${b}`)).headers.get("location")).toBe(`/${c}`);
  });

  it("is reserved for 90 days: another workspace can take it neither new nor by renaming", async () => {
    const [old, moved] = [unique("kept"), unique("moved")];
    const owner = await siteAt(old);
    await rename(owner, moved);

    const { client: other } = await signUp(server.url);
    const created = await other.post("/?index", { intent: "create", name: "Copycat", slug: old });
    expect(created.status).toBe(409);
    expect(await created.text()).toContain("This site address is already taken");
    await createWorkspace(other, "Copycat", unique("copycat"));
    const renamed = await rename(other, old);
    expect(renamed.status).toBe(409);
    expect(await renamed.text()).toContain("This site address is already taken");
    expect((await visitor().get(`/${old}`)).headers.get("location")).toBe(`/${moved}`);
  });

  it("answers 404 after 90 days, and is then free for anyone", async () => {
    const [old, moved] = [unique("expiring"), unique("current")];
    const owner = await siteAt(old);
    await rename(owner, moved);
    setTestClock(() => addDays(new Date(), 89));
    expect((await visitor().get(`/${old}`)).status).toBe(301);
    setTestClock(() => addDays(new Date(), 91));
    expect((await visitor().get(`/${old}`)).status).toBe(404);
    expect((await visitor().get(`/${old}/contact`)).status).toBe(404);
    // Free again: a new site lives there, and the old record is gone.
    await siteAt(old);
    expect((await visitor().get(`/${old}`)).status).toBe(200);
    expect(
      await server.db.selectFrom("workspace_previous_slugs").select("slug").where("slug", "=", old).execute(),
    ).toEqual([]);
  });

  it("can be taken back by its own workspace, whose newer address then redirects", async () => {
    const [a, b] = [unique("back"), unique("forth")];
    const owner = await siteAt(a);
    await rename(owner, b);
    expect((await rename(owner, a)).status).toBe(200);
    expect((await visitor().get(`/${a}`)).status).toBe(200);
    expect((await visitor().get(`/${b}`)).headers.get("location")).toBe(`/${a}`);
  });

  it("goes with its workspace when the owner's account is deleted", async () => {
    const [old, moved] = [unique("gone"), unique("going")];
    const owner = await siteAt(old);
    await rename(owner, moved);
    const { id } = await server.db
      .selectFrom("workspaces")
      .select("id")
      .where("slug", "=", moved)
      .executeTakeFirstOrThrow();
    await server.db.deleteFrom("workspaces").where("id", "=", id).execute();
    expect((await visitor().get(`/${old}`)).status).toBe(404);
    expect(
      await server.db.selectFrom("workspace_previous_slugs").select("slug").where("workspace_id", "=", id).execute(),
    ).toEqual([]);
  });
});
