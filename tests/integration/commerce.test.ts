/**
 * The shop (issue 17, ADR 030), through real HTTP on this dialect: buying as a guest and as a signed-in
 * customer with the manual provider, the confirmation and the order in the portal and the customer API (another
 * customer's is a 404), the operator marking it paid, sending it and cancelling one; stock and coupons right under
 * concurrency (fifty buyers of the last item, two of a coupon's last use); finalisation applied twice and at once;
 * `POST /api/v1/cart/validate` naming each problem; Idempotency-Key; unpaid orders expiring; and bad input.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client, createWorkspace, mailedText, signUp, uniqueEmail } from "../helpers/client";
import { signInCustomer } from "../helpers/customers";
import { drainJobs } from "../helpers/jobs";
import { startServer, type TestServer } from "../helpers/server";
import { addToCart, buy, openShop, placeOrder, prepareCheckout } from "../helpers/shop";
import { setTestClock } from "~/lib/clock.server";
import { productsOf } from "~/modules/commerce/catalogue.server";
import { couponsOf } from "~/modules/commerce/prices.server";
import { signWebhook } from "~/modules/webhooks/standard-webhooks.server";
import { expireUnpaidOrders, ordersOf } from "~/modules/commerce/orders.server";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ CUSTOMER_CODES_PER_EMAIL_PER_HOUR: "50", CUSTOMER_CODES_PER_ADDRESS_PER_HOUR: "1000" });
});
afterAll(() => server.close());
afterEach(() => setTestClock(undefined));

let shops = 0;
/** A signed-in owner with a new workspace whose shop is open. */
async function business(options: { largeStock?: number } = {}) {
  shops += 1;
  const slug = `shop-${process.pid}-${shops}`;
  const { client } = await signUp(server.url);
  await createWorkspace(client, `Rye & Co ${shops}`, slug);
  const { id } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
  const shop = await openShop(server.db, id, options);
  return { owner: client, slug, workspaceId: id, shop };
}

const variantRow = (id: string) =>
  server.db.selectFrom("product_variants").select(["stock", "reserved"]).where("id", "=", id).executeTakeFirstOrThrow();

const site = (slug: string) => ({ "x-atrium-site": slug });

/** The newest mail to `email` once it says `text` (the log's lines arrive a moment after the job). */
async function mailSaying(email: string, text: string): Promise<string> {
  for (let i = 0; i < 40; i += 1) {
    const found = server.logs.findLast((l) => l.to === email && String(l.msg).includes(text));
    if (found) return String(found.msg);
    await new Promise((r) => setTimeout(r, 50));
  }
  return mailedText(server.url, email);
}

