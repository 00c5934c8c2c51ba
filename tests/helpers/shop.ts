/**
 * A test server's shop (ADR 030): open one on a workspace through the commerce module's own functions (a product
 * with variants, delivery to GB with a flat rate and pickup, VAT, both manual ways to pay), and buy from it as a
 * browser does — add to the cart, give the details, choose delivery, place the order.
 */
import { expect } from "vitest";
import type { Db } from "~db/client";
import { productsOf } from "~/modules/commerce/catalogue.server";
import { shippingOf, taxRatesOf } from "~/modules/commerce/prices.server";
import { DEFAULT_COMMERCE_SETTINGS, commerceSettingsOf } from "~/modules/commerce/settings.server";
import { type Client, createWorkspace, signUp } from "./client";

export interface TestShop {
  productId: string;
  /** Small (stock 5) and Large (stock 1) loaves, 450 and 800 minor units. */
  small: string;
  large: string;
  standardRate: string;
  pickupRate: string;
}

export async function openShop(db: Db, workspaceId: string, options: { largeStock?: number } = {}): Promise<TestShop> {
  const product = await productsOf(db, workspaceId).save(
    null,
    {
      title: "Seeded rye",
      status: "active",
      options: [{ name: "Size", values: ["Small", "Large"] }],
      variants: [
        { options: ["Small"], price: 450, stock: 5, weightGrams: 500, sku: "RYE-S" },
        { options: ["Large"], price: 800, stock: options.largeStock ?? 1, weightGrams: 1000, sku: "RYE-L" },
      ],
    },
    null,
  );
  const shipping = shippingOf(db, workspaceId);
  const zone = await shipping.addZone("Domestic", ["GB"], null);
  const standardRate = await shipping.addRate({ zoneId: zone, name: "Standard", kind: "flat", price: 395 }, null);
  const pickupRate = await shipping.addRate({ zoneId: null, name: "Pickup", kind: "pickup", price: 0 }, null);
  await taxRatesOf(db, workspaceId).save({ country: "GB", name: "VAT", ratePercent: 20 }, null);
  await commerceSettingsOf(db, workspaceId).update(
    {
      ...DEFAULT_COMMERCE_SETTINGS,
      bankTransfer: true,
      bankInstructions: "IBAN GB00 TEST 0000 0000",
      payOnPickup: true,
    },
    null,
  );
  const [small, large] = product.variants;
  return { productId: product.id, small: small!.id, large: large!.id, standardRate, pickupRate };
}

export const ADDRESS = {
  "address.line1": "3 Church Street",
  "address.city": "Whitby",
  "address.postalCode": "YO22 4AE",
  "address.country": "GB",
};

/** Puts `quantity` of a variant in the client's cart on `slug`. */
export async function addToCart(client: Client, slug: string, variant: string, quantity = 1): Promise<void> {
  const res = await client.post(`/${slug}/cart`, { intent: "add", variant, quantity: String(quantity) });
  expect(res.status, await res.clone().text()).toBe(303);
}

/** Gives the checkout's details and delivery; answers when the cart is ready to be placed. */
export async function prepareCheckout(
  client: Client,
  slug: string,
  shop: TestShop,
  contact: { email: string; name?: string },
): Promise<void> {
  const details = await client.post(`/${slug}/checkout`, {
    intent: "details",
    email: contact.email,
    name: contact.name ?? "Ada Buyer",
    ...ADDRESS,
  });
  expect(details.status, await details.clone().text()).toBe(303);
  const delivery = await client.post(`/${slug}/checkout`, { intent: "delivery", shippingRateId: shop.standardRate });
  expect(delivery.status, await delivery.clone().text()).toBe(303);
}

/** Places the prepared cart; answers the response (303 to the order, or the refusal). */
export function placeOrder(client: Client, slug: string, paymentMethod = "manual:bank_transfer"): Promise<Response> {
  return client.post(`/${slug}/checkout`, { intent: "place", paymentMethod });
}

/** The whole purchase; answers the new order's id. */
export async function buy(
  client: Client,
  slug: string,
  shop: TestShop,
  contact: { email: string; name?: string },
  variant = shop.small,
  quantity = 1,
): Promise<string> {
  await addToCart(client, slug, variant, quantity);
  await prepareCheckout(client, slug, shop, contact);
  const placed = await placeOrder(client, slug);
  expect(placed.status, await placed.clone().text()).toBe(303);
  return /\/orders\/([0-9A-Z]+)/.exec(placed.headers.get("location") ?? "")![1]!;
}

/**
 * A new operator who owns a workspace `slug` named `name` with its shop open (`openShop`): the signed-in client,
 * their e-mail, and the workspace's id.
 */
export async function ownedShop(
  server: { url: string; db: Db },
  slug: string,
  name: string,
): Promise<{ owner: Client; ownerEmail: string; slug: string; workspaceId: string; shop: TestShop }> {
  const { client: owner, email: ownerEmail } = await signUp(server.url);
  await createWorkspace(owner, name, slug);
  const { id: workspaceId } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
  return { owner, ownerEmail, slug, workspaceId, shop: await openShop(server.db, workspaceId) };
}

/** What the database holds of an order, its payments (oldest first), a variant's stock and an order's events. */
export function shopRecords(db: Db) {
  return {
    orderRow: (id: string) => db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow(),
    paymentsOf: (orderId: string) =>
      db.selectFrom("payments").selectAll().where("order_id", "=", orderId).orderBy("created_at").execute(),
    variant: (id: string) =>
      db.selectFrom("product_variants").select(["stock", "reserved"]).where("id", "=", id).executeTakeFirstOrThrow(),
    eventsOf: (orderId: string, kind: string) =>
      db.selectFrom("order_events").select("id").where("order_id", "=", orderId).where("kind", "=", kind).execute(),
  };
}

/** A provider's return address as a path the test client can follow on the test server. */
export const returnPath = (url: string) => new URL(url).pathname + new URL(url).search;

/** Polls `check` (every 50 ms, 3 s at most) for what arrives asynchronously: a provider's event, a job's work. */
export async function waitFor(check: () => Promise<boolean>, what = "the condition"): Promise<void> {
  for (let i = 0; i < 60; i += 1) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
