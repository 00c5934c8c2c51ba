/**
 * PayPal (issue 18, ADR 035) through real HTTP on this dialect, with the official `@paypal/paypal-server-sdk`
 * talking HTTPS to a local PayPal (tests/fakes/paypal.ts) that its agent reaches by `lookup`, trusting a test CA:
 * connecting an app (checked with PayPal, sealed); paying on PayPal's approval page with the return, the status
 * endpoint and PayPal's events in any order, twice and at once — one capture, one payment, stock sold once; the
 * buyer changing the address at PayPal (the shipping callback prices it again, PayPal's order follows); an order
 * released before approval never captured; refunds from the console and from PayPal's dashboard, each recorded
 * once; webhooks verified as PayPal documents (CRC32, RSA-SHA256, certificate from PayPal's hosts only) with the
 * test's own key and certificate, forged ones refused; PayPal failing answered with the error contract.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createWorkspace, signUp, uniqueEmail } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { addToCart, ownedShop, placeOrder, prepareCheckout, returnPath, shopRecords, waitFor } from "../helpers/shop";
import { paypalSignature, startFakePayPal, type FakePayPal } from "../fakes/paypal";
import { setTestClock } from "~/lib/clock.server";
import { cardRelease } from "~/modules/commerce/hosted-checkout.server";
import { expireUnpaidOrders, ordersOf } from "~/modules/commerce/orders.server";
import { shippingOf, taxRatesOf } from "~/modules/commerce/prices.server";

let server: TestServer;
let paypal: FakePayPal;
beforeAll(async () => {
  paypal = await startFakePayPal();
  server = await startServer({
    PAYPAL_API_ADDRESS: paypal.address,
    PAYPAL_API_CA: paypal.caFile,
    PAYMENTS_TIMEOUT_MS: "1500",
  });
});
afterAll(async () => {
  await server.close();
  await paypal.close();
});

let shops = 0;
const records = () => shopRecords(server.db);
const orderRow = (id: string) => records().orderRow(id);
const paymentsOf = (orderId: string) => records().paymentsOf(orderId);
const variant = (id: string) => records().variant(id);
const eventsOf = (orderId: string, kind: string) => records().eventsOf(orderId, kind);
/** A signed-in owner whose shop is open (GB, and DE added here) and connected to its own PayPal app. */
async function paypalShop() {
  shops += 1;
  const { owner, slug, workspaceId, shop } = await ownedShop(
    server,
    `paypal-${process.pid}-${shops}`,
    `Wallet Bakery ${shops}`,
  );
  const app = paypal.addApp(`Wallet Bakery ${shops}`);
  const webhookId = paypal.addWebhook(app.clientId, `${server.url}/api/webhooks/payments?workspace=${workspaceId}`);
  const connected = await owner.post("/settings/integrations/payments", {
    intent: "paypal-connect",
    mode: "sandbox",
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    webhookId,
  });
  expect(await connected.text()).toContain("PayPal is connected");
  const shipping = shippingOf(server.db, workspaceId);
  const eu = await shipping.addZone("Germany", ["DE"], null);
  await shipping.addRate({ zoneId: eu, name: "Standard", kind: "flat", price: 900 }, null);
  await taxRatesOf(server.db, workspaceId).save({ country: "DE", name: "MwSt", ratePercent: 19 }, null);
  return { owner, slug, workspaceId, shop, app, webhookId };
}

type Shop = Awaited<ReturnType<typeof paypalShop>>;

/** A guest buys one small loaf (4.50 + 3.95 delivery, VAT included) with PayPal: sent to PayPal's page. */
async function buyWithPayPal(s: Shop) {
  const guest = new Client(server.url);
  await addToCart(guest, s.slug, s.shop.small);
  await prepareCheckout(guest, s.slug, s.shop, { email: uniqueEmail("wallet") });
  const placed = await placeOrder(guest, s.slug, "paypal:wallet");
  expect(placed.status, await placed.clone().text()).toBe(303);
  const location = placed.headers.get("location") ?? "";
  expect(location.startsWith(`${paypal.approvalUrl}/checkoutnow?token=`)).toBe(true);
  const paypalOrderId = new URL(location).searchParams.get("token")!;
  const order = await server.db
    .selectFrom("orders")
    .selectAll()
    .where("checkout_reference", "=", paypalOrderId)
    .executeTakeFirstOrThrow();
  return { guest, orderId: order.id, paypalOrderId, order };
}

const captureCalls = (paypalOrderId: string) =>
  paypal.requests.filter((r) => r.method === "POST" && r.path === `/v2/checkout/orders/${paypalOrderId}/capture`);