describe("buying with the manual provider", () => {
  it("lets a guest buy: the cart, the checkout, a confirmation with the bank details and a link to the order", async () => {
    const { slug, shop } = await business();
    const guest = new Client(server.url);
    const email = uniqueEmail("guest");

    // The product page sells what is in stock and its cart starts with the first add.
    const page = await guest.get(`/${slug}/shop/seeded-rye`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('"@type":"Product"');
    expect(html).toContain('"priceCurrency":"USD"');
    // Search engines find it: the shop and the product are in the sitemap.
    const sitemap = await (await guest.get(`/${slug}/sitemap.xml`)).text();
    expect(sitemap).toContain(`/${slug}/shop</loc>`);
    expect(sitemap).toContain(`/${slug}/shop/seeded-rye</loc>`);
    await addToCart(guest, slug, shop.small, 2);
    const cart = await (await guest.get(`/${slug}/cart`)).text();
    expect(cart).toContain("Seeded rye");
    expect(cart).toContain("$9.00");

    await prepareCheckout(guest, slug, shop, { email, name: "Ada Guest" });
    const checkout = await (await guest.get(`/${slug}/checkout`)).text();
    // 2 × 4.50 + 3.95 delivery, VAT included (20 % of 12.95 is 2.16): the button says what is owed.
    expect(checkout).toContain("Place order · $12.95");
    const placed = await placeOrder(guest, slug);
    expect(placed.status).toBe(303);
    const orderPath = placed.headers.get("location")!;
    expect(orderPath).toMatch(new RegExp(`^/${slug}/orders/[0-9A-Z]+\\?placed=1$`));

    // The guest sees the order (a manage cookie for it) with how to pay; the stock is held, not sold.
    const order = await (await guest.get(orderPath)).text();
    expect(order).toContain("Awaiting payment");
    expect(order).toContain("IBAN GB00 TEST 0000 0000");
    expect(await variantRow(shop.small)).toEqual({ stock: 5, reserved: 2 });

    await drainJobs(server);
    const mail = await mailSaying(email, "Total:");
    expect(mail).toContain("Total: $12.95");
    expect(mail).toContain("IBAN GB00 TEST 0000 0000");
    expect(mail).toMatch(/\/portal\/callback\?token=/);

    // The cart is finished: the checkout now sends to the order, and a new add starts a new cart.
    expect((await guest.get(`/${slug}/checkout`)).status).toBe(303);
    await addToCart(guest, slug, shop.small);
    expect(await (await guest.get(`/${slug}/cart`)).text()).toContain("$4.50");
  });

  it("lets a signed-in customer buy and find the order in the portal and the API; another customer gets a 404", async () => {
    const { slug, shop } = await business();
    const email = uniqueEmail("ada");
    const ada = await signInCustomer(server.url, slug, email);
    const orderId = await buy(ada, slug, shop, { email }, shop.large);

    const mine = (await (await ada.get(`/api/v1/orders`, site(slug))).json()) as {
      orders: { id: string; total: number }[];
    };
    expect(mine.orders.map((o) => o.id)).toEqual([orderId]);
    expect(mine.orders[0]!.total).toBe(800 + 395);
    const detail = (await (await ada.get(`/api/v1/orders/${orderId}`, site(slug))).json()) as {
      lines: { sku: string; quantity: number }[];
      payment: { kind: string; text: string };
      canCancel: boolean;
    };
    expect(detail.lines).toEqual([expect.objectContaining({ sku: "RYE-L", quantity: 1 })]);
    expect(detail.payment.text).toContain(`order #`);
    expect(detail.canCancel).toBe(true);
    expect(await (await ada.get(`/${slug}/orders`)).text()).toContain("Awaiting payment");
    // And saves the product for later: it is listed with the pages they saved.
    const saved = await ada.post(`/${slug}/saved`, { intent: "save", kind: "product", ref: shop.productId });
    expect(saved.status).toBe(303);
    expect(await (await ada.get(`/${slug}/saved`)).text()).toContain(`href="/${slug}/shop/seeded-rye"`);

    const bob = await signInCustomer(server.url, slug, uniqueEmail("bob"));
    expect((await bob.get(`/api/v1/orders/${orderId}`, site(slug))).status).toBe(404);
    expect((await bob.get(`/${slug}/orders/${orderId}`)).status).toBe(404);
    expect(((await (await bob.get(`/api/v1/orders`, site(slug))).json()) as { total: number }).total).toBe(0);
    // And a visitor with nothing is sent to sign in.
    expect((await new Client(server.url).get(`/${slug}/orders/${orderId}`)).status).toBe(302);
  });

  it("lets the operator mark it paid (once, however often), send it and see it on the timeline", async () => {
    const { owner, slug, workspaceId, shop } = await business();
    const email = uniqueEmail("buyer");
    const orderId = await buy(new Client(server.url), slug, shop, { email }, shop.small, 3);
    expect(await variantRow(shop.small)).toEqual({ stock: 5, reserved: 3 });

    // Two members press "Mark as paid" at once: one payment, the stock taken once, one receipt.
    const [a, b] = await Promise.all([
      owner.post(`/shop/orders/${orderId}`, { intent: "paid", note: "transfer 12/03" }),
      owner.post(`/shop/orders/${orderId}`, { intent: "paid" }),
    ]);
    expect([a.status, b.status]).toEqual([303, 303]);
    const payments = await server.db.selectFrom("payments").selectAll().where("order_id", "=", orderId).execute();
    expect(payments).toHaveLength(1);
    expect(payments[0]!.amount).toBe(3 * 450 + 395);
    expect(await variantRow(shop.small)).toEqual({ stock: 2, reserved: 0 });
    await drainJobs(server);
    await mailSaying(email, "received your payment");
    const receipts = server.logs.filter((l) => l.to === email && String(l.msg).includes("received your payment"));
    expect(receipts).toHaveLength(1);

    expect((await owner.post(`/shop/orders/${orderId}`, { intent: "fulfil" })).status).toBe(303);
    const order = await ordersOf(server.db, workspaceId).byId(orderId);
    expect(order.status).toBe("fulfilled");
    const page = await (await owner.get(`/shop/orders/${orderId}`)).text();
    for (const step of ["Order placed", "Marked as paid", "Sent"]) expect(page).toContain(step);
    // A sent order cannot be cancelled, only refunded — and never above what was paid.
    expect((await owner.post(`/shop/orders/${orderId}`, { intent: "cancel" })).status).toBe(409);
    const tooMuch = await owner.post(`/shop/orders/${orderId}`, { intent: "refund", amount: "100.00" });
    expect(tooMuch.status).toBe(400);
    expect((await owner.post(`/shop/orders/${orderId}`, { intent: "refund", amount: "4.50" })).status).toBe(303);
    expect((await ordersOf(server.db, workspaceId).byId(orderId)).refunded).toBe(450);
  });

  it("cancels an unpaid order from the console: the stock and the coupon's use come back, the customer is told", async () => {
    const { owner, slug, workspaceId, shop } = await business();
    await couponsOf(server.db, workspaceId).create({ code: "ONCE", kind: "percent", value: 10, usageLimit: 1 }, null);
    const guest = new Client(server.url);
    const email = uniqueEmail("cancelled");
    await addToCart(guest, slug, shop.small, 2);
    await guest.post(`/${slug}/cart`, { intent: "coupon", code: "once" });
    await prepareCheckout(guest, slug, shop, { email });
    const placed = await placeOrder(guest, slug);
    const orderId = /orders\/([0-9A-Z]+)/.exec(placed.headers.get("location")!)![1]!;
    const order = await ordersOf(server.db, workspaceId).byId(orderId);
    expect(order.discount).toBe(90);
    expect((await couponsOf(server.db, workspaceId).byCode("ONCE"))!.usedCount).toBe(1);

    expect((await owner.post(`/shop/orders/${orderId}`, { intent: "cancel" })).status).toBe(303);
    expect(await variantRow(shop.small)).toEqual({ stock: 5, reserved: 0 });
    expect((await couponsOf(server.db, workspaceId).byCode("ONCE"))!.usedCount).toBe(0);
    await drainJobs(server);
    expect(await mailSaying(email, "was cancelled")).toContain(`Order #${order.number} was cancelled`);
    // Marking a cancelled order paid is refused with what to do instead.
    const late = await owner.post(`/shop/orders/${orderId}`, { intent: "paid" });
    expect(late.status).toBe(409);
    expect(await late.text()).toContain("was cancelled");
  });
});

describe("under concurrency", () => {
  it("sells the last item once when fifty buyers check out at the same moment", async () => {
    const { slug, workspaceId, shop } = await business({ largeStock: 1 });
    const buyers = Array.from({ length: 50 }, () => new Client(server.url));
    for (const [i, buyer] of buyers.entries()) {
      await addToCart(buyer, slug, shop.large);
      await prepareCheckout(buyer, slug, shop, { email: `last-${i}-${process.pid}@example.test` });
    }
    const answers = await Promise.all(buyers.map((b) => placeOrder(b, slug)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 303)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const refused = await answers.find((a) => a.status === 409)!.text();
    expect(refused).toMatch(/sold out|Only 0 left|Sold out/i);
    expect(await variantRow(shop.large)).toEqual({ stock: 1, reserved: 1 });
    expect(await ordersOf(server.db, workspaceId).count()).toBe(1);
  });

  it("admits one of two concurrent last uses of a coupon", async () => {
    const { slug, workspaceId, shop } = await business();
    await couponsOf(server.db, workspaceId).create({ code: "LASTONE", kind: "fixed", value: 100, usageLimit: 1 }, null);
    const buyers = [new Client(server.url), new Client(server.url)];
    for (const [i, buyer] of buyers.entries()) {
      await addToCart(buyer, slug, shop.small);
      await buyer.post(`/${slug}/cart`, { intent: "coupon", code: "LASTONE" });
      await prepareCheckout(buyer, slug, shop, { email: `coupon-${i}-${process.pid}@example.test` });
    }
    const statuses = (await Promise.all(buyers.map((b) => placeOrder(b, slug)))).map((r) => r.status).sort();
    expect(statuses).toEqual([303, 409]);
    expect((await couponsOf(server.db, workspaceId).byCode("LASTONE"))!.usedCount).toBe(1);
    // The one refused took no stock either.
    expect(await variantRow(shop.small)).toEqual({ stock: 5, reserved: 1 });
  });

  it("pays an order once when its payment is applied twice and five times at once", async () => {
    const { slug, workspaceId, shop } = await business();
    const orderId = await buy(new Client(server.url), slug, shop, { email: uniqueEmail("twice") }, shop.small, 2);
    const orders = ordersOf(server.db, workspaceId);
    const notice = {
      provider: "manual",
      reference: `manual:${orderId}`,
      amount: 2 * 450 + 395,
      currency: "USD",
      actorUserId: null,
      origin: server.url,
    };
    const results = await Promise.all(Array.from({ length: 5 }, () => orders.finalisePayment(orderId, notice)));
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect((await orders.finalisePayment(orderId, notice)).applied).toBe(false);
    expect(await server.db.selectFrom("payments").select("id").where("order_id", "=", orderId).execute()).toHaveLength(
      1,
    );
    expect(await variantRow(shop.small)).toEqual({ stock: 3, reserved: 0 });
    const paidMails = await server.db
      .selectFrom("jobs")
      .select("payload")
      .where("kind", "=", "commerce.order-mail")
      .where("payload", "like", `%${orderId}%paid%`)
      .execute();
    expect(paidMails).toHaveLength(1);
  });
});

describe("POST /api/v1/cart/validate", () => {
  const validate = (client: Client, slug: string, body: unknown, headers: Record<string, string> = {}) =>
    client.postJson(`/api/v1/cart/validate`, body, { ...site(slug), ...headers });

  it("prices from the server and names each problem where a storefront can show it", async () => {
    const { slug, workspaceId, shop } = await business();
    const other = await business();
    await couponsOf(server.db, workspaceId).create(
      { code: "OLD", kind: "percent", value: 50, endsAt: "2020-01-01T00:00:00.000Z" },
      null,
    );
    const client = new Client(server.url);
    const res = await validate(client, slug, {
      lines: [
        { variantId: shop.small, quantity: 2, price: 400 },
        { variantId: shop.large, quantity: 3 },
        { variantId: other.shop.small, quantity: 1 },
      ],
      couponCode: "OLD",
      address: { country: "FR" },
      total: 1,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      totals: { subtotal: number; total: number };
      problems: { code: string; variantId?: string; field?: string }[];
      ready: boolean;
    };
    expect(body.totals.subtotal).toBe(2 * 450 + 3 * 800);
    expect(body.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: "price_changed", variantId: shop.small }),
        expect.objectContaining({ code: "insufficient_stock", variantId: shop.large }),
        expect.objectContaining({ code: "unavailable", variantId: other.shop.small }),
        expect.objectContaining({ code: "coupon_expired", field: "couponCode" }),
        expect.objectContaining({ code: "no_shipping_rate", field: "address" }),
        expect.objectContaining({ code: "total_mismatch" }),
      ]),
    );
    expect(body.ready).toBe(false);

    // A deleted product's line is unavailable too.
    await productsOf(server.db, workspaceId).remove(shop.productId, null);
    const gone = (await (await validate(client, slug, { lines: [{ variantId: shop.small, quantity: 1 }] })).json()) as {
      problems: { code: string }[];
    };
    expect(gone.problems.map((p) => p.code)).toEqual(["unavailable"]);
  });

  it("answers a ready cart with tax for the address and the delivery rates", async () => {
    const { slug, shop } = await business();
    const body = (await (
      await validate(new Client(server.url), slug, {
        lines: [{ variantId: shop.small, quantity: 1, price: 450 }],
        address: { country: "GB" },
        shippingRateId: shop.standardRate,
        total: 845,
      })
    ).json()) as {
      totals: Record<string, number>;
      shippingRates: { id: string }[];
      problems: unknown[];
      ready: boolean;
    };
    expect(body.totals).toEqual({ subtotal: 450, discount: 0, shipping: 395, tax: 141, total: 845 });
    expect(body.shippingRates.map((r) => r.id).sort()).toEqual([shop.standardRate, shop.pickupRate].sort());
    expect(body.problems).toEqual([]);
    expect(body.ready).toBe(true);
  });

  it("refuses negative, fractional and absurd quantities with the error contract", async () => {
    const { slug, shop } = await business();
    for (const quantity of [-1, 1.5, 100_000]) {
      const res = await validate(new Client(server.url), slug, { lines: [{ variantId: shop.small, quantity }] });
      expect(res.status, String(quantity)).toBe(400);
      const body = (await res.json()) as { error: string; statusCode: number; issues: { field: string }[] };
      expect(body.statusCode).toBe(400);
      expect(body.issues[0]!.field).toBe("lines.0.quantity");
    }
  });

  it("replays an Idempotency-Key's answer for the same caller and body only", async () => {
    const { slug, shop } = await business();
    const ada = await signInCustomer(server.url, slug, uniqueEmail("idem"));
    const body = { lines: [{ variantId: shop.small, quantity: 1 }] };
    const first = await validate(ada, slug, body, { "idempotency-key": "k-1" });
    const again = await validate(ada, slug, body, { "idempotency-key": "k-1" });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(await first.text());
    const changed = await validate(
      ada,
      slug,
      { lines: [{ variantId: shop.small, quantity: 2 }] },
      { "idempotency-key": "k-1" },
    );
    expect(changed.status).toBe(422);
    // Another customer's same key is theirs alone: it runs, and is not a replay.
    const bob = await signInCustomer(server.url, slug, uniqueEmail("idem-b"));
    const theirs = await validate(
      bob,
      slug,
      { lines: [{ variantId: shop.small, quantity: 3 }] },
      { "idempotency-key": "k-1" },
    );
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
  });
});

