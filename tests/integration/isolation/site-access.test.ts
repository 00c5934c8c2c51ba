/**
 * DESIGN rule 2 for a site's visibility: `siteAccessOf`, built for workspace A, reads none of B's row, changes
 * none of it, and B's password does not open A's site.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteAccessOf, siteVisibilityOf } from "~/modules/site-access/visibility.server";
import { twoTenants, type Fixture } from "./fixture";

let f: Fixture;
beforeAll(async () => {
  f = await twoTenants();
});
afterAll(() => f.close());

describe("siteAccessOf, built for workspace A", () => {
  it("does not read B's visibility, and protecting or opening A's leaves B's row as it was", async () => {
    await siteAccessOf(f.db, f.b.workspace.id).protect(f.b.user.id, { password: "b's own password" });
    expect(await siteAccessOf(f.db, f.a.workspace.id).get()).toEqual({
      visibility: "public",
      cookieVersion: 0,
      updatedAt: null,
    });
    expect(await siteVisibilityOf(f.db, f.a.workspace.id)).toBe("public");

    const before = await f.rowsOf("site_access", "workspace_id", f.b.workspace.id);
    await siteAccessOf(f.db, f.a.workspace.id).protect(f.a.user.id, { password: "a's own password" });
    await siteAccessOf(f.db, f.a.workspace.id).makePublic(f.a.user.id);
    expect(await f.rowsOf("site_access", "workspace_id", f.b.workspace.id)).toEqual(before);
    expect(await siteVisibilityOf(f.db, f.b.workspace.id)).toBe("protected");
  });

  it("is not opened by B's password", async () => {
    await siteAccessOf(f.db, f.a.workspace.id).protect(f.a.user.id, { password: "a's own password" });
    expect(await siteAccessOf(f.db, f.a.workspace.id).checkPassword("b's own password")).toBeNull();
    expect(await siteAccessOf(f.db, f.a.workspace.id).checkPassword("a's own password")).toEqual(expect.any(Number));
  });

  it("records each change in A's audit trail only", async () => {
    const events = await f.db
      .selectFrom("audit_events")
      .select(["workspace_id", "action"])
      .where("action", "like", "site.%")
      .where("workspace_id", "in", [f.a.workspace.id, f.b.workspace.id])
      .execute();
    expect(events.filter((e) => e.workspace_id === f.b.workspace.id).map((e) => e.action)).toEqual(["site.protected"]);
    const ofA = events.filter((e) => e.workspace_id === f.a.workspace.id).map((e) => e.action);
    expect(ofA.sort()).toEqual(["site.made_public", "site.protected", "site.protected"]);
  });
});
