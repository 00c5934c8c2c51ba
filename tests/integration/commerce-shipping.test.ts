/**
 * Shipping (issue 18, ADR 034) through real HTTP on this dialect: a package sent by hand with its carrier and
 * tracking number (the customer's e-mail carries the tracking link, the customer's order page and API show the
 * package, another customer sees nothing); EasyPost through its official client talking to a local EasyPost
 * (tests/fakes/easypost.ts) — the key checked and sealed, the webhook registered with Atrium's own secret, rates
 * for a parcel, a label bought once, tracking events signed as EasyPost signs them applied once and in order;
 * forged, unsigned and another workspace's events refused and not applied; EasyPost failing or silent answered
 * with the error contract and nothing half-written.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, uniqueEmail } from "../helpers/client";
import { signInCustomer } from "../helpers/customers";
import { drainJobs } from "../helpers/jobs";
import { startServer, type TestServer } from "../helpers/server";
import { buy, ownedShop } from "../helpers/shop";
import { easypostSignature, startFakeEasyPost, type FakeEasyPost } from "../fakes/easypost";
import { profileInputOf, profileOf } from "~/modules/sites/profile.server";

let server: TestServer;
let easypost: FakeEasyPost;
beforeAll(async () => {
  easypost = await startFakeEasyPost();
  server = await startServer({ EASYPOST_API_URL: easypost.url, SHIPPING_TIMEOUT_MS: "400" });
});
afterAll(async () => {
  await server.close();
  await easypost.close();
});

let shops = 0;
/** A signed-in owner whose shop is open, with its address in the business profile, and a paid order to send. */
async function shippingShop(options: { connect?: boolean } = {}) {
  shops += 1;
  const { owner, ownerEmail, slug, workspaceId, shop } = await ownedShop(
    server,
    `ship-${process.pid}-${shops}`,
    `Parcel Bakery ${shops}`,
  );
  const profile = profileOf(server.db, workspaceId);
  await profile.save(null, {
    ...profileInputOf(await profile.get()),
    address: { street: "1 Harbour Road", locality: "Whitby", region: "", postalCode: "YO21 1AA", country: "GB" },
  });
  let key = "";
  if (options.connect) {
    key = easypost.addAccount(`Parcel Bakery ${shops}`);
    const connected = await owner.post("/settings/integrations/shipping", { intent: "easypost-connect", apiKey: key });
    expect(await connected.text()).toContain("EasyPost is connected");
  }
  return { owner, ownerEmail, slug, workspaceId, shop, key };
}

type Shop = Awaited<ReturnType<typeof shippingShop>>;

/** A guest's order, paid by hand: answers its id and the guest's e-mail. */
async function paidOrder(s: Shop) {
  const email = uniqueEmail("parcel");
  const orderId = await buy(new Client(server.url), s.slug, s.shop, { email });
  const paid = await s.owner.post(`/shop/orders/${orderId}`, { intent: "paid" });
  expect(paid.status).toBe(303);
  return { orderId, email };
}

const shipmentsOf = (orderId: string) =>
  server.db.selectFrom("shipments").selectAll().where("order_id", "=", orderId).execute();
const stepsOf = (shipmentId: string) =>
  server.db.selectFrom("shipment_events").selectAll().where("shipment_id", "=", shipmentId).execute();
const mailsTo = (to: string) =>
  server.db.selectFrom("mail_messages").select(["subject", "body"]).where("to_address", "=", to).execute();

