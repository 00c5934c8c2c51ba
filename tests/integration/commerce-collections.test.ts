/**
 * Collections in the console (issue 17, ADR 030), through real HTTP on this dialect: an editor makes one, fills it,
 * puts its products in a manual order (moves, a one-time sort) and the storefront — the cached page too — shows
 * that order at the next request; the shop's collections in their own order; another workspace's collection is a
 * 404 on every form; a viewer reads but cannot change; deleting one keeps its products.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, addMember, createWorkspace, signUp } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { productsOf } from "~/modules/commerce/catalogue.server";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

let shops = 0;
async function business() {
  shops += 1;
  const slug = `coll-${process.pid}-${shops}`;
  const { client } = await signUp(server.url);
  await createWorkspace(client, `Crumb ${shops}`, slug);
  const { id } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
  const products = productsOf(server.db, id);
  const make = async (title: string, price: number) =>
    (await products.save(null, { title, status: "active", variants: [{ options: [], price, stock: 3 }] }, null)).id;
  // Made in this order, so "newest first" is the reverse of it.
  const apple = await make("Apple tart", 900);
  const bun = await make("Cinnamon bun", 350);
  const cake = await make("Carrot cake", 2400);
  return { owner: client, slug, workspaceId: id, apple, bun, cake };
}

/** The product titles of a storefront page, in the order the page shows them. */
async function shelf(client: Client, path: string): Promise<string[]> {
  const html = await (await client.get(path)).text();
  return [...html.matchAll(/class="shop-card__title">([^<]+)</g)].map((m) => m[1]!);
}

async function createCollection(owner: Client, title: string): Promise<string> {
  const made = await owner.post("/shop/collections", { intent: "create", title, description: "Baked this morning" });
  expect(made.status).toBe(302);
  const location = made.headers.get("location")!;
  expect(location).toMatch(/^\/shop\/collections\/[0-9A-Z]+\?created=1$/);
  return location.split("/").pop()!.split("?")[0]!;
}

