/**
 * Deposits (issue 19, ADR 036) through real HTTP on this dialect, with Stripe's official SDK talking to the local
 * Stripe of tests/fakes/stripe.ts: a held booking's deposit is paid on Stripe's page and confirms it once, with
 * the event first or the customer's return first; while the page is open the slot stays taken even past the hold;
 * the shop's expiry sweep closes the page and frees the slot, and a payment arriving after that is refunded; the
 * rest of the price is paid the same way; and nothing is owed twice.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../helpers/client";
import { availableSlots, bookableBusiness, postBooking, siteHeader } from "../helpers/scheduling";
import { startServer, type TestServer } from "../helpers/server";
import { returnPath, shopRecords } from "../helpers/shop";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe";
import { setTestClock } from "~/lib/clock.server";

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

interface Booking {
  id: string;
  status: string;
  start: string;
  amountPaid: number;
  holdExpiresAt: string | null;
  manageToken?: string;
}

/** A Berlin studio open round the clock (so a time is free now, whatever the hour), its Stripe connected. */
async function studio(service: Record<string, unknown> = {}) {
  const business = await bookableBusiness(server, {
    hours: { start: "00:00", end: "24:00" },
    service: { price: 8000, deposit: 2000, ...service },
  });
  const key = stripe.addAccount(`Studio ${business.slug}`);
  const connected = await business.owner.post("/settings/integrations/payments", {
    intent: "stripe-connect",
    secretKey: key,
  });
  expect(await connected.text()).toContain("Stripe is connected");
  return { ...business, key };
}

type Studio = Awaited<ReturnType<typeof studio>>;

/** The second free time from now (the first may fall inside the hour), held by a guest. */
async function hold(s: Studio) {
  const { services } = await availableSlots(server.url, s.slug, { service: s.serviceSlug, timeZone: "UTC" });
  const start = services[0]!.slots[1]!.start;
  const guest = new Client(server.url);
  const res = await postBooking(guest, s.slug, { service: s.serviceSlug, start });
  expect(res.status).toBe(201);
  const booking = (await res.json()) as Booking;
  expect(booking.status).toBe("held");
  return { guest, booking, start, manage: { ...siteHeader(s.slug), "x-atrium-manage-token": booking.manageToken! } };
}

async function payPage(s: Studio, held: Awaited<ReturnType<typeof hold>>) {
  const res = await held.guest.postJson(`/api/v1/bookings/${held.booking.id}/checkout`, {}, held.manage);
  expect(res.status, await res.clone().text()).toBe(200);
  const answer = (await res.json()) as { checkoutUrl: string; orderId: string; kind: string; amount: number };
  expect(answer.checkoutUrl.startsWith(`${stripe.url}/pay/cs_test_`)).toBe(true);
  return { ...answer, sessionId: answer.checkoutUrl.split("/").pop()! };
}

/**
 * The running server's maintenance now (the shop's expiry of unpaid orders, the booking holds' sweep): through its
 * own modules, whose order hooks tie a deposit's order to its booking.
 */
const sweep = () => server.atrium.runtime.services.jobRunner.maintainNow();

const bookingRow = (id: string) =>
  server.db.selectFrom("bookings").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

async function isOffered(s: Studio, start: string) {
  const { services } = await availableSlots(server.url, s.slug, { service: s.serviceSlug, timeZone: "UTC" });
  return services[0]!.slots.some((slot) => slot.start === start);
}

describe("paying a deposit on Stripe's page", () => {
  it("confirms the booking once when the event comes first and the customer's return after", async () => {
    const s = await studio();
    const held = await hold(s);
    const page = await payPage(s, held);
    expect(page).toMatchObject({ kind: "deposit", amount: 2000 });
    // Asked again (a second click), the same page of the same order.
    const again = await payPage(s, held);
    expect(again.orderId).toBe(page.orderId);

    stripe.hold();
    const back = await stripe.pay(page.sessionId);
    const [event] = await stripe.release();
    expect(await event!.json()).toMatchObject({ status: "applied" });
    const row = await bookingRow(held.booking.id);
    expect(row).toMatchObject({ status: "confirmed", amount_paid: 2000, hold_expires_at: null });
    // The return lands on the booking in the portal; the payment is not applied twice.
    expect(returnPath(back)).toMatch(
      new RegExp(`/${s.slug}/account/my-bookings\\?booking=${held.booking.id}&session_id=`),
    );
    await held.guest.get(`/portal/callback?token=${held.booking.manageToken}`);
    expect((await held.guest.get(returnPath(back))).status).toBe(200);
    const shown = await held.guest.get(`/api/v1/bookings/${held.booking.id}`, held.manage);
    expect(((await shown.json()) as Booking).amountPaid).toBe(2000);
    const records = shopRecords(server.db);
    expect(await records.paymentsOf(page.orderId)).toHaveLength(1);
    expect((await records.orderRow(page.orderId)).status).toBe("paid");
    const mails = await server.db
      .selectFrom("jobs")
      .select("payload")
      .where("kind", "=", "scheduling.booking-mail")
      .where("payload", "like", `%${held.booking.id}%"confirmed"%`)
      .execute();
    expect(mails).toHaveLength(1);
    expect(await isOffered(s, held.start)).toBe(false);
  });

  it("confirms it once when the customer's return comes first, from their booking's page, and the event after", async () => {
    const s = await studio();
    const held = await hold(s);
    const page = await payPage(s, held);
    stripe.hold();
    const back = await stripe.pay(page.sessionId);
    // The guest's browser holds the booking's manage link (the confirmation page, or the e-mail's link, set it).
    const opened = await held.guest.get(`/portal/callback?token=${held.booking.manageToken}`);
    expect(opened.status).toBe(303);
    const landing = await held.guest.get(returnPath(back));
    expect(landing.status).toBe(200);
    expect(await landing.text()).toContain("Confirmed");
    expect(await bookingRow(held.booking.id)).toMatchObject({ status: "confirmed", amount_paid: 2000 });
    const [event] = await stripe.release();
    expect(event!.status).toBe(200);
    expect((await bookingRow(held.booking.id)).amount_paid).toBe(2000);
    expect(await shopRecords(server.db).paymentsOf(page.orderId)).toHaveLength(1);
  });

  it("takes the rest of the price the same way, and then owes nothing", async () => {
    const s = await studio();
    const held = await hold(s);
    await stripe.pay((await payPage(s, held)).sessionId);
    await stripe.idle();
    expect((await bookingRow(held.booking.id)).status).toBe("confirmed");
    const rest = await payPage(s, held);
    expect(rest).toMatchObject({ kind: "balance", amount: 6000 });
    await stripe.pay(rest.sessionId);
    await stripe.idle();
    expect((await bookingRow(held.booking.id)).amount_paid).toBe(8000);
    const nothing = await held.guest.postJson(`/api/v1/bookings/${held.booking.id}/checkout`, {}, held.manage);
    expect(nothing.status).toBe(409);
    expect(((await nothing.json()) as { message: string }).message).toMatch(/Nothing is owed/);
  });
});

