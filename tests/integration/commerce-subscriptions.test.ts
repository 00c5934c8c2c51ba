/**
 * Subscriptions through Stripe Billing (issue 18, ADR 033) through real HTTP on this dialect, with the official
 * SDK talking to the local Stripe (tests/fakes/stripe.ts), whose events are signed by the SDK's helper: a product
 * sold as a subscription from its editor; a customer subscribing from the product page (signing in first), the
 * return and the events in any order and twice — one subscription in Stripe's latest state; renewals paid and
 * failed recorded once each; cancelling at the period's end and taking it back; another customer's subscription
 * a 404; Stripe failing answered with the error contract and nothing changed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, uniqueEmail } from "../helpers/client";
import { signInCustomer } from "../helpers/customers";
import { startServer, type TestServer } from "../helpers/server";
import { ownedShop, returnPath } from "../helpers/shop";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe";
import { productsOf } from "~/modules/commerce/catalogue.server";

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

const text = async (res: Response | Promise<Response>) => (await (await res).text()).replace(/<!-- -->/g, "");
const DAY = 86_400_000;

let shops = 0;
/** An open shop connected to its own (fake) Stripe account, selling a bread club (monthly, 14 days free). */
async function subscriptionShop() {
  shops += 1;
  const { owner, ownerEmail, slug, workspaceId, shop } = await ownedShop(
    server,
    `subs-${process.pid}-${shops}`,
    `Bread Club ${shops}`,
  );
  const key = stripe.addAccount(`Bread Club ${shops}`);
  const connected = await owner.post("/settings/integrations/payments", { intent: "stripe-connect", secretKey: key });
  expect(await connected.text()).toContain("Stripe is connected");
  const club = await productsOf(server.db, workspaceId).save(
    null,
    {
      title: "Bread club",
      status: "active",
      variants: [{ options: [], price: 1800, inventoryTracked: false }],
      subscription: { interval: "month", every: 1, trialDays: 14 },
    },
    null,
  );
  const beans = await productsOf(server.db, workspaceId).save(
    null,
    {
      title: "Coffee beans",
      status: "active",
      variants: [{ options: [], price: 950, inventoryTracked: false }],
      subscription: { interval: "week", every: 2, trialDays: 0 },
    },
    null,
  );
  return { owner, ownerEmail, slug, workspaceId, shop, key, club: club.variants[0]!.id, beans: beans.variants[0]!.id };
}
type Shop = Awaited<ReturnType<typeof subscriptionShop>>;

/** A signed-in customer subscribes to a variant: answers the Stripe session id (the page it was sent to). */
async function subscribe(s: Shop, customer: Client, variant: string) {
  const offer = await text(customer.get(`/${s.slug}/billing?subscribe=${variant}`));
  expect(offer).toContain("Continue to payment");
  const started = await customer.post(`/${s.slug}/billing`, { intent: "subscribe", variant });
  expect(started.status, await started.clone().text()).toBe(303);
  const location = started.headers.get("location") ?? "";
  expect(location.startsWith(`${stripe.url}/pay/cs_test_`)).toBe(true);
  return location.split("/").pop()!;
}

const rowsOf = (workspaceId: string) =>
  server.db.selectFrom("subscriptions").selectAll().where("workspace_id", "=", workspaceId).execute();
const chargesOf = (workspaceId: string) =>
  server.db
    .selectFrom("subscription_charges")
    .selectAll()
    .where("workspace_id", "=", workspaceId)
    .orderBy("occurred_at")
    .orderBy("id")
    .execute();

