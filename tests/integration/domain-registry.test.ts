/**
 * The custom-domain registry (ADR 025) over a real database: held in memory, so a hit and a miss (a made-up
 * host name, asked for on every request by the host check) cost no query; reloaded after `invalidate()` and
 * once `DOMAINS_REFRESH_MS` has passed; a failing domain serves and stays the final address but is no
 * redirect target; a reload that fails keeps the previous list.
 */
import type { KyselyPlugin } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~db/client";
import { migrateToLatest } from "~db/migrate";
import { isoNow } from "~/lib/clock.server";
import { newId } from "~/lib/ids.server";
import { createUser } from "~/modules/accounts/users.server";
import { siteDomainRegistry } from "~/modules/domains/registry.server";
import { createWorkspace } from "~/modules/tenancy/workspaces.server";
import { PASSWORD, uniqueEmail } from "../helpers/client";
import { freshDatabase, type TestDatabase } from "../helpers/database";

let database: TestDatabase;
let handle: DatabaseHandle;
let shop: { id: string; slug: string };
let books: { id: string; slug: string };

/** Counts the queries the registry sends (Kysely runs every one through its plugins). */
function counted() {
  const count = { queries: 0 };
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      count.queries += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: handle.db.withPlugin(plugin), count };
}

async function insertDomain(workspaceId: string, hostname: string, status: string, primary = true, redirect = true) {
  const now = isoNow();
  await handle.db
    .insertInto("site_domains")
    .values({
      id: newId(),
      workspace_id: workspaceId,
      hostname,
      token: newId(),
      status,
      is_primary: primary ? 1 : 0,
      redirect_path: redirect ? 1 : 0,
      diagnostics: "[]",
      last_checked_at: null,
      next_check_at: null,
      verified_at: status === "pending" ? null : now,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

beforeAll(async () => {
  database = await freshDatabase();
  handle = openDatabase(database.url);
  await migrateToLatest(handle.db);
  const user = await createUser(handle.db, { email: uniqueEmail(), password: PASSWORD });
  const suffix = Math.random().toString(36).slice(2, 7);
  shop = await createWorkspace(handle.db, user.id, { name: "Shop", slug: `shop-${suffix}` });
  books = await createWorkspace(handle.db, user.id, { name: "Books", slug: `books-${suffix}` });
  await insertDomain(shop.id, "shop.example.test", "verified");
  await insertDomain(shop.id, "www.shop.example.test", "verified", false);
  await insertDomain(shop.id, "pending.example.test", "pending", false);
  await insertDomain(books.id, "books.example.test", "failing");
});

afterAll(async () => {
  await handle.close();
  await database.drop();
});

describe("the domain registry", () => {
  it("answers hits and misses from memory: one query for the whole list", async () => {
    const { db, count } = counted();
    const registry = siteDomainRegistry(db, { refreshMs: 60_000 });
    expect(await registry.siteOfHost("shop.example.test")).toEqual({
      hostname: "shop.example.test",
      workspaceId: shop.id,
      slug: shop.slug,
    });
    expect(count.queries).toBe(1);
    for (let i = 0; i < 50; i += 1) expect(await registry.siteOfHost(`made-up-${i}.example`)).toBeNull();
    expect(await registry.siteOfHost("www.shop.example.test")).toMatchObject({ workspaceId: shop.id });
    expect(await registry.primaryDomainOf(shop.id)).toBe("shop.example.test");
    expect(await registry.pathRedirectOf(shop.slug)).toEqual({ workspaceId: shop.id, domain: "shop.example.test" });
    expect(count.queries).toBe(1);
  });

  it("serves neither a pending claim nor another workspace's name for this site", async () => {
    const registry = siteDomainRegistry(handle.db, { refreshMs: 60_000 });
    expect(await registry.siteOfHost("pending.example.test")).toBeNull();
    expect(await registry.siteOfHost("books.example.test")).toMatchObject({ workspaceId: books.id });
  });

  it("keeps a failing domain serving and as the final address, but redirects nothing to it", async () => {
    const registry = siteDomainRegistry(handle.db, { refreshMs: 60_000 });
    expect(await registry.primaryDomainOf(books.id)).toBe("books.example.test");
    expect(await registry.pathRedirectOf(books.slug)).toBeNull();
  });

  it("reloads at the next read after invalidate(), and after the refresh interval", async () => {
    let now = 0;
    const { db, count } = counted();
    const registry = siteDomainRegistry(db, { refreshMs: 30_000, now: () => now });
    await registry.siteOfHost("shop.example.test");
    await insertDomain(shop.id, "new.example.test", "verified", false);
    try {
      // Not yet: the list is fresh.
      now = 29_999;
      expect(await registry.siteOfHost("new.example.test")).toBeNull();
      expect(count.queries).toBe(1);
      // Past the interval: the reload runs behind this answer, the next one sees it.
      now = 30_000;
      await registry.siteOfHost("new.example.test");
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await registry.siteOfHost("new.example.test")).toMatchObject({ workspaceId: shop.id });
      expect(count.queries).toBe(2);

      await handle.db.deleteFrom("site_domains").where("hostname", "=", "new.example.test").execute();
      registry.invalidate();
      expect(await registry.siteOfHost("new.example.test")).toBeNull();
      expect(count.queries).toBe(3);
    } finally {
      await handle.db.deleteFrom("site_domains").where("hostname", "=", "new.example.test").execute();
    }
  });

  it("keeps the previous list when a reload fails", async () => {
    let failing = false;
    const errors: unknown[] = [];
    const plugin: KyselyPlugin = {
      transformQuery: (args) => {
        if (failing) throw new Error("database unavailable");
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const registry = siteDomainRegistry(handle.db.withPlugin(plugin), {
      refreshMs: 60_000,
      onError: (error) => errors.push(error),
    });
    expect(await registry.siteOfHost("shop.example.test")).not.toBeNull();
    failing = true;
    registry.invalidate();
    expect(await registry.siteOfHost("shop.example.test")).not.toBeNull();
    expect(errors).toHaveLength(1);
  });
});