describe("a deposit not paid in time", () => {
  it("keeps the slot while its payment page is open past the hold, until the sweep closes the page and frees it", async () => {
    const s = await studio();
    const held = await hold(s);
    const page = await payPage(s, held);
    const later = (minutes: number) => setTestClock(() => new Date(Date.now() + minutes * 60_000));
    try {
      // Six minutes on, the hold has run out, but its payment page is still open: nobody else may take the time.
      later(6);
      expect(await isOffered(s, held.start)).toBe(false);
      expect(
        (await postBooking(new Client(server.url), s.slug, { service: s.serviceSlug, start: held.start })).status,
      ).toBe(409);

      // The sweep closes Stripe's page, cancels the order, and with it the booking's hold: the time is free.
      await sweep();
      expect(stripe.accountOf(s.key).sessions.get(page.sessionId)!.status).toBe("expired");
      expect((await bookingRow(held.booking.id)).status).toBe("expired");
      expect(await isOffered(s, held.start)).toBe(true);
    } finally {
      setTestClock(undefined);
    }
  });

  it("refunds a payment that lands after the hold and its order were released, and leaves the slot to others", async () => {
    const s = await studio();
    const held = await hold(s);
    const page = await payPage(s, held);
    // Stripe cannot be reached at the release: the order goes anyway (its page would expire by itself).
    stripe.failNext(6, 500);
    setTestClock(() => new Date(Date.now() + 61 * 60_000));
    try {
      await sweep();
    } finally {
      setTestClock(undefined);
      stripe.failNext(0, 500);
    }
    expect((await bookingRow(held.booking.id)).status).toBe("expired");
    const taken = await postBooking(new Client(server.url), s.slug, { service: s.serviceSlug, start: held.start });
    expect(taken.status).toBe(201);

    await stripe.pay(page.sessionId);
    await stripe.idle();
    expect(stripe.accountOf(s.key).refunds.map((r) => r.amount)).toEqual([2000]);
    expect((await bookingRow(held.booking.id)).status).toBe("expired");
    expect((await shopRecords(server.db).orderRow(page.orderId)).status).toBe("cancelled");
  });

  it("closes an open deposit page when the booking is cancelled, and refunds a payment made on it after", async () => {
    const s = await studio();
    const held = await hold(s);
    const page = await payPage(s, held);
    const cancelled = await held.guest.postJson(`/api/v1/bookings/${held.booking.id}/cancel`, {}, held.manage);
    expect(cancelled.status).toBe(200);
    expect(stripe.accountOf(s.key).sessions.get(page.sessionId)!.status).toBe("expired");
    expect((await shopRecords(server.db).orderRow(page.orderId)).status).toBe("cancelled");
    // Paid on a copy of the page all the same (Stripe cannot be told in time): refunded, not kept.
    stripe.failNext(0, 500);
    stripe.accountOf(s.key).sessions.get(page.sessionId)!.status = "open";
    await stripe.pay(page.sessionId);
    await stripe.idle();
    expect(stripe.accountOf(s.key).refunds.map((r) => r.amount)).toEqual([2000]);
    expect(await bookingRow(held.booking.id)).toMatchObject({ status: "cancelled", amount_paid: 0 });
  });

  it("refuses to open a payment page once the hold has run out", async () => {
    const s = await studio();
    const held = await hold(s);
    setTestClock(() => new Date(Date.now() + 6 * 60_000));
    try {
      const res = await held.guest.postJson(`/api/v1/bookings/${held.booking.id}/checkout`, {}, held.manage);
      expect(res.status).toBe(409);
      expect(((await res.json()) as { message: string }).message).toMatch(/hold on this time ran out/);
    } finally {
      setTestClock(undefined);
    }
    expect(
      await server.db.selectFrom("booking_payments").selectAll().where("booking_id", "=", held.booking.id).execute(),
    ).toEqual([]);
  });
});
