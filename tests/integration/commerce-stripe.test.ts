/**
 * Stripe card payments (issue 18, ADR 032) through real HTTP on this dialect, with the official SDK talking to a
 * local Stripe (tests/fakes/stripe.ts) whose events are signed by the SDK's own helper: connecting an account
 * (key checked, endpoint registered, secret sealed), paying on the hosted page with the return and the webhook in
 * either order, twice and at once — one payment, stock sold once; an order released before its payment arrives
 * has it refunded; partial refunds from the console through Stripe and refunds made in Stripe's dashboard, each
 * recorded once; the Stripe vector of ../shared/spec/test-vectors.md; forged, unsigned and cross-workspace events
 * refused; Stripe failing or silent answered with the error contract and nothing half-written.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createWorkspace, signUp, uniqueEmail } from "../helpers/client";
import { drainJobs } from "../helpers/jobs";
import { startServer, type TestServer } from "../helpers/server";
import { addToCart, ownedShop, placeOrder, prepareCheckout, returnPath, shopRecords, waitFor } from "../helpers/shop";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe";
import { setTestClock } from "~/lib/clock.server";
import { expireUnpaidOrders } from "~/modules/commerce/orders.server";
import { verifyStripeSignature } from "~/modules/commerce/payment-events.server";
import { cardRelease } from "~/modules/commerce/hosted-checkout.server";

let server: TestServer;
let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe();
  server = await startServer({ STRIPE_API_URL: stripe.url, PAYMENTS_TIMEOUT_MS: "400" });
});
afterAll(async () => {
  await server.close();
  await stripe.close();
});

let shops = 0;
const records = () => shopRecords(server.db);
const orderRow = (id: string) => records().orderRow(id);
const paymentsOf = (orderId: string) => records().paymentsOf(orderId);
const variant = (id: string) => records().variant(id);
const eventsOf = (orderId: string, kind: string) => records().eventsOf(orderId, kind);
/** A signed-in owner whose shop is open and connected to its own (fake) Stripe account. */
async function stripeShop() {
  shops += 1;
  const { owner, slug, workspaceId, shop } = await ownedShop(
    server,
    `stripe-${process.pid}-${shops}`,
    `Card Bakery ${shops}`,
  );
  const key = stripe.addAccount(`Card Bakery ${shops}`);
  const connected = await owner.post("/settings/integrations/payments", { intent: "stripe-connect", secretKey: key });
  expect(await connected.text()).toContain("Stripe is connected");
  return { owner, slug, workspaceId, shop, key };
}

type Shop = Awaited<ReturnType<typeof stripeShop>>;

/** A guest buys one small loaf by card: answers the client, the order id and the Stripe session id. */
async function buyByCard(s: Shop) {
  const guest = new Client(server.url);
  await addToCart(guest, s.slug, s.shop.small);
  await prepareCheckout(guest, s.slug, s.shop, { email: uniqueEmail("card") });
  const placed = await placeOrder(guest, s.slug, "stripe:card");
  expect(placed.status, await placed.clone().text()).toBe(303);
  const location = placed.headers.get("location") ?? "";
  expect(location.startsWith(`${stripe.url}/pay/cs_test_`)).toBe(true);
  const sessionId = location.split("/").pop()!;
  const order = await server.db
    .selectFrom("orders")
    .selectAll()
    .where("checkout_reference", "=", sessionId)
    .executeTakeFirstOrThrow();
  return { guest, orderId: order.id, sessionId, order };
}