describe("an unpaid order", () => {
  it("is cancelled when its hold runs out, and its stock is on sale again", async () => {
    const { slug, workspaceId, shop } = await business();
    const orderId = await buy(new Client(server.url), slug, shop, { email: uniqueEmail("late") }, shop.small, 4);
    expect(await variantRow(shop.small)).toEqual({ stock: 5, reserved: 4 });
    setTestClock(() => new Date(Date.now() + 8 * 86_400_000));
    await expireUnpaidOrders(server.db, server.url);
    const order = await ordersOf(server.db, workspaceId).byId(orderId);
    expect(order.status).toBe("cancelled");
    expect(order.cancelReason).toBe("expired");
    expect(await variantRow(shop.small)).toEqual({ stock: 5, reserved: 0 });
  });

  it("is cancelled by its customer within the window, and not after it", async () => {
    const { slug, shop } = await business();
    const email = uniqueEmail("self");
    const ada = await signInCustomer(server.url, slug, email);
    const first = await buy(ada, slug, shop, { email });
    const cancelled = await ada.postJson(`/api/v1/orders/${first}/cancel`, {}, site(slug));
    expect(cancelled.status).toBe(200);
    expect(((await cancelled.json()) as { status: string }).status).toBe("cancelled");
    const second = await buy(ada, slug, shop, { email });
    setTestClock(() => new Date(Date.now() + 25 * 3_600_000));
    const late = await ada.postJson(`/api/v1/orders/${second}/cancel`, {}, site(slug));
    expect(late.status).toBe(409);
  });
});

