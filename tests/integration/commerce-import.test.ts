/**
 * The catalogue's CSV import and export (issue 17, ADR 030), through the console's pages on this dialect: a
 * Shopify product export imported as it is (variants, options, draft and active), imported again without
 * duplicates, a file with problems importing its good products and naming the bad lines, images fetched from
 * their addresses (a local image server; private networks allowed for this test server only) once, and the
 * export in the same columns.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, createWorkspace, signUp } from "../helpers/client";
import { drainJobs } from "../helpers/jobs";
import { startServer, type TestServer } from "../helpers/server";
import { demoAssetsDir } from "~/modules/files/demo.server";

let server: TestServer;
let images: Server;
let imageBase: string;
let fetched = 0;
const FIXTURE = readFileSync(new URL("../fixtures/shopify-products.csv", import.meta.url), "utf8");
const PHOTO = readFileSync(join(demoAssetsDir(), "loaves.jpg"));

beforeAll(async () => {
  images = createServer((req, res) => {
    fetched += 1;
    if (req.url === "/loaf.jpg") {
      res.writeHead(200, { "content-type": "image/jpeg" }).end(PHOTO);
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => images.listen(0, "127.0.0.1", resolve));
  imageBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  server = await startServer({ OUTBOUND_ALLOW_PRIVATE: "1" });
});
afterAll(async () => {
  await server.close();
  await new Promise((resolve) => images.close(resolve));
});

let shops = 0;
async function business() {
  shops += 1;
  const slug = `import-${process.pid}-${shops}`;
  const { client } = await signUp(server.url);
  await createWorkspace(client, `Importer ${shops}`, slug);
  const { id } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
  return { owner: client, slug, workspaceId: id };
}

function upload(client: Client, csv: string) {
  const form = new FormData();
  form.set("file", new Blob([csv], { type: "text/csv" }), "products.csv");
  return client.request("/shop/import", {
    method: "POST",
    body: form,
    headers: { origin: new URL(client.base).origin, "sec-fetch-site": "same-origin" },
  });
}

const productsOfWorkspace = (workspaceId: string) =>
  server.db
    .selectFrom("products")
    .select(["id", "slug", "status", "options"])
    .where("workspace_id", "=", workspaceId)
    .orderBy("slug")
    .execute();

describe("importing Shopify's product CSV", () => {
  it("creates every product with its options and variants, and updates them on a second import", async () => {
    const { owner, workspaceId } = await business();
    const first = await upload(owner, FIXTURE);
    expect(first.status).toBe(200);
    const page = await first.text();
    expect(page).toMatch(/Imported 4 products \(4 new, 0 updated\)/);
    const products = await productsOfWorkspace(workspaceId);
    expect(products).toHaveLength(4);
    expect(products.filter((p) => p.status === "draft")).toHaveLength(1);
    const withTwo = products.find((p) => (JSON.parse(p.options) as unknown[]).length === 2)!;
    const variants = await server.db
      .selectFrom("product_variants")
      .select("options")
      .where("product_id", "=", withTwo.id)
      .execute();
    expect(variants).toHaveLength(4);

    const again = await (await upload(owner, FIXTURE)).text();
    expect(again).toMatch(/Imported 4 products \(0 new, 4 updated\)/);
    expect(await productsOfWorkspace(workspaceId)).toHaveLength(4);
  });

  it("imports the good products of a file with problems and names each bad line", async () => {
    const { owner, workspaceId } = await business();
    const csv = [
      "Handle,Title,Variant Price,Status",
      "good-loaf,Good loaf,4.50,active",
      "bad-price,Bad price,abc,active",
      "Bad Handle!,Bad handle,3.00,active",
    ].join("\n");
    const res = await upload(owner, csv);
    const html = await res.text();
    expect(html).toContain("Imported 1 product (1 new, 0 updated)");
    expect(html).toMatch(/<td>3<\/td><td>Variant Price<\/td>/);
    expect(html).toMatch(/<td>4<\/td>/);
    expect((await productsOfWorkspace(workspaceId)).map((p) => p.slug)).toEqual(["good-loaf"]);
    // Not a product CSV at all: nothing imported, said plainly.
    const nothing = await (await upload(owner, "name,price\nloaf,3")).text();
    expect(nothing).toContain("Nothing was imported");
    expect(nothing).toMatch(/Handle/);
  });

  it("fetches each product's images from their addresses once, into the media library", async () => {
    const { owner, workspaceId } = await business();
    const csv = [
      "Handle,Title,Variant Price,Image Src,Image Position,Image Alt Text",
      `rye,Rye,5.00,${imageBase}/loaf.jpg,1,A rye loaf`,
    ].join("\n");
    const res = await upload(owner, csv);
    expect(await res.text()).toContain("1 image is being fetched");
    await drainJobs(server);
    const [product] = await productsOfWorkspace(workspaceId);
    const attached = await server.db
      .selectFrom("product_images")
      .select(["source_url", "alt"])
      .where("product_id", "=", product!.id)
      .execute();
    expect(attached).toEqual([{ source_url: `${imageBase}/loaf.jpg`, alt: "A rye loaf" }]);
    const before = fetched;
    expect(await (await upload(owner, csv)).text()).not.toContain("being fetched");
    await drainJobs(server);
    expect(fetched).toBe(before);
  });
});

describe("exporting the catalogue", () => {
  it("writes Shopify's columns, one row per variant", async () => {
    const { owner } = await business();
    await upload(owner, FIXTURE);
    const res = await owner.get("/shop/export.csv");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toContain("attachment");
    const csv = await res.text();
    expect(csv.split("\n")[0]).toMatch(/^Handle,Title,Body \(HTML\),Vendor/);
    // Exported, it imports back into a new shop as the same four products.
    const other = await business();
    expect(await (await upload(other.owner, csv)).text()).toMatch(/Imported 4 products \(4 new, 0 updated\)/);
  });
});
