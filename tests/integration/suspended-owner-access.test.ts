/**
 * A suspended owner's workspace is refused to every API caller that reaches it, not only to those that remember
 * to ask (issue 12, item 7, amended), over HTTP on this dialect: the customer API's site resolution answers the
 * spec's 403 for its site, and a member's API key — restricted to the workspace, or reaching its SOPs — answers
 * the same 403 while the member's own account stays good. Undoing the suspension lets them all back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setStatus } from "~/modules/accounts/users.server";
import { createWorkspace, signUp } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

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