describe("connecting Stripe", () => {
  it("checks the key with Stripe, registers Atrium's endpoint and keeps the keys sealed", async () => {
    const { slug: s, owner } = await (async () => {
      shops += 1;
      const slug = `stripe-${process.pid}-${shops}`;
      const { client } = await signUp(server.url);
      await createWorkspace(client, "Unconnected", slug);
      return { slug, owner: client };
    })();
    const { id } = await server.db
      .selectFrom("workspaces")
      .select("id")
      .where("slug", "=", s)
      .executeTakeFirstOrThrow();

    const malformed = await owner.post("/settings/integrations/payments", {
      intent: "stripe-connect",
      secretKey: "pk_test_publishable",
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.text()).toContain("A secret key starts with sk_live_, sk_test_ or rk_");

    const unknown = await owner.post("/settings/integrations/payments", {
      intent: "stripe-connect",
      secretKey: "sk_test_notAnAccountOfStripe",
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("Stripe did not accept this secret key");
    expect(
      await server.db.selectFrom("payment_connections").selectAll().where("workspace_id", "=", id).execute(),
    ).toEqual([]);

    const key = stripe.addAccount("Seaside Rolls");
    const ok = await owner.post("/settings/integrations/payments", { intent: "stripe-connect", secretKey: key });
    expect(ok.status).toBe(200);
    const page = await (await owner.get("/settings/integrations/payments")).text();
    expect(page).toContain("Seaside Rolls");
    expect(page).toContain("Connected");
    const endpoints = stripe.accountOf(key).endpoints;
    expect(endpoints.map((e) => e.url)).toEqual([`${server.url}/api/webhooks/payments?workspace=${id}`]);
    expect(endpoints[0]!.enabled_events).toContain("checkout.session.completed");
    const row = await server.db
      .selectFrom("payment_connections")
      .selectAll()
      .where("workspace_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.credentials).not.toContain(key);
    expect(row.credentials).not.toContain(endpoints[0]!.secret!);

    // Disconnecting removes the endpoint at Stripe and the keys here.
    const gone = await owner.post("/settings/integrations/payments", { intent: "stripe-disconnect" });
    expect(await gone.text()).toContain("Stripe is disconnected");
    expect(stripe.accountOf(key).endpoints).toEqual([]);
    expect(
      await server.db.selectFrom("payment_connections").selectAll().where("workspace_id", "=", id).execute(),
    ).toEqual([]);
  });

  it("expires the card pages still open before disconnecting, and applies one paid meanwhile", async () => {
    const s = await stripeShop();
    const open = await buyByCard(s);
    const paid = await buyByCard(s);
    // Paid on Stripe's page, but its event and the customer's return have not arrived yet.
    stripe.hold();
    await stripe.pay(paid.sessionId);
    const gone = await s.owner.post("/settings/integrations/payments", { intent: "stripe-disconnect" });
    expect(await gone.text()).toContain("Stripe is disconnected");
    stripe.held = [];
    await stripe.release();
    expect(stripe.accountOf(s.key).sessions.get(open.sessionId)!.status).toBe("expired");
    expect((await orderRow(paid.orderId)).status).toBe("paid");
    expect(await paymentsOf(paid.orderId)).toHaveLength(1);
    // The open one can no longer be paid; its hold still runs and then releases its stock, as for any order.
    expect((await orderRow(open.orderId)).status).toBe("pending");
  });

  it("follows Stripe's account events: a deauthorisation stops card payments until the account is back", async () => {
    const s = await stripeShop();
    expect(await (await new Client(server.url).get(`/${s.slug}/shop`)).status).toBe(200);
    stripe.emit(s.key, "account.application.deauthorized", { id: "ca_application", object: "application" });
    await waitFor(async () => (await connection(s.workspaceId)).status === "deauthorized");
    const buyer = new Client(server.url);
    await addToCart(buyer, s.slug, s.shop.small);
    await prepareCheckout(buyer, s.slug, s.shop, { email: uniqueEmail("nocard") });
    const checkout = await (await buyer.get(`/${s.slug}/checkout`)).text();
    expect(checkout).not.toContain('value="stripe:card"');
    expect((await placeOrder(buyer, s.slug, "stripe:card")).status).toBe(400);

    stripe.emit(s.key, "account.updated", { ...stripe.accountOf(s.key).account, charges_enabled: true });
    await waitFor(async () => (await connection(s.workspaceId)).status === "connected");
    expect(await (await buyer.get(`/${s.slug}/checkout`)).text()).toContain('value="stripe:card"');
  });
});

const connection = (workspaceId: string) =>
  server.db
    .selectFrom("payment_connections")
    .selectAll()
    .where("workspace_id", "=", workspaceId)
    .executeTakeFirstOrThrow();

describe("paying on Stripe's page", () => {
  it("applies the return first and the webhook after: one payment, the stock sold once", async () => {
    const s = await stripeShop();
    const { guest, orderId, sessionId } = await buyByCard(s);
    expect(await variant(s.shop.small)).toEqual({ stock: 5, reserved: 1 });
    stripe.hold();
    const back = await stripe.pay(sessionId);
    const page = await guest.get(returnPath(back));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Paid");
    const [delivered] = await stripe.release();
    expect(delivered!.status).toBe(200);
    expect(await delivered!.json()).toMatchObject({ status: "applied" });
    const payments = await paymentsOf(orderId);
    expect(payments.map((p) => [p.provider, p.kind, p.amount])).toEqual([["stripe", "payment", 845]]);
    expect(payments[0]!.reference).toMatch(/^pi_/);
    expect(await variant(s.shop.small)).toEqual({ stock: 4, reserved: 0 });
    expect(await eventsOf(orderId, "paid")).toHaveLength(1);
  });

  it("applies the webhook first and the return after, and a replayed event changes nothing", async () => {
    const s = await stripeShop();
    const { guest, orderId, sessionId } = await buyByCard(s);
    stripe.hold();
    const back = await stripe.pay(sessionId);
    const [first] = await stripe.release();
    expect(await first!.json()).toMatchObject({ status: "applied" });
    expect((await orderRow(orderId)).status).toBe("paid");
    expect(await (await guest.get(returnPath(back))).text()).toContain("Paid");
    const again = await stripe.deliver(stripe.events.at(-1)!);
    expect(await again.json()).toMatchObject({ status: "duplicate", duplicate: true });
    expect(await paymentsOf(orderId)).toHaveLength(1);
    expect(await variant(s.shop.small)).toEqual({ stock: 4, reserved: 0 });
  });

  it("pays once when the event comes three times at once beside the return", async () => {
    const s = await stripeShop();
    const { guest, orderId, sessionId } = await buyByCard(s);
    stripe.hold();
    const back = await stripe.pay(sessionId);
    const event = stripe.held.pop()!;
    stripe.held = [];
    await stripe.release();
    const answers = await Promise.all([
      stripe.deliver(event),
      stripe.deliver(event),
      stripe.deliver(event),
      guest.get(returnPath(back)),
    ]);
    for (const a of answers.slice(0, 3)) expect([200, 409]).toContain(a.status);
    expect(answers[3]!.status).toBe(200);
    expect(await paymentsOf(orderId)).toHaveLength(1);
    expect(await eventsOf(orderId, "paid")).toHaveLength(1);
    expect(await variant(s.shop.small)).toEqual({ stock: 4, reserved: 0 });
    await drainJobs(server);
    const receipts = await server.db
      .selectFrom("jobs")
      .select("payload")
      .where("kind", "=", "commerce.order-mail")
      .where("payload", "like", `%${orderId}%"paid"%`)
      .execute();
    expect(receipts).toHaveLength(1);
  });

  it("does not pay an order with another order's checkout", async () => {
    const s = await stripeShop();
    const a = await buyByCard(s);
    const b = await buyByCard(s);
    const back = await stripe.pay(b.sessionId);
    // The return names order A's page with B's session: refused, A stays unpaid.
    const url = new URL(back);
    const page = await a.guest.get(`${url.pathname.replace(b.orderId, a.orderId)}${url.search}`);
    expect(page.status).toBe(200);
    expect((await orderRow(a.orderId)).status).toBe("pending");
    await waitFor(async () => (await orderRow(b.orderId)).status === "paid");
  });
});

describe("releasing an unpaid card order", () => {
  it("expires its Stripe page when the hold runs out, and gives the stock back", async () => {
    const s = await stripeShop();
    const { orderId, sessionId } = await buyByCard(s);
    setTestClock(() => new Date(Date.now() + 61 * 60_000));
    try {
      await expireUnpaidOrders(server.db, server.url, cardRelease(server.atrium.runtime.services, server.url));
    } finally {
      setTestClock(undefined);
    }
    expect((await orderRow(orderId)).status).toBe("cancelled");
    expect(stripe.accountOf(s.key).sessions.get(sessionId)!.status).toBe("expired");
    expect(await variant(s.shop.small)).toEqual({ stock: 5, reserved: 0 });
  });

  it("refunds a payment that arrives after the order was released, once, and keeps the order cancelled", async () => {
    const s = await stripeShop();
    const { orderId, sessionId } = await buyByCard(s);
    // Stripe cannot be reached at the release: the order goes anyway (its page would expire by itself).
    stripe.failNext(6, 500);
    setTestClock(() => new Date(Date.now() + 61 * 60_000));
    try {
      await expireUnpaidOrders(server.db, server.url, cardRelease(server.atrium.runtime.services, server.url));
    } finally {
      setTestClock(undefined);
      stripe.failNext(0, 500);
    }
    expect((await orderRow(orderId)).status).toBe("cancelled");
    stripe.hold();
    await stripe.pay(sessionId);
    const event = stripe.held[0]!;
    await stripe.release();
    await stripe.deliver(event);
    const refunds = stripe.accountOf(s.key).refunds;
    expect(refunds.map((r) => r.amount)).toEqual([845]);
    const order = await orderRow(orderId);
    expect(order.status).toBe("cancelled");
    expect(order.refunded).toBe(845);
    expect((await paymentsOf(orderId)).map((p) => [p.kind, p.amount, p.reference.slice(0, 3)])).toEqual([
      ["payment", 845, "pi_"],
      ["refund", 845, "re_"],
    ]);
    expect(await variant(s.shop.small)).toEqual({ stock: 5, reserved: 0 });
  });
});

describe("a second payment", () => {
  it("is refunded at once when the order was already paid another way, once however often Stripe tells it", async () => {
    const s = await stripeShop();
    const { orderId, sessionId } = await buyByCard(s);
    // The shop marks it paid by hand (the customer paid at the counter), then the open card page is paid too.
    expect((await s.owner.post(`/shop/orders/${orderId}`, { intent: "paid" })).status).toBe(303);
    stripe.hold();
    await stripe.pay(sessionId);
    const event = stripe.held[0]!;
    await stripe.release();
    await stripe.deliver(event);
    expect(stripe.accountOf(s.key).refunds.map((r) => r.amount)).toEqual([845]);
    const order = await orderRow(orderId);
    expect([order.status, order.refunded]).toEqual(["paid", 0]);
    expect((await paymentsOf(orderId)).map((p) => [p.provider, p.kind, p.amount])).toEqual([
      ["manual", "payment", 845],
      ["stripe", "payment", 845],
      ["stripe", "refund", 845],
    ]);
    expect(await eventsOf(orderId, "duplicate_payment_refunded")).toHaveLength(1);
  });
});

describe("refunds", () => {
  async function paidOrder() {
    const s = await stripeShop();
    const bought = await buyByCard(s);
    await stripe.pay(bought.sessionId);
    await waitFor(async () => (await orderRow(bought.orderId)).status === "paid", "the payment");
    return { ...s, ...bought };
  }

  it("refunds part of an order through Stripe from the console, once for a double submit", async () => {
    const o = await paidOrder();
    const [one, two] = await Promise.all([
      o.owner.post(`/shop/orders/${o.orderId}`, { intent: "refund", amount: "2.00" }),
      o.owner.post(`/shop/orders/${o.orderId}`, { intent: "refund", amount: "2.00" }),
    ]);
    expect([one!.status, two!.status]).toEqual([303, 303]);
    expect(stripe.accountOf(o.key).refunds.map((r) => r.amount)).toEqual([200]);
    // Stripe's own refund.created for it arrives too, and is already known by its id.
    await waitFor(async () => {
      const applied = await server.db
        .selectFrom("webhook_receiver_events")
        .select("status")
        .where("workspace_id", "=", o.workspaceId)
        .where("event_type", "=", "refund.created")
        .where("status", "=", "applied")
        .execute();
      return applied.length === 1;
    }, "the refund event");
    const order = await orderRow(o.orderId);
    expect(order.refunded).toBe(200);
    expect(order.status).toBe("paid");
    const refundRows = (await paymentsOf(o.orderId)).filter((p) => p.kind === "refund");
    expect(refundRows.map((r) => [r.amount, r.reference])).toEqual([[200, stripe.accountOf(o.key).refunds[0]!.id]]);
  });

  it("refuses a refund above what is left, at Stripe and here, and records a dashboard refund", async () => {
    const o = await paidOrder();
    const tooMuch = await o.owner.post(`/shop/orders/${o.orderId}`, { intent: "refund", amount: "9.00" });
    expect(tooMuch.status).toBe(400);
    expect(await tooMuch.text()).toContain("A refund is at most what was paid");
    expect(stripe.accountOf(o.key).refunds).toEqual([]);

    const [payment] = await paymentsOf(o.orderId);
    await stripe.refundInDashboard(o.key, payment!.reference, 345);
    await waitFor(async () => (await orderRow(o.orderId)).refunded === 345, "the dashboard refund");
    const rest = await o.owner.post(`/shop/orders/${o.orderId}`, { intent: "refund", amount: "5.00" });
    expect(rest.status).toBe(303);
    await waitFor(async () => (await orderRow(o.orderId)).status === "refunded", "the full refund");
    expect(stripe.accountOf(o.key).refunds.map((r) => r.amount)).toEqual([345, 500]);
    expect((await orderRow(o.orderId)).refunded).toBe(845);
  });

  it("answers 503 when Stripe fails or is silent, and records no refund", async () => {
    const o = await paidOrder();
    stripe.failNext(3, 502);
    const failed = await o.owner.post(`/shop/orders/${o.orderId}`, { intent: "refund", amount: "1.00" });
    expect(failed.status).toBe(503);
    expect(await failed.text()).toContain("Stripe could not be reached to refund this payment");
    stripe.failNext(3, 0);
    const silent = await o.owner.post(`/shop/orders/${o.orderId}`, { intent: "refund", amount: "1.00" });
    expect(silent.status).toBe(503);
    stripe.failNext(0, 0);
    expect((await orderRow(o.orderId)).refunded).toBe(0);
    expect((await paymentsOf(o.orderId)).filter((p) => p.kind === "refund")).toEqual([]);
  });
});

describe("the payments receiver", () => {
  it("verifies Stripe's signature as the spec's test vector says", () => {
    const body = Buffer.from('{"id":"evt_test","object":"event"}');
    const header = "t=1492774577,v1=691252e266ce41cb94d709c84e9580d4172b117a510bbc81723f657d2cd5d215";
    expect(verifyStripeSignature(header, body, ["whsec_test_secret"], 1492774577, 300)).toBe(true);
    expect(verifyStripeSignature(header, body, ["whsec_other", "whsec_test_secret"], 1492774577, 300)).toBe(true);
    expect(verifyStripeSignature(header, body, ["whsec_test_secret"], 1492774577 + 301, 300)).toBe("stale");
    expect(verifyStripeSignature(header, body, ["whsec_test_secret"], 1492774577 - 301, 300)).toBe("stale");
    expect(
      verifyStripeSignature(
        header,
        Buffer.from('{"id":"evt_tesT","object":"event"}'),
        ["whsec_test_secret"],
        1492774577,
        300,
      ),
    ).toBe(false);
    expect(verifyStripeSignature(header, body, ["whsec_wrong"], 1492774577, 300)).toBe(false);
  });

  it("refuses forged, unsigned and other workspaces' events, and applies none of them", async () => {
    const a = await stripeShop();
    const b = await stripeShop();
    const bought = await buyByCard(b);
    const url = (ws: string) => `/api/webhooks/payments?workspace=${ws}`;
    stripe.hold();
    await stripe.pay(bought.sessionId);
    const real = stripe.held.pop()!;
    stripe.held = [];
    await stripe.release();
    const post = (path: string, body: string, header?: string) =>
      fetch(new URL(path, server.url), {
        method: "POST",
        headers: { "content-type": "application/json", ...(header ? { "stripe-signature": header } : {}) },
        body,
      });
    expect((await post(url(b.workspaceId), real.body)).status).toBe(401);
    const forged = (await import("stripe")).default.webhooks.generateTestHeaderString({
      payload: real.body,
      secret: "whsec_forgedByAnAttacker",
    });
    expect((await post(url(b.workspaceId), real.body, forged)).status).toBe(401);
    // Signed with A's own secret, but about B's order: A's endpoint refuses it.
    const aSecret = stripe.accountOf(a.key).endpoints[0]!.secret!;
    const asA = (await import("stripe")).default.webhooks.generateTestHeaderString({
      payload: real.body,
      secret: aSecret,
    });
    expect((await post(url(a.workspaceId), real.body, asA)).status).toBe(403);
    expect((await orderRow(bought.orderId)).status).toBe("pending");
    // A checkout the shop's account made elsewhere (a payment link) is acknowledged and left alone.
    const foreign = stripe.emit(b.key, "checkout.session.completed", {
      id: "cs_test_paymentLink",
      object: "checkout.session",
      status: "complete",
      payment_status: "paid",
      metadata: {},
    })[0]!;
    await waitFor(async () => {
      const row = await server.db
        .selectFrom("webhook_receiver_events")
        .select("status")
        .where("workspace_id", "=", b.workspaceId)
        .where("event_id", "=", foreign.event.id)
        .executeTakeFirst();
      return row?.status === "applied";
    }, "the foreign checkout acknowledged");
    // The real one, to the right endpoint, applies.
    expect((await stripe.deliver(real)).status).toBe(200);
    expect((await orderRow(bought.orderId)).status).toBe("paid");
  });
});

describe("payouts", () => {
  it("lists Stripe's payouts to the bank on the payments page, each once, in the state Stripe reports now", async () => {
    const s = await stripeShop();
    const empty = await (await s.owner.get("/shop/payments")).text();
    expect(empty).not.toContain("Payouts to your bank");

    stripe.hold();
    const first = stripe.payout(s.key, { amount: 12_345 });
    stripe.payout(s.key, { id: first.id, status: "paid" });
    const second = stripe.payout(s.key, { amount: 500 });
    stripe.payout(s.key, { id: second.id, status: "failed" });
    // Paid before created, and every event twice: what is kept is what Stripe says now.
    const answers = await stripe.release((events) => [...events].reverse());
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    for (const e of stripe.events.filter((e) => e.event.type.startsWith("payout."))) await stripe.deliver(e);
    const rows = await server.db
      .selectFrom("payouts")
      .select(["reference", "status", "amount", "currency", "detail"])
      .where("workspace_id", "=", s.workspaceId)
      .orderBy("amount")
      .execute();
    expect(rows).toEqual([
      {
        reference: second.id,
        status: "failed",
        amount: 500,
        currency: "GBP",
        detail: "The bank account has been closed.",
      },
      { reference: first.id, status: "paid", amount: 12_345, currency: "GBP", detail: "" },
    ]);
    const page = (await (await s.owner.get("/shop/payments")).text()).replace(/<!-- -->/g, "");
    expect(page).toContain("Payouts to your bank");
    expect(page).toContain("£123.45");
    expect(page).toContain("Paid out");
    expect(page).toContain("Failed");
    expect(page).toContain("The bank account has been closed.");

    // Stripe unreachable while an event comes: a 503, so Stripe sends it again; nothing changed.
    stripe.hold();
    const third = stripe.payout(s.key, { amount: 700 });
    stripe.failNext(3, 502);
    const [refused] = await stripe.release();
    expect(refused!.status).toBe(503);
    expect(await server.db.selectFrom("payouts").select("id").where("reference", "=", third.id).execute()).toEqual([]);
    expect((await stripe.deliver(stripe.events.at(-1)!)).status).toBe(200);
    expect(await server.db.selectFrom("payouts").select("status").where("reference", "=", third.id).execute()).toEqual([
      { status: "in_transit" },
    ]);
  });
});

describe("when Stripe cannot open its page", () => {
  it("places the order, says so, and opens the page from the order once Stripe answers", async () => {
    const s = await stripeShop();
    const guest = new Client(server.url);
    await addToCart(guest, s.slug, s.shop.small);
    await prepareCheckout(guest, s.slug, s.shop, { email: uniqueEmail("later") });
    stripe.failNext(3, 500);
    const placed = await placeOrder(guest, s.slug, "stripe:card");
    stripe.failNext(0, 500);
    expect(placed.status).toBe(303);
    const orderPath = new URL(placed.headers.get("location")!, server.url).pathname;
    const page = await (await guest.get(orderPath)).text();
    expect(page).toContain("Pay by card");
    const pay = await guest.post(orderPath, { intent: "pay" });
    expect(pay.status).toBe(303);
    expect(pay.headers.get("location")).toMatch(new RegExp(`^${stripe.url}/pay/cs_test_`));
    // Asked again, the same page (the session is kept while open).
    const again = await guest.post(orderPath, { intent: "pay" });
    expect(again.headers.get("location")).toBe(pay.headers.get("location"));
  });
});