describe("a collection's manual order", () => {
  it("is the order the shop shows, moved by hand or sorted once, and the cached page follows at once", async () => {
    const { owner, slug, apple, bun, cake } = await business();
    const visitor = new Client(server.url);
    const id = await createCollection(owner, "Weekend bakes");
    const page = `/shop/collections/${id}`;

    // Empty: the page says what to do, and the shop does not offer it as a filter yet.
    const empty = await (await owner.get(page)).text();
    expect(empty).toContain("No products in this collection.");
    expect(await (await visitor.get(`/${slug}/shop`)).text()).not.toContain("Weekend bakes");

    for (const productId of [bun, apple, cake])
      expect((await owner.post(page, { intent: "add", productId })).status).toBe(200);
    const shopPath = `/${slug}/shop?collection=weekend-bakes`;
    expect(await shelf(visitor, shopPath)).toEqual(["Cinnamon bun", "Apple tart", "Carrot cake"]);
    // Asked again: the page cache's copy, which the next change must replace.
    expect(await shelf(visitor, shopPath)).toEqual(["Cinnamon bun", "Apple tart", "Carrot cake"]);

    expect((await owner.post(page, { intent: "move", productId: cake, move: "first" })).status).toBe(200);
    expect(await shelf(visitor, shopPath)).toEqual(["Carrot cake", "Cinnamon bun", "Apple tart"]);
    expect((await owner.post(page, { intent: "move", productId: cake, move: "down" })).status).toBe(200);
    expect(await shelf(visitor, shopPath)).toEqual(["Cinnamon bun", "Carrot cake", "Apple tart"]);
    // Moving past an end changes nothing and is no error.
    expect((await owner.post(page, { intent: "move", productId: apple, move: "last" })).status).toBe(200);
    expect(await shelf(visitor, shopPath)).toEqual(["Cinnamon bun", "Carrot cake", "Apple tart"]);

    expect((await owner.post(page, { intent: "arrange", by: "title" })).status).toBe(200);
    expect(await shelf(visitor, shopPath)).toEqual(["Apple tart", "Carrot cake", "Cinnamon bun"]);
    expect((await owner.post(page, { intent: "arrange", by: "price" })).status).toBe(200);
    expect(await shelf(visitor, shopPath)).toEqual(["Cinnamon bun", "Apple tart", "Carrot cake"]);
    expect((await owner.post(page, { intent: "arrange", by: "newest" })).status).toBe(200);
    expect(await shelf(visitor, shopPath)).toEqual(["Carrot cake", "Cinnamon bun", "Apple tart"]);

    // Taken out: gone from the collection, still in the shop.
    expect((await owner.post(page, { intent: "remove", productId: bun })).status).toBe(200);
    expect(await shelf(visitor, shopPath)).toEqual(["Carrot cake", "Apple tart"]);
    expect(await shelf(visitor, `/${slug}/shop`)).toContain("Cinnamon bun");

    // Every change is in the audit log, with who made it.
    const actions = await server.db
      .selectFrom("audit_events")
      .select("action")
      .where("action", "like", "collection.%")
      .where("detail", "like", `%${id}%`)
      .execute();
    expect(new Set(actions.map((a) => a.action))).toEqual(
      new Set([
        "collection.created",
        "collection.products_added",
        "collection.product_moved",
        "collection.arranged",
        "collection.product_removed",
      ]),
    );
  });

  it("orders the shop's collections, renames one (its address follows) and refuses an address in use", async () => {
    const { owner, slug, apple, bun } = await business();
    const visitor = new Client(server.url);
    const first = await createCollection(owner, "Bread");
    const second = await createCollection(owner, "Pastry");
    await owner.post(`/shop/collections/${first}`, { intent: "add", productId: apple });
    await owner.post(`/shop/collections/${second}`, { intent: "add", productId: bun });
    const filters = async () => {
      const html = await (await visitor.get(`/${slug}/shop`)).text();
      return ["Bread", "Pastry", "Viennoiserie"]
        .filter((t) => html.includes(`>${t}<`))
        .sort((a, b) => html.indexOf(`>${a}<`) - html.indexOf(`>${b}<`));
    };
    expect(await filters()).toEqual(["Bread", "Pastry"]);
    expect((await owner.post("/shop/collections", { intent: "move", id: second, move: "up" })).status).toBe(200);
    expect(await filters()).toEqual(["Pastry", "Bread"]);

    const renamed = await owner.post(`/shop/collections/${second}`, {
      intent: "save",
      title: "Viennoiserie",
      slug: "",
      description: "Butter, flour, patience",
    });
    expect(renamed.status).toBe(200);
    expect(await filters()).toEqual(["Viennoiserie", "Bread"]);
    expect(await shelf(visitor, `/${slug}/shop?collection=viennoiserie`)).toEqual(["Cinnamon bun"]);

    const clash = await owner.post(`/shop/collections/${first}`, {
      intent: "save",
      title: "Bread",
      slug: "viennoiserie",
    });
    expect(clash.status).toBe(409);
    expect(await clash.text()).toContain("Another collection has this address");
    const bad = await owner.post(`/shop/collections/${first}`, { intent: "save", title: "Bread", slug: "Not A Slug!" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Use lower-case letters, digits and single hyphens");
    const unnamed = await owner.post(`/shop/collections/${first}`, { intent: "save", title: " " });
    expect(unnamed.status).toBe(400);
    expect(await unnamed.text()).toContain("Name the collection");
  });

  it("deletes a collection after the operator confirms, keeping its products", async () => {
    const { owner, slug, workspaceId, apple } = await business();
    const id = await createCollection(owner, "Seasonal");
    await owner.post(`/shop/collections/${id}`, { intent: "add", productId: apple });
    const gone = await owner.post(`/shop/collections/${id}`, { intent: "delete" });
    expect(gone.status).toBe(302);
    expect(gone.headers.get("location")).toBe("/shop/collections?deleted=Seasonal");
    expect(await (await owner.get("/shop/collections?deleted=Seasonal")).text()).toContain(
      "Collection “Seasonal” deleted. Its products are still in the shop.",
    );
    expect((await owner.get(`/shop/collections/${id}`)).status).toBe(404);
    expect(await server.db.selectFrom("products").select("id").where("id", "=", apple).executeTakeFirst()).toBeTruthy();
    expect(
      await server.db
        .selectFrom("collection_products")
        .select("product_id")
        .where("workspace_id", "=", workspaceId)
        .execute(),
    ).toEqual([]);
    expect(await (await new Client(server.url).get(`/${slug}/shop`)).text()).not.toContain("Seasonal");
  });
});

describe("who may change a collection", () => {
  it("answers 404 for another workspace's collection on every form and leaves it as it was", async () => {
    const a = await business();
    const b = await business();
    const theirs = await createCollection(b.owner, "Theirs");
    await b.owner.post(`/shop/collections/${theirs}`, { intent: "add", productId: b.apple });
    await b.owner.post(`/shop/collections/${theirs}`, { intent: "add", productId: b.bun });
    const before = await server.db
      .selectFrom("collection_products")
      .select(["product_id", "position"])
      .where("collection_id", "=", theirs)
      .orderBy("position")
      .execute();

    expect((await a.owner.get(`/shop/collections/${theirs}`)).status).toBe(404);
    const forms: Record<string, string>[] = [
      { intent: "save", title: "Mine now" },
      { intent: "add", productId: a.apple },
      { intent: "remove", productId: b.apple },
      { intent: "move", productId: b.bun, move: "first" },
      { intent: "arrange", by: "title" },
      { intent: "delete" },
    ];
    for (const fields of forms)
      expect((await a.owner.post(`/shop/collections/${theirs}`, fields)).status, fields.intent).toBe(404);
    expect((await a.owner.post("/shop/collections", { intent: "move", id: theirs, move: "last" })).status).toBe(404);
    // Nor can A put B's product into A's own collection.
    const mine = await createCollection(a.owner, "Mine");
    const foreign = await a.owner.post(`/shop/collections/${mine}`, { intent: "add", productId: b.apple });
    expect(foreign.status).toBe(400);
    expect(await foreign.text()).toContain("That product was not found");

    const theirRow = await server.db
      .selectFrom("collections")
      .select("title")
      .where("id", "=", theirs)
      .executeTakeFirst();
    expect(theirRow?.title).toBe("Theirs");
    expect(
      await server.db
        .selectFrom("collection_products")
        .select(["product_id", "position"])
        .where("collection_id", "=", theirs)
        .orderBy("position")
        .execute(),
    ).toEqual(before);
  });

  it("lets a viewer read a collection but not change it", async () => {
    const { owner, apple } = await business();
    const id = await createCollection(owner, "Staff picks");
    await owner.post(`/shop/collections/${id}`, { intent: "add", productId: apple });
    const viewer = await signUp(server.url);
    await addMember(server.url, owner, viewer, "viewer");
    const html = await (await viewer.client.get(`/shop/collections/${id}`)).text();
    expect(html).toContain("Apple tart");
    expect(html).not.toContain("Delete collection");
    expect(html).not.toContain("Add a product");
    expect((await viewer.client.post(`/shop/collections/${id}`, { intent: "remove", productId: apple })).status).toBe(
      403,
    );
    expect((await viewer.client.post("/shop/collections", { intent: "create", title: "Mine" })).status).toBe(403);
  });
});