const status = (s: Shop, body: unknown) =>
  fetch(`${server.url}/api/v1/checkout/paypal/status?site=${s.slug}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("connecting PayPal", () => {
  it("checks the app with PayPal, keeps its secret sealed, and refuses what PayPal does not accept", async () => {
    shops += 1;
    const slug = `paypal-${process.pid}-${shops}`;
    const { client: owner } = await signUp(server.url);
    await createWorkspace(owner, "Unconnected", slug);
    const { id } = await server.db
      .selectFrom("workspaces")
      .select("id")
      .where("slug", "=", slug)
      .executeTakeFirstOrThrow();

    const malformed = await owner.post("/settings/integrations/payments", {
      intent: "paypal-connect",
      mode: "sandbox",
      clientId: "short",
      clientSecret: "",
      webhookId: "not an id",
    });
    expect(malformed.status).toBe(400);
    const said = await malformed.text();
    expect(said).toContain("Paste the app&#x27;s client ID from PayPal");
    expect(said).toContain("Paste the webhook ID PayPal shows");

    const app = paypal.addApp("Seaside Rolls");
    const wrong = await owner.post("/settings/integrations/payments", {
      intent: "paypal-connect",
      mode: "sandbox",
      clientId: app.clientId,
      clientSecret: `${app.clientSecret}x`,
      webhookId: "8PT597110X687430LKGECATA",
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("PayPal did not accept this client id and secret");
    expect(
      await server.db.selectFrom("payment_connections").selectAll().where("workspace_id", "=", id).execute(),
    ).toEqual([]);

    const webhookId = paypal.addWebhook(app.clientId, `${server.url}/api/webhooks/payments?workspace=${id}`);
    const ok = await owner.post("/settings/integrations/payments", {
      intent: "paypal-connect",
      mode: "sandbox",
      clientId: app.clientId,
      clientSecret: app.clientSecret,
      webhookId,
    });
    expect(ok.status).toBe(200);
    const page = await (await owner.get("/settings/integrations/payments")).text();
    expect(page).toContain("PayPal sandbox app");
    expect(page).toContain(webhookId);
    const row = await server.db
      .selectFrom("payment_connections")
      .selectAll()
      .where("workspace_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.credentials).not.toContain(app.clientSecret);

    const checked = await owner.post("/settings/integrations/payments", { intent: "paypal-check" });
    expect(await checked.text()).toContain("PayPal answered: the connection works");
    paypal.failNext(3, "500", { includeAuth: true });
    const down = await owner.post("/settings/integrations/payments", { intent: "paypal-check" });
    expect(down.status).toBe(503);
    paypal.failNext(0, "500");

    const gone = await owner.post("/settings/integrations/payments", { intent: "paypal-disconnect" });
    expect(await gone.text()).toContain("PayPal is disconnected");
    expect(
      await server.db.selectFrom("payment_connections").selectAll().where("workspace_id", "=", id).execute(),
    ).toEqual([]);
  });
});

describe("paying with PayPal", () => {
  it("captures once and pays once with the return, then the events", async () => {
    const s = await paypalShop();
    const o = await buyWithPayPal(s);
    const before = await variant(s.shop.small);
    const back = await paypal.approve(o.paypalOrderId);
    const page = await o.guest.get(returnPath(back));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Paid");
    await paypal.idle();
    const order = await orderRow(o.orderId);
    expect(order.status).toBe("paid");
    const payments = await paymentsOf(o.orderId);
    expect(payments.map((p) => [p.provider, p.kind, p.amount])).toEqual([["paypal", "payment", 845]]);
    expect(payments[0]!.reference).toBe(
      paypal.orders.get(o.paypalOrderId)!.purchase_units[0]!.payments!.captures![0]!.id,
    );
    expect(await eventsOf(o.orderId, "paid")).toHaveLength(1);
    const after = await variant(s.shop.small);
    expect([after.stock, after.reserved]).toEqual([before.stock - 1, before.reserved - 1]);
    const invoices = await server.db
      .selectFrom("invoices")
      .select("number")
      .where("order_id", "=", o.orderId)
      .execute();
    expect(invoices).toHaveLength(1);
  });

  it("pays once when the events come first, then the return, the status call and the events again, at once", async () => {
    const s = await paypalShop();
    const o = await buyWithPayPal(s);
    paypal.hold();
    const back = await paypal.approve(o.paypalOrderId);
    const approved = paypal.held.find((e) => e.event.event_type === "CHECKOUT.ORDER.APPROVED")!;
    // PayPal's approval event first: Atrium captures; PayPal's capture event is held.
    expect((await paypal.deliver(approved)).status).toBe(200);
    const results = await Promise.all([
      o.guest.get(returnPath(back)),
      status(s, { orderId: o.orderId, paypalOrderId: o.paypalOrderId }),
      status(s, { orderId: o.orderId, paypalOrderId: o.paypalOrderId }),
      paypal.deliver(approved),
      paypal.release(),
    ]);
    expect(results.slice(0, 4).map((r) => (r as Response).status)).toEqual([200, 200, 200, 200]);
    const reported = (await (results[1] as Response).json()) as { payment: string; status: string };
    expect(reported).toMatchObject({ payment: "paid", status: "paid" });
    await paypal.idle();
    // However many capture calls, PayPal captured once (one PayPal-Request-Id) and Atrium recorded it once.
    expect(new Set(captureCalls(o.paypalOrderId).map((r) => r.headers["paypal-request-id"])).size).toBe(1);
    expect(paypal.orders.get(o.paypalOrderId)!.purchase_units[0]!.payments!.captures).toHaveLength(1);
    expect((await paymentsOf(o.orderId)).map((p) => [p.kind, p.amount])).toEqual([["payment", 845]]);
    expect(await eventsOf(o.orderId, "paid")).toHaveLength(1);
    expect((await orderRow(o.orderId)).status).toBe("paid");
  });

  it("reports an approval still to give, and a PayPal order that is not this order's as a 404", async () => {
    const s = await paypalShop();
    const o = await buyWithPayPal(s);
    const waiting = await status(s, { orderId: o.orderId, paypalOrderId: o.paypalOrderId });
    expect(waiting.status).toBe(200);
    const body = (await waiting.json()) as { payment: string; approveUrl: string };
    expect(body.payment).toBe("awaiting_approval");
    expect(body.approveUrl).toContain(`token=${o.paypalOrderId}`);
    const other = await buyWithPayPal(s);
    const mixed = await status(s, { orderId: o.orderId, paypalOrderId: other.paypalOrderId });
    expect(mixed.status).toBe(404);
    const bad = await status(s, { orderId: o.orderId });
    expect(bad.status).toBe(400);
    // Coming back from PayPal's cancel link offers the payment again, with nothing taken.
    const cancelled = await o.guest.get(`/${s.slug}/orders/${o.orderId}?token=${o.paypalOrderId}`);
    expect(await cancelled.text()).toContain("Pay with PayPal");
    expect(captureCalls(o.paypalOrderId)).toHaveLength(0);
  });

  it("prices the order again when the buyer changes the address at PayPal, and PayPal charges the new total", async () => {
    const s = await paypalShop();
    const o = await buyWithPayPal(s);
    // Nothing is delivered to France: PayPal is told so, and the order stays as it was.
    await expect(
      paypal.approve(o.paypalOrderId, { address: { country_code: "FR", postal_code: "75001" } }),
    ).rejects.toThrow();
    expect((await orderRow(o.orderId)).total).toBe(845);
    const back = await paypal.approve(o.paypalOrderId, { address: { country_code: "DE", postal_code: "10115" } });
    const order = await orderRow(o.orderId);
    // Prices include tax: at 19 % MwSt the loaf's 4.50 holds 0.72 of tax and the 9.00 delivery 1.44 (it was 0.75
    // and 0.66 at 20 % VAT on 3.95 to Britain).
    expect([order.shipping, order.tax, order.total]).toEqual([900, 72 + 144, 450 + 900]);
    expect(order.shipping_method).toBe("Standard");
    // The callback carries no street: none is kept from the British address meanwhile.
    expect(JSON.parse(order.address!)).toMatchObject({ country: "DE", postalCode: "10115", line1: "" });
    expect(paypal.orders.get(o.paypalOrderId)!.purchase_units[0]!.amount.value).toBe("13.50");
    await o.guest.get(returnPath(back));
    expect((await paymentsOf(o.orderId)).map((p) => [p.kind, p.amount])).toEqual([["payment", 1350]]);
    // At capture, the address PayPal approved is the order's, street and all.
    const paid = await orderRow(o.orderId);
    expect(JSON.parse(paid.address!)).toMatchObject({ country: "DE", postalCode: "10115", line1: "3 Church Street" });
    expect(paid.total).toBe(1350);
    expect((await orderRow(o.orderId)).status).toBe("paid");
  });

  it("refuses a shipping callback whose address token is not the order's", async () => {
    const s = await paypalShop();
    const o = await buyWithPayPal(s);
    const callback = {
      id: o.paypalOrderId,
      shipping_address: { country_code: "DE", postal_code: "10115" },
    };
    const forged = await fetch(
      `${server.url}/api/v1/checkout/paypal/status?site=${s.slug}&order=${o.orderId}&callback=made-up`,
      { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(callback) },
    );
    expect(forged.status).toBe(404);
    expect((await orderRow(o.orderId)).total).toBe(845);
  });

  it("never captures an approval for an order released before it, so nothing is taken", async () => {
    const s = await paypalShop();
    const o = await buyWithPayPal(s);
    setTestClock(() => new Date(Date.now() + 61 * 60_000));
    try {
      await expireUnpaidOrders(server.db, server.url, cardRelease(server.atrium.runtime.services, server.url));
    } finally {
      setTestClock(undefined);
    }
    expect((await orderRow(o.orderId)).status).toBe("cancelled");
    const back = await paypal.approve(o.paypalOrderId);
    await o.guest.get(returnPath(back));
    await paypal.idle();
    const reported = (await (await status(s, { orderId: o.orderId, paypalOrderId: o.paypalOrderId })).json()) as {
      payment: string;
    };
    expect(reported.payment).toBe("not_captured");
    expect(captureCalls(o.paypalOrderId)).toHaveLength(0);
    expect(await paymentsOf(o.orderId)).toEqual([]);
  });

  it("never cancels as expired an order paid while its page was being closed", async () => {
    const s = await paypalShop();
    const o = await buyWithPayPal(s);
    await o.guest.get(returnPath(await paypal.approve(o.paypalOrderId)));
    expect((await orderRow(o.orderId)).status).toBe("paid");
    // The sweep read it pending and PayPal approved but not captured; the capture landed before its cancel.
    await expect(
      ordersOf(server.db, s.workspaceId).cancel(o.orderId, { system: "expired" }, { origin: server.url }),
    ).rejects.toThrow("This order changed meanwhile");
    const order = await orderRow(o.orderId);
    expect([order.status, order.refunded]).toEqual(["paid", 0]);
  });
});

describe("refunds through PayPal", () => {
  async function paidOrder() {
    const s = await paypalShop();
    const o = await buyWithPayPal(s);
    await o.guest.get(returnPath(await paypal.approve(o.paypalOrderId)));
    await paypal.idle();
    expect((await orderRow(o.orderId)).status).toBe("paid");
    const [payment] = await paymentsOf(o.orderId);
    return { ...s, ...o, captureId: payment!.reference };
  }

  it("refunds part of an order from the console once for a double submit, and refuses more than is left", async () => {
    const o = await paidOrder();
    const [one, two] = await Promise.all([
      o.owner.post(`/shop/orders/${o.orderId}`, { intent: "refund", amount: "2.00" }),
      o.owner.post(`/shop/orders/${o.orderId}`, { intent: "refund", amount: "2.00" }),
    ]);
    expect([one!.status, two!.status]).toEqual([303, 303]);
    const refundCalls = paypal.requests.filter((r) => r.path === `/v2/payments/captures/${o.captureId}/refund`);
    expect(new Set(refundCalls.map((r) => r.headers["paypal-request-id"])).size).toBe(1);
    await paypal.idle();
    const order = await orderRow(o.orderId);
    expect([order.refunded, order.status]).toEqual([200, "paid"]);
    const refunds = (await paymentsOf(o.orderId)).filter((p) => p.kind === "refund");
    expect(refunds.map((r) => [r.provider, r.amount])).toEqual([["paypal", 200]]);

    const tooMuch = await o.owner.post(`/shop/orders/${o.orderId}`, { intent: "refund", amount: "7.00" });
    expect(tooMuch.status).toBe(400);
    expect(await tooMuch.text()).toContain("A refund is at most what was paid");

    // A refund made in PayPal's dashboard is recorded from its event, once however often it comes.
    await paypal.dashboardRefund(o.captureId, "1.45");
    await paypal.idle();
    const refunded = paypal.events.filter(
      (e) =>
        e.event.event_type === "PAYMENT.CAPTURE.REFUNDED" &&
        (e.event.resource as { amount?: { value?: string } }).amount?.value === "1.45",
    );
    expect(refunded).toHaveLength(1);
    expect((await paypal.deliver(refunded[0]!)).status).toBe(200);
    await waitFor(async () => (await orderRow(o.orderId)).refunded === 345, "the dashboard refund");
    expect((await paymentsOf(o.orderId)).filter((p) => p.kind === "refund").map((p) => p.amount)).toEqual([200, 145]);
  });

  it("answers 503 when PayPal fails or answers garbage, and records no refund", async () => {
    const o = await paidOrder();
    paypal.failNext(4, "500");
    const failed = await o.owner.post(`/shop/orders/${o.orderId}`, { intent: "refund", amount: "1.00" });
    expect(failed.status).toBe(503);
    expect(await failed.text()).toContain("PayPal could not be reached to refund this payment");
    paypal.failNext(4, "garbage");
    const garbage = await o.owner.post(`/shop/orders/${o.orderId}`, { intent: "refund", amount: "1.00" });
    expect(garbage.status).toBe(503);
    paypal.failNext(0, "500");
    expect((await orderRow(o.orderId)).refunded).toBe(0);
    expect((await paymentsOf(o.orderId)).filter((p) => p.kind === "refund")).toEqual([]);
  });
});

describe("PayPal's webhooks", () => {
  const url = (ws: string) => `${server.url}/api/webhooks/payments?workspace=${ws}`;
  const send = (ws: string, body: string, headers: Record<string, string>) =>
    fetch(url(ws), { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  const signed = (body: string, webhookId: string, overrides: Record<string, string> = {}) => {
    const id = randomUUID();
    const time = new Date().toISOString();
    return {
      "paypal-transmission-id": id,
      "paypal-transmission-time": time,
      "paypal-transmission-sig": paypalSignature(id, time, webhookId, body),
      "paypal-cert-url": "https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77",
      "paypal-auth-algo": "SHA256withRSA",
      ...overrides,
    };
  };

  it("applies an event signed with the shop's webhook id by the test's key, and refuses forged ones", async () => {
    const s = await paypalShop();
    const other = await paypalShop();
    const o = await buyWithPayPal(s);
    paypal.hold();
    await paypal.approve(o.paypalOrderId);
    const approved = paypal.held.find((e) => e.event.event_type === "CHECKOUT.ORDER.APPROVED")!;
    paypal.held.length = 0;
    paypal.release(() => []);

    // A body changed after signing: the CRC32 differs.
    const tampered = approved.body.replace('"CHECKOUT.ORDER.APPROVED"', '"CHECKOUT.ORDER.APPROVED" ');
    expect((await send(s.workspaceId, tampered, approved.headers)).status).toBe(401);
    // Signed for another shop's webhook.
    const forOther = signed(approved.body, other.webhookId);
    expect((await send(s.workspaceId, approved.body, forOther)).status).toBe(401);
    // A certificate from anywhere but PayPal's hosts is not even fetched.
    const elsewhere = signed(approved.body, s.webhookId, {
      "paypal-cert-url": `https://attacker.example/v1/notifications/certs/CERT-1`,
    });
    expect((await send(s.workspaceId, approved.body, elsewhere)).status).toBe(401);
    const plainHttp = signed(approved.body, s.webhookId, {
      "paypal-cert-url": "http://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77",
    });
    expect((await send(s.workspaceId, approved.body, plainHttp)).status).toBe(401);
    // Unsigned.
    expect((await send(s.workspaceId, approved.body, {})).status).toBe(401);
    // Signed right, but long ago.
    const old = new Date(Date.now() - 3_600_000).toISOString();
    const stale = signed(approved.body, s.webhookId, {
      "paypal-transmission-time": old,
      "paypal-transmission-sig": paypalSignature("t-1", old, s.webhookId, approved.body),
      "paypal-transmission-id": "t-1",
    });
    const late = await send(s.workspaceId, approved.body, stale);
    expect(late.status).toBe(401);
    // Told apart from a bad signature: the signature was right, the time was not.
    expect(await late.text()).toContain("Timestamp outside the replay window");
    expect(await paymentsOf(o.orderId)).toEqual([]);

    // The genuine one, then again: applied once.
    const first = await send(s.workspaceId, approved.body, approved.headers);
    expect(first.status, await first.clone().text()).toBe(200);
    const again = await send(s.workspaceId, approved.body, approved.headers);
    expect(((await again.json()) as { duplicate: boolean }).duplicate).toBe(true);
    await paypal.idle();
    expect((await paymentsOf(o.orderId)).map((p) => [p.provider, p.kind, p.amount])).toEqual([
      ["paypal", "payment", 845],
    ]);
    // Sent to the other shop's address with its own signature: that shop has no such order, nothing is applied.
    const theirs = await send(other.workspaceId, approved.body, signed(approved.body, other.webhookId));
    expect(theirs.status).toBe(200);
    expect(await paymentsOf(o.orderId)).toHaveLength(1);
  });
});