describe("selling a product as a subscription", () => {
  it("is set in the product's editor, shown on its page with the plan, and kept out of the cart", async () => {
    const s = await subscriptionShop();
    const refused = await s.owner.post("/shop/products/new", {
      intent: "save",
      title: "Flower box",
      price: "25.00",
      status: "active",
      sold: "subscription",
      "subscription.every": "5",
      "subscription.interval": "year",
      "subscription.trialDays": "0",
    });
    expect(refused.status).toBe(400);
    expect(await text(refused)).toContain("Charge at least once every three years");

    const made = await s.owner.post("/shop/products/new", {
      intent: "save",
      title: "Flower box",
      price: "25.00",
      stock: "5",
      status: "active",
      sold: "subscription",
      "subscription.every": "2",
      "subscription.interval": "week",
      "subscription.trialDays": "7",
    });
    expect(made.status, await made.clone().text()).toBe(303);
    const productId = /\/shop\/products\/(\w+)/.exec(made.headers.get("location") ?? "")![1]!;
    const product = await productsOf(server.db, s.workspaceId).byId(productId);
    expect(product.subscription).toEqual({ interval: "week", every: 2, trialDays: 7 });
    const editor = await text(s.owner.get(`/shop/products/${productId}`));
    expect(editor).toMatch(/name="sold" checked="" value="subscription"/);

    const page = await text(new Client(server.url).get(`/${s.slug}/shop/${product.slug}`));
    expect(page).toContain("every 2 weeks");
    expect(page).toContain("7-day free trial, then charged every 2 weeks.");
    expect(page).toContain(`action="/${s.slug}/billing"`);
    expect(page).toContain(">Subscribe</button>");
    expect(page).not.toContain("Add to cart");

    // The cart refuses it, with what to do instead, and so does the customer API's cart.
    const added = await new Client(server.url).post(`/${s.slug}/cart`, {
      intent: "add",
      variant: product.variants[0]!.id,
      quantity: "1",
    });
    expect(added.status).toBe(409);
    expect(await text(added)).toContain("Flower box is sold by subscription: subscribe from its page");
    const validated = await new Client(server.url).postJson(
      "/api/v1/cart/validate",
      { lines: [{ variantId: product.variants[0]!.id, quantity: 1 }] },
      { "x-atrium-site": s.slug },
    );
    expect(validated.status).toBe(200);
    expect(await validated.text()).toContain("This item is now sold by subscription: subscribe from its page");

    // Sold once again: back in the cart, the plan kept off the page.
    const once = await s.owner.post(`/shop/products/${productId}`, {
      intent: "save",
      title: "Flower box",
      status: "active",
      sold: "once",
      "v.0.key": "",
      "v.0.price": "25.00",
      "v.0.stock": "3",
      "v.0.tracked": "on",
    });
    expect(once.status, await once.clone().text()).toBe(303);
    expect((await productsOf(server.db, s.workspaceId).byId(productId)).subscription).toBeNull();
  });
});