describe("the catalogue", () => {
  it("keeps each workspace's products to itself", async () => {
    const a = await business();
    const b = await business();
    expect(await productsOf(server.db, a.workspaceId).find(b.shop.productId)).toBeUndefined();
    await expect(productsOf(server.db, a.workspaceId).remove(b.shop.productId, null)).rejects.toThrow(/not found/);
    await expect(productsOf(server.db, a.workspaceId).setStatus([b.shop.productId], "archived", null)).resolves.toBe(0);
    expect((await productsOf(server.db, b.workspaceId).byId(b.shop.productId)).status).toBe("active");
    // A variant of another workspace cannot be put in this site's cart.
    const res = await new Client(server.url).post(`/${a.slug}/cart`, {
      intent: "add",
      variant: b.shop.small,
      quantity: "1",
    });
    expect(res.status).toBe(404);
  });

  it("creates a product from the console form, refusing bad prices beside their field", async () => {
    const { owner, slug } = await business();
    const bad = await owner.post(`/shop/products/new`, {
      intent: "save",
      title: "Focaccia",
      price: "-3",
      status: "active",
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Enter an amount in USD");
    const fraction = await owner.post(`/shop/products/new`, {
      intent: "save",
      title: "Focaccia",
      price: "3.555",
      status: "active",
    });
    expect(fraction.status).toBe(400);
    const ok = await owner.post(`/shop/products/new`, {
      intent: "save",
      title: "Focaccia",
      price: "6.50",
      stock: "8",
      status: "active",
      "option.0.name": "Topping",
      "option.0.values": "Rosemary, Olive",
    });
    expect(ok.status).toBe(303);
    expect((await new Client(server.url).get(`/${slug}/shop/focaccia`)).status).toBe(200);
    const { id } = await server.db
      .selectFrom("products")
      .select("id")
      .where("slug", "=", "focaccia")
      .executeTakeFirstOrThrow();
    const variants = await server.db
      .selectFrom("product_variants")
      .select(["options", "price", "stock"])
      .where("product_id", "=", id)
      .orderBy("position")
      .execute();
    expect(variants).toEqual([
      { options: '["Rosemary"]', price: 650, stock: 8 },
      { options: '["Olive"]', price: 650, stock: 8 },
    ]);
  });
});

describe("POST /api/webhooks/products", () => {
  let sent = 0;
  async function send(secret: string, workspaceId: string, type: string, data: unknown) {
    const text = JSON.stringify({ type, workspace: workspaceId, data });
    const id = `msg_products_${process.pid}_${++sent}`;
    const timestamp = Math.floor(Date.now() / 1000);
    const res = await fetch(`${server.url}/api/webhooks/products`, {
      method: "POST",
      body: text,
      headers: {
        "content-type": "application/json",
        "webhook-id": id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signWebhook(secret, id, timestamp, text),
        "atrium-workspace": workspaceId,
      },
    });
    return res.status;
  }

  it("applies an integration's stock, status and product changes, and the shop's pages show them at once", async () => {
    const { owner, slug, workspaceId, shop } = await business();
    const created = await owner.post("/settings/webhooks", { intent: "create", family: "products" });
    const secret = /data-testid="new-webhook-secret">(whsec_[^<]+)</.exec(await created.text())![1]!;
    const page = () => new Client(server.url).get(`/${slug}/shop/seeded-rye`).then((r) => r.text());
    expect(await page()).toContain("Only a few left");
    expect(await page()).not.toContain("Sold out");

    expect(await send(secret, workspaceId, "products.stock", { sku: "RYE-S", stock: 0 })).toBe(200);
    expect(await send(secret, workspaceId, "products.stock", { sku: "RYE-L", stock: 0 })).toBe(200);
    expect(await variantRow(shop.small)).toEqual({ stock: 0, reserved: 0 });
    // Both variants sold out: the page says so and its button cannot add to the cart.
    expect(await page()).toMatch(/<button type="submit" class="site-button" disabled="">Sold out<\/button>/);

    const made = await send(secret, workspaceId, "products.saved", {
      productId: null,
      product: { title: "Spelt loaf", status: "active", variants: [{ options: [], price: 520, stock: 3 }] },
    });
    expect(made).toBe(200);
    expect((await new Client(server.url).get(`/${slug}/shop/spelt-loaf`)).status).toBe(200);

    expect(
      await send(secret, workspaceId, "products.status", { productIds: [shop.productId], status: "archived" }),
    ).toBe(200);
    expect((await new Client(server.url).get(`/${slug}/shop/seeded-rye`)).status).toBe(404);

    // Another workspace's product, or a made-up one, is a 404 that changes nothing; a bad body is a 400.
    const other = await business();
    expect(await send(secret, workspaceId, "products.deleted", { productId: other.shop.productId })).toBe(404);
    expect(await send(secret, workspaceId, "products.stock", { sku: "NOPE", stock: 1 })).toBe(404);
    expect(await send(secret, workspaceId, "products.stock", { sku: "RYE-S", stock: -1 })).toBe(400);
    expect((await productsOf(server.db, other.workspaceId).byId(other.shop.productId)).status).toBe("active");
  });
});