describe("sending by hand", () => {
  it("records the carrier and number with the lines sent, and e-mails the customer the tracking link", async () => {
    const s = await shippingShop();
    const { orderId, email } = await paidOrder(s);

    const bad = await s.owner.post(`/shop/orders/${orderId}`, {
      intent: "fulfil",
      carrier: "royal-mail",
      trackingNumber: "no!",
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Letters, digits, spaces and dashes");
    const other = await s.owner.post(`/shop/orders/${orderId}`, {
      intent: "fulfil",
      carrier: "other",
      trackingNumber: "AB123",
    });
    expect(other.status).toBe(400);
    expect(await other.text()).toContain("Name the carrier");
    expect(await shipmentsOf(orderId)).toEqual([]);
    expect(
      (await server.db.selectFrom("orders").select("status").where("id", "=", orderId).executeTakeFirstOrThrow())
        .status,
    ).toBe("paid");

    const sent = await s.owner.post(`/shop/orders/${orderId}`, {
      intent: "fulfil",
      carrier: "royal-mail",
      trackingNumber: "RM 1234 5678 GB",
    });
    expect(sent.status).toBe(303);
    const [shipment, ...more] = await shipmentsOf(orderId);
    expect(more).toEqual([]);
    expect(shipment).toMatchObject({
      provider: "manual",
      carrier: "Royal Mail",
      tracking_number: "RM 1234 5678 GB",
      tracking_url: "https://www.royalmail.com/track-your-item#/tracking-results/RM%201234%205678%20GB",
      status: "in_transit",
    });
    const lines = await server.db
      .selectFrom("shipment_lines")
      .selectAll()
      .where("shipment_id", "=", shipment!.id)
      .execute();
    expect(lines.map((l) => l.quantity)).toEqual([1]);
    expect(
      (await server.db.selectFrom("orders").select("status").where("id", "=", orderId).executeTakeFirstOrThrow())
        .status,
    ).toBe("fulfilled");

    await drainJobs(server);
    const mail = (await mailsTo(email)).find((m) => /is on its way/.test(m.subject));
    expect(mail?.body).toContain("Carrier: Royal Mail");
    expect(mail?.body).toContain("Tracking number: RM 1234 5678 GB");
    expect(mail?.body).toContain(
      "Follow your parcel: https://www.royalmail.com/track-your-item#/tracking-results/RM%201234%205678%20GB",
    );

    // Sending again is refused: nothing is left to send, and no second package is written.
    const again = await s.owner.post(`/shop/orders/${orderId}`, {
      intent: "fulfil",
      carrier: "ups",
      trackingNumber: "1Z999",
    });
    expect(again.status).toBe(409);
    expect(await shipmentsOf(orderId)).toHaveLength(1);

    const delivered = await s.owner.post(`/shop/orders/${orderId}`, { intent: "delivered", shipmentId: shipment!.id });
    expect(delivered.status).toBe(303);
    const page = await (await s.owner.get(`/shop/orders/${orderId}`)).text();
    expect(page).toContain("Packages");
    expect(page).toContain("Delivered");
    const list = await (await s.owner.get("/shipping?show=delivered")).text();
    expect(list).toContain("RM 1234 5678 GB");
    expect(await (await s.owner.get("/shipping?show=open")).text()).not.toContain("RM 1234 5678 GB");
  });

  it("shows the package to its customer only, on their order page and in the customer API", async () => {
    const s = await shippingShop();
    const ada = await signInCustomer(server.url, s.slug, uniqueEmail("ada"));
    const adas = await buy(ada, s.slug, s.shop, { email: uniqueEmail("ada-order") });
    const bob = await signInCustomer(server.url, s.slug, uniqueEmail("bob"));
    await buy(bob, s.slug, s.shop, { email: uniqueEmail("bob-order") });
    expect((await s.owner.post(`/shop/orders/${adas}`, { intent: "paid" })).status).toBe(303);
    await s.owner.post(`/shop/orders/${adas}`, { intent: "fulfil", carrier: "dpd", trackingNumber: "01234567890123" });

    const page = (await (await ada.get(`/${s.slug}/orders/${adas}`)).text()).replaceAll("<!-- -->", "");
    expect(page).toContain("Your package");
    expect(page).toContain('href="https://tracking.dpd.de/status/en_US/parcel/01234567890123"');
    const site = { "x-atrium-site": s.slug };
    const api = (await (await ada.get(`/api/v1/orders/${adas}`, site)).json()) as {
      shipments: Array<Record<string, unknown>>;
    };
    expect(api.shipments).toMatchObject([
      { carrier: "DPD", trackingNumber: "01234567890123", status: "in_transit", statusLabel: "On its way" },
    ]);
    // What the shop paid for a label, and the provider's ids, are not the customer's to see.
    expect(Object.keys(api.shipments[0]!)).not.toContain("labelCost");
    expect(Object.keys(api.shipments[0]!)).not.toContain("labelUrl");

    expect((await bob.get(`/${s.slug}/orders/${adas}`)).status).toBe(404);
    expect((await bob.get(`/api/v1/orders/${adas}`, site)).status).toBe(404);
    // Another workspace's operator finds no such order, and no package of it.
    const stranger = await shippingShop();
    expect((await stranger.owner.get(`/shop/orders/${adas}`)).status).toBe(404);
    expect(await (await stranger.owner.get("/shipping")).text()).not.toContain("01234567890123");
  });
});

describe("EasyPost", () => {
  it("checks the key, registers a webhook with its own secret and keeps the key sealed", async () => {
    const s = await shippingShop();
    const malformed = await s.owner.post("/settings/integrations/shipping", {
      intent: "easypost-connect",
      apiKey: "sk_test_123",
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.text()).toContain("starts with EZAK (production) or EZTK (test)");
    const refused = await s.owner.post("/settings/integrations/shipping", {
      intent: "easypost-connect",
      apiKey: "EZTK0000000000000000notakey",
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("EasyPost did not accept this API key");

    const key = easypost.addAccount("Harbour Parcels");
    const ok = await s.owner.post("/settings/integrations/shipping", { intent: "easypost-connect", apiKey: key });
    expect(ok.status).toBe(200);
    const hooks = easypost.accountOf(key).webhooks;
    expect(hooks.map((h) => h.url)).toEqual([
      `${server.url}/api/webhooks/shipping/provider?workspace=${s.workspaceId}`,
    ]);
    expect(hooks[0]!.secret.length).toBeGreaterThanOrEqual(32);
    const row = await server.db
      .selectFrom("payment_connections")
      .selectAll()
      .where("workspace_id", "=", s.workspaceId)
      .where("provider", "=", "easypost")
      .executeTakeFirstOrThrow();
    expect(row.credentials).not.toContain(key);
    expect(row.credentials).not.toContain(hooks[0]!.secret);
    expect(await (await s.owner.get("/settings/integrations/shipping")).text()).toContain("Harbour Parcels");

    const disconnected = await s.owner.post("/settings/integrations/shipping", { intent: "easypost-disconnect" });
    expect(await disconnected.text()).toContain("EasyPost is disconnected");
    expect(easypost.accountOf(key).webhooks).toEqual([]);
  });

  it("removes the shop's EasyPost webhook when its owner deletes their account", async () => {
    const s = await shippingShop({ connect: true });
    expect(easypost.accountOf(s.key).webhooks).toHaveLength(1);
    const deleted = await s.owner.post("/settings/account", { confirmEmail: s.ownerEmail });
    expect(deleted.status).toBe(302);
    expect(easypost.accountOf(s.key).webhooks).toEqual([]);
  });

  it("rates a parcel, buys the label once and applies its tracking events once and in order", async () => {
    const s = await shippingShop({ connect: true });
    const { orderId, email } = await paidOrder(s);

    const rates = await s.owner.post(`/shop/orders/${orderId}`, {
      intent: "rates",
      weightKg: "0.5",
      lengthCm: "30",
      widthCm: "20",
      heightCm: "10",
    });
    expect(rates.status).toBe(200);
    const page = await rates.text();
    expect(page).toContain("GroundAdvantage");
    expect(page).toContain("$6.40");
    const shipmentId = /name="shipmentId" value="(shp_\w+)"/.exec(page)![1]!;
    const rateId = /name="rateId"[^>]*value="(rate_\w+)"/.exec(page)![1]!;
    const created = easypost.accountOf(s.key).shipments.get(shipmentId)!;
    expect(created.reference).toBe(orderId);
    expect(created.parcel.weight).toBe(17.6); // 500 g in ounces, as EasyPost measures

    // A double submit: one label, one package.
    const [first, second] = await Promise.all([
      s.owner.post(`/shop/orders/${orderId}`, { intent: "buy-label", shipmentId, rateId }),
      s.owner.post(`/shop/orders/${orderId}`, { intent: "buy-label", shipmentId, rateId }),
    ]);
    expect([first.status, second.status].sort()).toEqual([303, 409]);
    const [shipment, ...more] = await shipmentsOf(orderId);
    expect(more).toEqual([]);
    expect(shipment).toMatchObject({
      provider: "easypost",
      carrier: "USPS",
      service: "GroundAdvantage",
      label_cost: 640,
    });
    expect(shipment!.tracking_number).toMatch(/^9400\d{12}$/);
    expect(shipment!.label_url).toContain(`/labels/${shipmentId}.pdf`);
    expect(easypost.accountOf(s.key).refunds).toEqual([]);

    await drainJobs(server);
    const mail = (await mailsTo(email)).find((m) => /is on its way/.test(m.subject));
    expect(mail?.body).toContain(`Tracking number: ${shipment!.tracking_number}`);
    expect(mail?.body).toContain(`Follow your parcel: ${easypost.url.replace(/\/v2\/$/, "")}/track/`);

    const trackerId = shipment!.provider_tracker_id!;
    const later = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
    const [moving] = await easypost.track(trackerId, "in_transit", {
      message: "Departed facility",
      city: "Leeds",
      at: later(1),
    });
    const [arrived] = await easypost.track(trackerId, "delivered", { message: "Delivered, in mailbox", at: later(2) });
    const delivered = (await shipmentsOf(orderId))[0]!;
    expect(delivered.status).toBe("delivered");
    expect(delivered.delivered_at).not.toBeNull();
    const steps = await stepsOf(delivered.id);
    expect(steps.map((t) => t.message).sort()).toEqual([
      "Delivered, in mailbox",
      "Departed facility",
      "Shipping label created",
    ]);
    expect(steps.find((t) => t.message === "Departed facility")?.location).toBe("Leeds, US");

    // The same event again (a retry) is a duplicate; the older update arriving late changes nothing.
    const replay = await easypost.deliver(arrived!);
    expect(replay.status).toBe(200);
    expect(((await replay.json()) as { duplicate: boolean }).duplicate).toBe(true);
    const late = { ...moving!, event: { ...moving!.event, id: "evt_late_copy" } };
    late.body = JSON.stringify(late.event);
    const lateAnswer = await easypost.deliver(
      late,
      easypostSignature(late.body, easypost.accountOf(s.key).webhooks[0]!.secret),
    );
    expect(lateAnswer.status).toBe(200);
    expect((await shipmentsOf(orderId))[0]!.status).toBe("delivered");
    expect(await stepsOf(delivered.id)).toHaveLength(3);

    const staff = (await (await s.owner.get(`/shop/orders/${orderId}`)).text()).replaceAll("<!-- -->", "");
    expect(staff).toContain("Delivered, in mailbox");
    expect(staff).toContain("Print the label ($6.40)");
  });

  it("refuses forged, unsigned and another workspace's events, and applies none of them", async () => {
    const a = await shippingShop({ connect: true });
    const b = await shippingShop({ connect: true });
    const { orderId } = await paidOrder(a);
    const rates = await (
      await a.owner.post(`/shop/orders/${orderId}`, {
        intent: "rates",
        weightKg: "1",
        lengthCm: "20",
        widthCm: "20",
        heightCm: "20",
      })
    ).text();
    const shipmentId = /name="shipmentId" value="(shp_\w+)"/.exec(rates)![1]!;
    const rateId = /name="rateId"[^>]*value="(rate_\w+)"/.exec(rates)![1]!;
    expect((await a.owner.post(`/shop/orders/${orderId}`, { intent: "buy-label", shipmentId, rateId })).status).toBe(
      303,
    );
    const trackerId = (await shipmentsOf(orderId))[0]!.provider_tracker_id!;
    const [event] = await easypost.track(trackerId, "out_for_delivery");
    expect((await shipmentsOf(orderId))[0]!.status).toBe("out_for_delivery");

    const forgedBody = event!.body.replace('"out_for_delivery"', '"delivered"').replace(event!.event.id, "evt_forged");
    const endpoint = (workspaceId: string) => `${server.url}/api/webhooks/shipping/provider?workspace=${workspaceId}`;
    const post = (url: string, body: string, signature?: string) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...(signature ? { "x-hmac-signature": signature } : {}) },
        body,
      });
    expect((await post(endpoint(a.workspaceId), forgedBody, event!.signature)).status).toBe(401);
    expect((await post(endpoint(a.workspaceId), forgedBody)).status).toBe(401);
    // Signed with B's secret and sent to B: B has no package with that tracker.
    const secretB = easypost.accountOf(b.key).webhooks[0]!.secret;
    const toB = await post(endpoint(b.workspaceId), forgedBody, easypostSignature(forgedBody, secretB));
    expect(toB.status).toBe(404);
    // B's signature sent to A's address does not verify there.
    expect((await post(endpoint(a.workspaceId), forgedBody, easypostSignature(forgedBody, secretB))).status).toBe(401);
    expect((await shipmentsOf(orderId))[0]!.status).toBe("out_for_delivery");
  });

  it("answers EasyPost failing or silent with a 503, and writes nothing", async () => {
    const s = await shippingShop({ connect: true });
    const { orderId } = await paidOrder(s);
    const parcel = { intent: "rates", weightKg: "0.5", lengthCm: "30", widthCm: "20", heightCm: "10" };
    easypost.failNext(1, 502);
    const down = await s.owner.post(`/shop/orders/${orderId}`, parcel);
    expect(down.status).toBe(503);
    expect(await down.text()).toContain("EasyPost could not be reached to rate this parcel");
    easypost.failNext(1, "hang");
    expect((await s.owner.post(`/shop/orders/${orderId}`, parcel)).status).toBe(503);

    const page = await (await s.owner.post(`/shop/orders/${orderId}`, parcel)).text();
    const shipmentId = /name="shipmentId" value="(shp_\w+)"/.exec(page)![1]!;
    const rateId = /name="rateId"[^>]*value="(rate_\w+)"/.exec(page)![1]!;
    // Reading the shipment fails, then the purchase itself (its answer lost): 503s, nothing written; the same
    // rate again buys one label.
    easypost.failNext(1, 500);
    expect((await s.owner.post(`/shop/orders/${orderId}`, { intent: "buy-label", shipmentId, rateId })).status).toBe(
      503,
    );
    easypost.failNext(1, "hang", { after: 1 });
    const lost = await s.owner.post(`/shop/orders/${orderId}`, { intent: "buy-label", shipmentId, rateId });
    expect(lost.status).toBe(503);
    expect(await lost.text()).toContain("the label may be bought. Try the same rate again");
    expect(await shipmentsOf(orderId)).toEqual([]);
    expect(easypost.accountOf(s.key).shipments.get(shipmentId)!.postage_label).toBeNull();
    expect(
      (await server.db.selectFrom("orders").select("status").where("id", "=", orderId).executeTakeFirstOrThrow())
        .status,
    ).toBe("paid");
    expect((await s.owner.post(`/shop/orders/${orderId}`, { intent: "buy-label", shipmentId, rateId })).status).toBe(
      303,
    );
    expect(await shipmentsOf(orderId)).toHaveLength(1);

    // Rates of another order cannot buy this one's label.
    const other = await paidOrder(s);
    const wrong = await s.owner.post(`/shop/orders/${other.orderId}`, { intent: "buy-label", shipmentId, rateId });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("These rates are for another order");
    expect(await shipmentsOf(other.orderId)).toEqual([]);
  });

  it("buys no label for an order cancelled since its rates were shown", async () => {
    const s = await shippingShop({ connect: true });
    const { orderId } = await paidOrder(s);
    const page = await (
      await s.owner.post(`/shop/orders/${orderId}`, {
        intent: "rates",
        weightKg: "0.5",
        lengthCm: "30",
        widthCm: "20",
        heightCm: "10",
      })
    ).text();
    const shipmentId = /name="shipmentId" value="(shp_\w+)"/.exec(page)![1]!;
    const rateId = /name="rateId"[^>]*value="(rate_\w+)"/.exec(page)![1]!;
    expect((await s.owner.post(`/shop/orders/${orderId}`, { intent: "cancel" })).status).toBe(303);
    const bought = await s.owner.post(`/shop/orders/${orderId}`, { intent: "buy-label", shipmentId, rateId });
    expect(bought.status).toBe(409);
    expect(await bought.text()).toContain("A cancelled order cannot be sent");
    expect(easypost.accountOf(s.key).shipments.get(shipmentId)!.postage_label).toBeNull();
    expect(easypost.accountOf(s.key).refunds).toEqual([]);
    expect(await shipmentsOf(orderId)).toEqual([]);
  });
});