describe("subscribing", () => {
  it("asks a visitor to sign in, then shows the plan, then Stripe's page; one subscription whatever the order", async () => {
    const s = await subscriptionShop();
    const visitor = new Client(server.url);
    const asked = await visitor.get(`/${s.slug}/billing?subscribe=${s.club}`);
    expect(asked.status).toBe(302);
    expect(decodeURIComponent(asked.headers.get("location") ?? "")).toContain(`next=/${s.slug}/billing?subscribe=`);

    const ada = await signInCustomer(server.url, s.slug, uniqueEmail("ada"));
    const offer = await text(ada.get(`/${s.slug}/billing?subscribe=${s.club}`));
    expect(offer).toContain("Subscribe to Bread club");
    expect(offer).toContain("$18.00 / month");
    expect(offer).toContain("The first 14 days are free; then your card is charged every month.");

    stripe.hold();
    const sessionId = await subscribe(s, ada, s.club);
    // A double submit answers the same page.
    const again = await ada.post(`/${s.slug}/billing`, { intent: "subscribe", variant: s.club });
    expect(again.headers.get("location")).toBe(`${stripe.url}/pay/${sessionId}`);

    // Paid on Stripe's page; the customer is back before any event.
    const back = await ada.get(returnPath(await stripe.pay(sessionId)));
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe(`/${s.slug}/billing?notice=subscribed`);
    let rows = await rowsOf(s.workspaceId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "trialing", amount: 1800, currency: "USD", interval: "month" });
    const trialEnd = new Date(rows[0]!.trial_ends_at!).getTime();
    expect(Math.abs(trialEnd - (Date.now() + 14 * DAY))).toBeLessThan(60_000);

    // Then the events, last first and twice: still one subscription, and the trial's invoice for nothing is no charge.
    const answers = await stripe.release((events) => [...events].reverse());
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    for (const event of stripe.events.filter((e) => e.event.type.startsWith("customer.subscription")))
      expect((await stripe.deliver(event)).status).toBe(200);
    rows = await rowsOf(s.workspaceId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe("trialing");
    expect(await chargesOf(s.workspaceId)).toEqual([]);

    const billing = await text(ada.get(`/${s.slug}/billing?notice=subscribed`));
    expect(billing).toContain("You are subscribed.");
    expect(billing).toContain("Bread club");
    expect(billing).toContain("Free trial");
    expect(billing).toMatch(/Free until \d+ \w+ \d{4}, then charged \$18\.00 \/ month\./);

    // A second subscription to the same product is refused.
    expect(await text(ada.get(`/${s.slug}/billing?subscribe=${s.club}`))).toContain("You already subscribe to this");
    const second = await ada.post(`/${s.slug}/billing`, { intent: "subscribe", variant: s.club });
    expect(second.status).toBe(409);

    const overview = (await (await ada.get("/api/v1/billing/overview", { "x-atrium-site": s.slug })).json()) as {
      subscriptions: Array<Record<string, unknown>>;
    };
    expect(overview.subscriptions).toMatchObject([
      {
        title: "Bread club",
        status: "trialing",
        amount: 1800,
        currency: "USD",
        interval: "month",
        intervalCount: 1,
        cancelAtPeriodEnd: false,
        charges: [],
      },
    ]);
  });

  it("records a charge whose invoice comes before any event about its subscription", async () => {
    const s = await subscriptionShop();
    const bo = await signInCustomer(server.url, s.slug, uniqueEmail("bo"));
    stripe.hold();
    const sessionId = await subscribe(s, bo, s.beans);
    await stripe.pay(sessionId);
    const held = stripe.held;
    const invoice = held.find((e) => e.event.type === "invoice.paid")!;
    expect((await stripe.deliver(invoice)).status).toBe(200);
    expect(await rowsOf(s.workspaceId)).toMatchObject([{ status: "active", interval: "week", interval_count: 2 }]);
    expect(await chargesOf(s.workspaceId)).toMatchObject([{ status: "paid", amount: 950, currency: "USD" }]);
    await stripe.release();
    expect(await rowsOf(s.workspaceId)).toHaveLength(1);
    expect(await chargesOf(s.workspaceId)).toHaveLength(1);
    const billing = await text(bo.get(`/${s.slug}/billing`));
    expect(billing).toContain("$9.50 every 2 weeks");
    expect(billing).toMatch(/Next charge on \d+ \w+ \d{4}\./);
  });

  it("keeps renewals paid and failed, and shows a failed one with Stripe's page to pay it", async () => {
    const s = await subscriptionShop();
    const cy = await signInCustomer(server.url, s.slug, uniqueEmail("cy"));
    const sessionId = await subscribe(s, cy, s.beans);
    await cy.get(returnPath(await stripe.pay(sessionId)));
    const [row] = await rowsOf(s.workspaceId);
    const before = new Date(row!.current_period_end!).getTime();

    stripe.hold();
    stripe.renew(row!.reference);
    const renewed = await stripe.release();
    expect(renewed.map((r) => r.status)).toEqual([200, 200]);
    // Replayed: nothing more.
    for (const e of stripe.events.slice(-2)) await stripe.deliver(e);
    let [after] = await rowsOf(s.workspaceId);
    expect(new Date(after!.current_period_end!).getTime() - before).toBe(14 * DAY);
    expect((await chargesOf(s.workspaceId)).map((c) => [c.status, c.amount])).toEqual([
      ["paid", 950],
      ["paid", 950],
    ]);

    stripe.renew(row!.reference, { fail: true });
    await expect.poll(async () => (await rowsOf(s.workspaceId))[0]!.status).toBe("past_due");
    [after] = await rowsOf(s.workspaceId);
    const charges = await chargesOf(s.workspaceId);
    expect(charges.map((c) => c.status)).toEqual(["paid", "paid", "failed"]);
    const billing = await text(cy.get(`/${s.slug}/billing`));
    expect(billing).toContain("Payment failed");
    expect(billing).toContain("The last payment of $9.50 failed.");
    expect(billing).toContain(`href="${charges[2]!.hosted_url}"`);
    expect(billing).toContain("pay it now with another card");

    const list = await text(s.owner.get("/shop/subscriptions"));
    expect(list).toContain("Coffee beans");
    expect(list).toContain("Payment failed");
    expect(list).toContain("$9.50 every 2 weeks");
  });
});

