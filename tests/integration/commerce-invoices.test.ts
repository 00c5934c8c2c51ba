/**
 * Invoices (issue 18, ADR 032) on this dialect: one per paid order, numbered per workspace from 1 without gaps
 * (also when five orders are paid at once), its PDF read back with Debian's pdftotext for its number and totals,
 * from the portal (the order's own customer or guest link; anyone else's a 404) and the console; none for an unpaid
 * order.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createWorkspace, signUp, uniqueEmail } from "../helpers/client";
import { signInCustomer } from "../helpers/customers";
import { startServer, type TestServer } from "../helpers/server";
import { buy, openShop } from "../helpers/shop";
import { tempDir, type TempDir } from "../helpers/temp";
import { ordersOf } from "~/modules/commerce/orders.server";

let server: TestServer;
let folder: TempDir;
beforeAll(async () => {
  server = await startServer({ CUSTOMER_CODES_PER_ADDRESS_PER_HOUR: "1000" });
  folder = tempDir("atrium-invoices");
});
afterAll(async () => {
  await server.close();
  folder.remove();
});

let shops = 0;
async function business() {
  shops += 1;
  const slug = `invoice-${process.pid}-${shops}`;
  const { client } = await signUp(server.url);
  await createWorkspace(client, `Invoice Bakery ${shops}`, slug);
  const { id } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
  return { owner: client, slug, workspaceId: id, shop: await openShop(server.db, id) };
}

/** The text of a PDF answer, as pdftotext reads it. */
async function pdfText(res: Response): Promise<string> {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/pdf");
  const file = join(folder.path, `${Math.random().toString(36).slice(2)}.pdf`);
  const bytes = Buffer.from(await res.arrayBuffer());
  writeFileSync(file, bytes);
  // For a look at what customers get (pdftoppm -png it).
  if (process.env.SHOTS_DIR) writeFileSync(join(process.env.SHOTS_DIR, "invoice.pdf"), bytes);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

const pay = (workspaceId: string, orderId: string) =>
  ordersOf(server.db, workspaceId).finalisePayment(orderId, {
    provider: "manual",
    reference: `manual:${orderId}`,
    amount: 845,
    currency: "USD",
    actorUserId: null,
    origin: server.url,
  });

describe("invoices", () => {
  it("issues one for a paid order, readable by its customer and the console, and by no one else", async () => {
    const b = await business();
    const guest = new Client(server.url);
    const orderId = await buy(guest, b.slug, b.shop, { email: uniqueEmail("buyer"), name: "Ivy Invoice" });
    expect((await guest.get(`/${b.slug}/orders/${orderId}/invoice.pdf`)).status).toBe(404);
    await pay(b.workspaceId, orderId);
    await pay(b.workspaceId, orderId);

    const page = await (await guest.get(`/${b.slug}/orders/${orderId}`)).text();
    expect(page.replace(/<!-- -->/g, "")).toContain("Download invoice 1 (PDF)");
    const text = await pdfText(await guest.get(`/${b.slug}/orders/${orderId}/invoice.pdf`));
    expect(text).toContain("Invoice 1");
    expect(text).toContain("Order #1001");
    expect(text).toContain("Ivy Invoice");
    expect(text).toMatch(/Seeded rye · Small\s+1\s+\$4\.50\s+\$4\.50/);
    expect(text).toMatch(/Delivery · Standard\s+\$3\.95/);
    expect(text).toMatch(/Total\s+\$8\.45/);
    expect(text).toContain(`Invoice Bakery ${shops}`);
    expect(await pdfText(await b.owner.get(`/shop/orders/${orderId}/invoice.pdf`))).toContain("Invoice 1");
    expect(await server.db.selectFrom("invoices").selectAll().where("order_id", "=", orderId).execute()).toHaveLength(
      1,
    );

    // Another guest, holding the link of their own order in the same shop, and a stranger: sent to sign in, as
    // for the order's page, and never the PDF.
    const other = new Client(server.url);
    await buy(other, b.slug, b.shop, { email: uniqueEmail("other") });
    for (const visitor of [other, new Client(server.url)]) {
      const refused = await visitor.get(`/${b.slug}/orders/${orderId}/invoice.pdf`);
      expect(refused.status).toBe(302);
      expect(refused.headers.get("location")).toContain(`/${b.slug}/login`);
      expect(refused.headers.get("content-type")).not.toBe("application/pdf");
    }
  });

  it("shows a signed-in customer their own invoice and answers 404 for another customer's", async () => {
    const b = await business();
    const ada = await signInCustomer(server.url, b.slug, uniqueEmail("ada"));
    const adas = await buy(ada, b.slug, b.shop, { email: uniqueEmail("ada-order") });
    const bob = await signInCustomer(server.url, b.slug, uniqueEmail("bob"));
    const bobs = await buy(bob, b.slug, b.shop, { email: uniqueEmail("bob-order") });
    await pay(b.workspaceId, adas);
    await pay(b.workspaceId, bobs);
    expect(await pdfText(await ada.get(`/${b.slug}/orders/${adas}/invoice.pdf`))).toContain("Invoice 1");
    expect((await ada.get(`/${b.slug}/orders/${bobs}/invoice.pdf`)).status).toBe(404);
    expect((await bob.get(`/${b.slug}/orders/${adas}/invoice.pdf`)).status).toBe(404);

    // Their billing page and the customer API list their own invoice only.
    const billing = (await (await ada.get(`/${b.slug}/billing`)).text()).replace(/<!-- -->/g, "");
    expect(billing).toContain("Invoice 1 · $8.45");
    expect(billing).toContain(`/${b.slug}/orders/${adas}/invoice.pdf`);
    expect(billing).not.toContain(bobs);
    const site = { "x-atrium-site": b.slug };
    const overview = (await (await ada.get("/api/v1/billing/overview", site)).json()) as {
      invoices: Array<{ number: number; orderId: string; total: number; pdf: string }>;
      total: number;
    };
    expect(overview.total).toBe(1);
    expect(overview.invoices).toMatchObject([
      { number: 1, orderId: adas, total: 845, pdf: `/${b.slug}/orders/${adas}/invoice.pdf` },
    ]);
    const bobsOverview = (await (await bob.get("/api/v1/billing/overview", site)).json()) as {
      invoices: Array<{ orderId: string }>;
    };
    expect(bobsOverview.invoices.map((i) => i.orderId)).toEqual([bobs]);
    expect((await new Client(server.url).get("/api/v1/billing/overview", site)).status).toBe(401);
    // A new customer's billing page says what will appear there.
    const carol = await signInCustomer(server.url, b.slug, uniqueEmail("carol"));
    expect(await (await carol.get(`/${b.slug}/billing`)).text()).toContain("No invoices yet.");
  });

  it("numbers each workspace's invoices from 1 without gaps, also when orders are paid at once", async () => {
    const a = await business();
    const b = await business();
    const orders: string[] = [];
    for (let i = 0; i < 5; i += 1)
      orders.push(await buy(new Client(server.url), a.slug, a.shop, { email: uniqueEmail(`n${i}`) }));
    const other = await buy(new Client(server.url), b.slug, b.shop, { email: uniqueEmail("b") });
    await Promise.all([...orders.map((id) => pay(a.workspaceId, id)), pay(b.workspaceId, other)]);
    const numbers = async (workspaceId: string) =>
      (
        await server.db
          .selectFrom("invoices")
          .select("number")
          .where("workspace_id", "=", workspaceId)
          .orderBy("number")
          .execute()
      ).map((r) => r.number);
    expect(await numbers(a.workspaceId)).toEqual([1, 2, 3, 4, 5]);
    expect(await numbers(b.workspaceId)).toEqual([1]);
  });
});