describe("cancelling", () => {
  it("ends at the period's end after a confirmation, can be taken back until then, and ends for good", async () => {
    const s = await subscriptionShop();
    const di = await signInCustomer(server.url, s.slug, uniqueEmail("di"));
    await di.get(returnPath(await stripe.pay(await subscribe(s, di, s.beans))));
    const [row] = await rowsOf(s.workspaceId);

    const confirm = await text(di.get(`/${s.slug}/billing?cancel=${row!.id}`));
    expect(confirm).toContain("Cancel Coffee beans?");
    expect(confirm).toMatch(/It carries on until \d+ \w+ \d{4} and is not charged again\./);

    // Stripe failing: a 503 in the error contract, and nothing changed.
    stripe.failNext(3, 502);
    const down = await di.post(`/${s.slug}/billing`, { intent: "cancel", subscription: row!.id });
    expect(down.status).toBe(503);
    expect(await text(down)).toContain("Stripe could not be reached to cancel the subscription");
    expect(stripe.subscription(row!.reference).cancel_at_period_end).toBe(false);
    expect((await rowsOf(s.workspaceId))[0]!.cancel_at_period_end).toBe(0);

    const cancelled = await di.post(`/${s.slug}/billing`, { intent: "cancel", subscription: row!.id });
    expect(cancelled.status).toBe(303);
    expect(stripe.subscription(row!.reference).cancel_at_period_end).toBe(true);
    let billing = await text(di.get(`/${s.slug}/billing?notice=cancelled`));
    expect(billing).toContain("Your subscription is cancelled");
    expect(billing).toMatch(/Ends on \d+ \w+ \d{4}; you will not be charged again\./);
    expect(billing).toContain("Keep my subscription");

    await di.post(`/${s.slug}/billing`, { intent: "resume", subscription: row!.id });
    expect(stripe.subscription(row!.reference).cancel_at_period_end).toBe(false);
    expect((await rowsOf(s.workspaceId))[0]!.cancel_at_period_end).toBe(0);

    // Another customer can neither see nor cancel it.
    const eve = await signInCustomer(server.url, s.slug, uniqueEmail("eve"));
    expect((await eve.post(`/${s.slug}/billing`, { intent: "cancel", subscription: row!.id })).status).toBe(404);
    expect(await text(eve.get(`/${s.slug}/billing`))).toContain("No subscriptions.");
    const eves = (await (await eve.get("/api/v1/billing/overview", { "x-atrium-site": s.slug })).json()) as {
      subscriptions: unknown[];
    };
    expect(eves.subscriptions).toEqual([]);
    expect(stripe.subscription(row!.reference).cancel_at_period_end).toBe(false);

    // Cancelled again, the period ends: Stripe ends it, and it cannot be taken back.
    await di.post(`/${s.slug}/billing`, { intent: "cancel", subscription: row!.id });
    stripe.renew(row!.reference);
    await expect.poll(async () => (await rowsOf(s.workspaceId))[0]!.status).toBe("canceled");
    billing = await text(di.get(`/${s.slug}/billing`));
    expect(billing).toMatch(/Ended on \d+ \w+ \d{4}\./);
    expect(billing).not.toContain("Keep my subscription");
    expect((await di.post(`/${s.slug}/billing`, { intent: "resume", subscription: row!.id })).status).toBe(409);
    expect(await text(s.owner.get("/shop/subscriptions?show=ended"))).toContain("Coffee beans");
    expect(await text(s.owner.get("/shop/subscriptions"))).toContain("No subscriptions yet.");
  });

  it("ends a customer's subscriptions at Stripe before their data is erased, and erases nothing when Stripe is down", async () => {
    const s = await subscriptionShop();
    const fay = await signInCustomer(server.url, s.slug, uniqueEmail("fay"));
    await fay.get(returnPath(await stripe.pay(await subscribe(s, fay, s.club))));
    const [row] = await rowsOf(s.workspaceId);
    expect(row!.status).toBe("trialing");

    // The subscription's own events are answered first, so the failures below meet the erasure alone.
    await stripe.idle();
    stripe.failNext(3, 502);
    const down = await fay.post(`/${s.slug}/profile`, { intent: "erase", confirm: "erase" });
    expect(down.status).toBe(503);
    const customer = () =>
      server.db
        .selectFrom("customers")
        .select("erased_at")
        .where("id", "=", row!.customer_id)
        .executeTakeFirstOrThrow();
    expect((await customer()).erased_at).toBeNull();
    expect(stripe.subscription(row!.reference).status).toBe("trialing");

    const erased = await fay.post(`/${s.slug}/profile`, { intent: "erase", confirm: "erase" });
    expect(erased.status).toBe(303);
    expect(stripe.subscription(row!.reference).status).toBe("canceled");
    expect((await rowsOf(s.workspaceId))[0]!.status).toBe("canceled");
    expect((await customer()).erased_at).not.toBeNull();
  });

  it("still erases a customer when the shop has disconnected Stripe, and says so in the log", async () => {
    const s = await subscriptionShop();
    const gus = await signInCustomer(server.url, s.slug, uniqueEmail("gus"));
    await gus.get(returnPath(await stripe.pay(await subscribe(s, gus, s.beans))));
    const [row] = await rowsOf(s.workspaceId);
    expect((await s.owner.post("/settings/integrations/payments", { intent: "stripe-disconnect" })).status).toBe(200);
    const erased = await gus.post(`/${s.slug}/profile`, { intent: "erase", confirm: "erase" });
    expect(erased.status).toBe(303);
    const customer = await server.db
      .selectFrom("customers")
      .select("erased_at")
      .where("id", "=", row!.customer_id)
      .executeTakeFirstOrThrow();
    expect(customer.erased_at).not.toBeNull();
    expect(
      server.logs.some(
        (l) =>
          String(l.msg).includes("could not be ended: end them in the Stripe dashboard") &&
          JSON.stringify(l.subscriptions).includes(row!.reference),
      ),
    ).toBe(true);
  });

  it("ends the shop's subscriptions and removes its Stripe endpoint when its owner deletes their account", async () => {
    const s = await subscriptionShop();
    const hal = await signInCustomer(server.url, s.slug, uniqueEmail("hal"));
    await hal.get(returnPath(await stripe.pay(await subscribe(s, hal, s.club))));
    const [row] = await rowsOf(s.workspaceId);
    expect(stripe.accountOf(s.key).endpoints).toHaveLength(1);
    await stripe.idle();

    const deleted = await s.owner.post("/settings/account", { confirmEmail: s.ownerEmail });
    expect(deleted.status).toBe(302);
    expect(stripe.subscription(row!.reference).status).toBe("canceled");
    expect(stripe.accountOf(s.key).endpoints).toEqual([]);
    expect(await server.db.selectFrom("workspaces").select("id").where("id", "=", s.workspaceId).execute()).toEqual([]);
  });

  it("refuses a return from another customer's checkout and events that are forged or for another shop", async () => {
    const s = await subscriptionShop();
    const fay = await signInCustomer(server.url, s.slug, uniqueEmail("fay"));
    const gus = await signInCustomer(server.url, s.slug, uniqueEmail("gus"));
    stripe.hold();
    const sessionId = await subscribe(s, fay, s.beans);
    await stripe.pay(sessionId);
    expect((await gus.get(`/${s.slug}/billing?subscribed=${sessionId}`)).status).toBe(404);
    expect(await rowsOf(s.workspaceId)).toEqual([]);

    const event = stripe.held.find((e) => e.event.type === "customer.subscription.created")!;
    const unsigned = await fetch(event.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: event.body,
    });
    expect(unsigned.status).toBe(401);
    const forged = await fetch(event.url, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": event.header },
      body: event.body.replace('"status":"active"', '"status":"canceled"'),
    });
    expect(forged.status).toBe(401);
    expect(await rowsOf(s.workspaceId)).toEqual([]);

    // Another shop's endpoint, with its own secret, sent this shop's subscription: refused.
    const other = await subscriptionShop();
    const otherEndpoint = stripe.accountOf(other.key).endpoints[0]!;
    const body = event.body;
    const { default: Stripe } = await import("stripe");
    const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: otherEndpoint.secret! });
    const crossed = await fetch(otherEndpoint.url, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": header },
      body,
    });
    expect(crossed.status).toBe(403);
    expect(await rowsOf(other.workspaceId)).toEqual([]);

    await stripe.release();
    expect(await rowsOf(s.workspaceId)).toMatchObject([{ status: "active" }]);
  });
});
