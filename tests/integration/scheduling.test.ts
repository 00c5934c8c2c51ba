/**
 * Scheduling (issue 19, ADR 036), through real HTTP on this dialect: an operator sets weekly hours and a service
 * through `/api/editor/bookings/services`; a visitor in another zone sees its times across a daylight-saving
 * change and books one; fifty concurrent requests for one slot admit exactly its places; a deposit's hold frees
 * its slot when it lapses; cancelling and moving follow the notice rules; a stranger's booking is a 404; and every
 * kind of bad time is refused on `start` with nothing written.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client, uniqueEmail } from "../helpers/client";
import { signInCustomer } from "../helpers/customers";
import { availableSlots, bookableBusiness, postBooking, siteHeader } from "../helpers/scheduling";
import { consoleTrigger, createSop, trigger, waitForRun } from "../helpers/sops";
import { startServer, type TestServer } from "../helpers/server";
import { now, setTestClock } from "~/lib/clock.server";
import { signWebhook } from "~/modules/webhooks/standard-webhooks.server";
import { expireBookingHolds } from "~/modules/scheduling/bookings.server";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    CUSTOMER_API_PER_ADDRESS_PER_MINUTE: "5000",
    CUSTOMER_CODES_PER_EMAIL_PER_HOUR: "50",
    CUSTOMER_CODES_PER_ADDRESS_PER_HOUR: "1000",
  });
});
afterAll(() => server.close());
afterEach(() => setTestClock(undefined));

/** Wednesday 25 March 2026, 08:00 UTC: Berlin moves its clocks forward on Sunday the 29th. */
const NOW = new Date("2026-03-25T08:00:00.000Z");
const at = (iso: string) => setTestClock(() => new Date(iso));

interface Slot {
  start: string;
  end: string;
  seatsLeft: number;
}
interface Availability {
  businessTimeZone: string;
  timeZone: string;
  services: { slug: string; slots: Slot[]; location: { kind: string; detail: string | null } }[];
}
interface Booking {
  id: string;
  status: string;
  start: string;
  end: string;
  holdExpiresAt: string | null;
  canCancel: boolean;
  canReschedule: boolean;
  manageToken?: string;
}
interface Problem {
  error: string;
  message: string;
  statusCode: number;
  issues?: { field: string; message: string }[];
  nextAvailable?: Slot[];
}

const business = (service: Record<string, unknown> = {}) => bookableBusiness(server, { service });
const site = siteHeader;
const availability = (slug: string, query: Record<string, string>): Promise<Availability> =>
  availableSlots(server.url, slug, query);
const book = postBooking;

const bookingsIn = (workspaceId: string) =>
  server.db.selectFrom("bookings").selectAll().where("workspace_id", "=", workspaceId).execute();

describe("availability and booking across a daylight-saving change", () => {
  it("shows a New York visitor Berlin's hours on the day Berlin springs forward, and books one", async () => {
    at(NOW.toISOString());
    const { slug, serviceSlug, workspaceId } = await business();

    // Saturday the 28th, Berlin on CET (UTC+1): 09:00 is 08:00Z. Sunday the 29th, CEST (UTC+2): 09:00 is 07:00Z.
    // The New York visitor's days (EDT, UTC−4) run 04:00Z to 04:00Z, so each holds exactly one Berlin day.
    const both = await availability(slug, { from: "2026-03-28", to: "2026-03-29", timeZone: "America/New_York" });
    expect(both.businessTimeZone).toBe("Europe/Berlin");
    expect(both.timeZone).toBe("America/New_York");
    const slots = both.services.find((s) => s.slug === serviceSlug)!.slots.map((s) => s.start);
    const hours = (day: string, from: number) =>
      Array.from({ length: 8 }, (_, i) => `${day}T${String(from + i).padStart(2, "0")}:00:00Z`);
    expect(slots).toEqual([...hours("2026-03-28", 8), ...hours("2026-03-29", 7)]);
    // The address is public; the service's questions are there for the form.
    expect(both.services[0]!.location).toEqual({ kind: "in_person", detail: "Torstraße 1, Berlin" });

    const visitor = new Client(server.url);
    const res = await book(visitor, slug, {
      service: serviceSlug,
      start: "2026-03-29T07:00:00Z",
      answers: { focus: "Shoulders" },
    });
    expect(res.status).toBe(201);
    const booking = (await res.json()) as Booking;
    expect(booking).toMatchObject({
      status: "confirmed",
      start: "2026-03-29T07:00:00.000Z",
      end: "2026-03-29T08:00:00.000Z",
      canCancel: true,
      canReschedule: true,
    });
    expect(booking.manageToken).toMatch(/^[\w-]{20,}$/);
    // Retried with its Idempotency-Key: the same booking, and the token — kept nowhere but as its digest — is
    // not in the stored answer replayed.
    const key = { ...site(slug), "idempotency-key": `book-${booking.id}` };
    const body = { service: serviceSlug, start: "2026-03-30T12:00:00Z", name: "Ada", email: "ada-replay@example.test" };
    const first = (await (await visitor.postJson("/api/v1/bookings", body, key)).json()) as Booking;
    const replay = await visitor.postJson("/api/v1/bookings", body, key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const replayed = (await replay.json()) as Booking;
    expect(replayed.id).toBe(first.id);
    expect(first.manageToken).toBeTruthy();
    expect(replayed.manageToken).toBeUndefined();
    const stored = await server.db
      .selectFrom("idempotency_keys")
      .select("body")
      .where("key", "=", key["idempotency-key"])
      .executeTakeFirstOrThrow();
    expect(stored.body).not.toContain(first.manageToken!);

    // The time is gone for everyone; its neighbours stay.
    const after = await availability(slug, { from: "2026-03-29", to: "2026-03-29", service: serviceSlug });
    expect(after.services[0]!.slots.map((s) => s.start)).toEqual(hours("2026-03-29", 8).slice(0, 7));

    // The manage token opens it; no token is a 401, another booking's token a 404.
    const own = await visitor.get(`/api/v1/bookings/${booking.id}`, {
      ...site(slug),
      "x-atrium-manage-token": booking.manageToken!,
    });
    expect(own.status).toBe(200);
    expect(((await own.json()) as Booking).id).toBe(booking.id);
    expect((await visitor.get(`/api/v1/bookings/${booking.id}`, site(slug))).status).toBe(401);
    const other = (await (
      await book(new Client(server.url), slug, { service: serviceSlug, start: "2026-03-29T09:00:00Z" })
    ).json()) as Booking;
    const stranger = await visitor.get(`/api/v1/bookings/${booking.id}`, {
      ...site(slug),
      "x-atrium-manage-token": other.manageToken!,
    });
    expect(stranger.status).toBe(404);
    expect(await bookingsIn(workspaceId)).toHaveLength(3);
  });

  it("refuses a skipped or repeated local time, and every time that is not on offer, writing nothing", async () => {
    at(NOW.toISOString());
    const { slug, serviceSlug, workspaceId } = await business({ noticeMinutes: 24 * 60, windowDays: 30 });
    const refusal = async (body: Record<string, unknown>) => {
      const res = await book(new Client(server.url), slug, { service: serviceSlug, ...body });
      expect(res.status).toBe(400);
      const problem = (await res.json()) as Problem;
      expect(problem.issues?.[0]?.field).toBe("start");
      return problem.message;
    };
    // 02:30 on 29 March does not exist in Berlin; 02:30 on 25 October happens twice.
    expect(await refusal({ start: "2026-03-29T02:30", timeZone: "Europe/Berlin" })).toMatch(
      /does not exist in Europe\/Berlin/,
    );
    expect(await refusal({ start: "2026-10-25T02:30", timeZone: "Europe/Berlin" })).toMatch(
      /happens twice .*\+02:00 .*\+01:00/,
    );
    expect(await refusal({ start: "2026-03-20T09:00:00Z" })).toMatch(/has passed/);
    expect(await refusal({ start: "2026-03-25T12:00:00Z" })).toMatch(/at least 1 day ahead/);
    expect(await refusal({ start: "2026-05-20T08:00:00Z" })).toMatch(/up to 30 days ahead/);
    // Off the hourly grid, and outside the hours.
    expect(await refusal({ start: "2026-03-28T08:30:00Z" })).toMatch(/not a time this service can be booked at/);
    expect(await refusal({ start: "2026-03-28T20:00:00Z" })).toMatch(/not a time this service can be booked at/);
    expect(await refusal({ start: "next tuesday" })).toMatch(/ISO 8601/);
    expect(await refusal({ start: "+275760-09-13T00:00:00Z" })).toMatch(/not one this service can be booked at/);
    // A wall-clock time that exists is read in the zone given: 10:00 Berlin on the 28th is 09:00Z.
    const local = await book(new Client(server.url), slug, {
      service: serviceSlug,
      start: "2026-03-28T10:00",
      timeZone: "Europe/Berlin",
    });
    expect(local.status).toBe(201);
    expect(((await local.json()) as Booking).start).toBe("2026-03-28T09:00:00.000Z");
    expect(await bookingsIn(workspaceId)).toHaveLength(1);

    // Another workspace's service is not on this site.
    const other = await business();
    const res = await book(new Client(server.url), slug, { service: other.serviceId, start: "2026-03-28T10:00:00Z" });
    expect(res.status).toBe(404);
  });
});

describe("POST /api/webhooks/bookings", () => {
  let sent = 0;
  async function send(secret: string, workspaceId: string, type: string, data: unknown) {
    const text = JSON.stringify({ type, workspace: workspaceId, data });
    const id = `msg_bookings_${process.pid}_${++sent}`;
    const timestamp = Math.floor(now().getTime() / 1000);
    const res = await fetch(`${server.url}/api/webhooks/bookings`, {
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

  it("closes a day and saves a service from an integration, and the booking page shows it at once", async () => {
    at(NOW.toISOString());
    const { owner, slug, workspaceId, hostId, serviceSlug } = await business();
    const created = await owner.post("/settings/webhooks", { intent: "create", family: "bookings" });
    const secret = /data-testid="new-webhook-secret">(whsec_[^<]+)</.exec(await created.text())![1]!;
    const page = () =>
      new Client(server.url).get(`/${slug}/bookings/${serviceSlug}?date=2026-03-27&tz=UTC`).then((r) => r.text());
    expect(await page()).toContain("10:00");

    // A rota system closes Friday: the page (cached a moment ago) no longer offers it, nor does the API.
    expect(
      await send(secret, workspaceId, "bookings.availability.closed", {
        hostId,
        dates: [{ date: "2026-03-27", label: "Training" }],
      }),
    ).toBe(200);
    expect(await page()).not.toContain("10:00");
    const friday = await availability(slug, { from: "2026-03-27", to: "2026-03-27", timeZone: "Europe/Berlin" });
    expect(friday.services[0]!.slots).toEqual([]);
    // Closing again on another day keeps the first.
    expect(
      await send(secret, workspaceId, "bookings.availability.closed", { hostId, dates: [{ date: "2026-03-28" }] }),
    ).toBe(200);
    const weekend = await availability(slug, { from: "2026-03-27", to: "2026-03-29", timeZone: "Europe/Berlin" });
    expect(weekend.services[0]!.slots.map((s) => s.start.slice(0, 10))).toEqual(Array(8).fill("2026-03-29"));

    const saved = await send(secret, workspaceId, "bookings.service.saved", {
      serviceId: null,
      service: { name: "Sports massage", durationMinutes: 30, hostIds: [hostId] },
    });
    expect(saved).toBe(200);
    expect((await new Client(server.url).get(`/${slug}/bookings/sports-massage`)).status).toBe(200);

    // Another workspace's staff member is a 404 that changes nothing; a bad body is a 400.
    const other = await business();
    expect(
      await send(secret, workspaceId, "bookings.availability.closed", {
        hostId: other.hostId,
        dates: [{ date: "2026-03-27" }],
      }),
    ).toBe(404);
    expect(
      await send(secret, workspaceId, "bookings.availability.closed", { hostId, dates: [{ date: "27/03" }] }),
    ).toBe(400);
    const untouched = await availability(other.slug, {
      from: "2026-03-27",
      to: "2026-03-27",
      timeZone: "Europe/Berlin",
    });
    expect(untouched.services[0]!.slots).toHaveLength(8);
  });
});

describe("the update_booking SOP step", () => {
  it("confirms a booking waiting for approval from a signed trigger, once however often it runs", async () => {
    at(NOW.toISOString());
    const { owner, slug, serviceSlug, workspaceId } = await business({ requiresApproval: true });
    const pending = (await (
      await book(new Client(server.url), slug, { service: serviceSlug, start: "2026-03-27T10:00:00Z" })
    ).json()) as Booking;
    expect(pending.status).toBe("pending");
    const sopId = await createSop(owner, {
      name: "Confirm from the front desk",
      slug: `confirm-${process.pid}-${workspaceId.slice(-6).toLowerCase()}`,
      steps: [{ type: "update_booking", booking: "{{input.bookingId}}", action: "confirm" }],
    });
    const secret = await consoleTrigger(owner, sopId);
    const run = async (input: unknown) => {
      const res = await trigger(server.url, sopId, secret, input, { timestamp: Math.floor(now().getTime() / 1000) });
      expect(res.status).toBe(202);
      return waitForRun(owner, ((await res.json()) as { statusUrl: string }).statusUrl);
    };

    const first = await run({ bookingId: pending.id });
    expect(first.status, JSON.stringify(first)).toBe("succeeded");
    expect(first.steps[0]!.output).toEqual({ bookingId: pending.id, action: "confirm", status: "confirmed" });
    const row = await server.db
      .selectFrom("bookings")
      .selectAll()
      .where("id", "=", pending.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("confirmed");
    // Delivered again (runs are at least once): nothing left to do, and no second e-mail.
    expect((await run({ bookingId: pending.id })).status).toBe("succeeded");
    const mails = await server.db
      .selectFrom("jobs")
      .select("id")
      .where("kind", "=", "scheduling.booking-mail")
      .where("payload", "like", `%${pending.id}%"confirmed"%`)
      .execute();
    expect(mails).toHaveLength(1);

    // Another workspace's booking is not this SOP's to touch: the run fails and that booking stays pending.
    const other = await business({ requiresApproval: true });
    const theirs = (await (
      await book(new Client(server.url), other.slug, { service: other.serviceSlug, start: "2026-03-27T10:00:00Z" })
    ).json()) as Booking;
    const refused = await run({ bookingId: theirs.id });
    expect(refused.status).toBe("failed");
    expect(JSON.stringify(refused.steps[0])).toContain(`No booking ${theirs.id} in this workspace`);
    const untouched = await server.db
      .selectFrom("bookings")
      .select("status")
      .where("id", "=", theirs.id)
      .executeTakeFirstOrThrow();
    expect(untouched.status).toBe("pending");
  });
});

describe("under concurrency", () => {
  it("admits exactly one of fifty requests for an appointment, and answers the others with the next free times", async () => {
    at(NOW.toISOString());
    const { slug, serviceSlug, workspaceId } = await business();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        book(new Client(server.url), slug, { service: serviceSlug, start: "2026-03-27T10:00:00Z" }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const problem = (await answers.find((a) => a.status === 409)!.json()) as Problem;
    expect(problem.message).toMatch(/just taken/);
    expect(problem.nextAvailable!.map((s) => s.start)).toEqual([
      "2026-03-27T11:00:00Z",
      "2026-03-27T12:00:00Z",
      "2026-03-27T13:00:00Z",
    ]);
    expect(await bookingsIn(workspaceId)).toHaveLength(1);
  });

  it("admits exactly a class's places", async () => {
    at(NOW.toISOString());
    const { slug, serviceSlug, workspaceId } = await business({ name: "Yoga class", capacity: 3 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        book(new Client(server.url), slug, { service: serviceSlug, start: "2026-03-27T10:00:00Z" }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(47);
    const rows = await bookingsIn(workspaceId);
    expect(rows.reduce((n, b) => n + b.seats, 0)).toBe(3);
    const open = await availability(slug, {
      from: "2026-03-27",
      to: "2026-03-27",
      service: serviceSlug,
      timeZone: "UTC",
    });
    expect(open.services[0]!.slots.find((s) => s.start === "2026-03-27T10:00:00Z")).toBeUndefined();
  });
});

describe("deposits hold their slot", () => {
  it("holds the slot five minutes while the deposit is owed, then frees it", async () => {
    at(NOW.toISOString());
    const { slug, serviceSlug, workspaceId } = await business({ deposit: 2000 });
    const held = (await (
      await book(new Client(server.url), slug, { service: serviceSlug, start: "2026-03-27T10:00:00Z" })
    ).json()) as Booking;
    expect(held.status).toBe("held");
    expect(held.holdExpiresAt).toBe("2026-03-25T08:05:00.000Z");
    expect(
      (await book(new Client(server.url), slug, { service: serviceSlug, start: "2026-03-27T10:00:00Z" })).status,
    ).toBe(409);

    // Past the hold, the time is offered and booked again at once, before any sweep.
    at("2026-03-25T08:05:01.000Z");
    const open = await availability(slug, {
      from: "2026-03-27",
      to: "2026-03-27",
      service: serviceSlug,
      timeZone: "UTC",
    });
    expect(open.services[0]!.slots.map((s) => s.start)).toContain("2026-03-27T10:00:00Z");
    expect(
      (await book(new Client(server.url), slug, { service: serviceSlug, start: "2026-03-27T10:00:00Z" })).status,
    ).toBe(201);
    await expireBookingHolds(server.db, server.url);
    const statuses = (await bookingsIn(workspaceId)).map((b) => b.status).sort();
    expect(statuses).toEqual(["expired", "held"]);
  });
});

describe("cancelling and moving", () => {
  it("lets the booker move and cancel within the notice, refuses it after, and keeps customers apart", async () => {
    at(NOW.toISOString());
    const { slug, serviceSlug } = await business({ cancelNoticeMinutes: 24 * 60, rescheduleNoticeMinutes: 24 * 60 });
    const email = uniqueEmail("ada");
    const ada = await signInCustomer(server.url, slug, email);
    const made = await book(ada, slug, { service: serviceSlug, start: "2026-03-27T10:00:00Z", email });
    expect(made.status).toBe(201);
    const booking = (await made.json()) as Booking;
    // A signed-in customer's booking is theirs: no token in the answer, the session opens it.
    expect(booking.manageToken).toBeUndefined();
    expect((await ada.get(`/api/v1/bookings/${booking.id}`, site(slug))).status).toBe(200);
    const bea = await signInCustomer(server.url, slug, uniqueEmail("bea"));
    expect((await bea.get(`/api/v1/bookings/${booking.id}`, site(slug))).status).toBe(404);
    expect((await bea.postJson(`/api/v1/bookings/${booking.id}/cancel`, {}, site(slug))).status).toBe(404);

    // Moved to a free time; a taken one is a 409 and the booking stays where it was.
    await book(new Client(server.url), slug, { service: serviceSlug, start: "2026-03-27T13:00:00Z" });
    const taken = await ada.postJson(
      `/api/v1/bookings/${booking.id}/reschedule`,
      { start: "2026-03-27T13:00:00Z" },
      site(slug),
    );
    expect(taken.status).toBe(409);
    const moved = await ada.postJson(
      `/api/v1/bookings/${booking.id}/reschedule`,
      { start: "2026-03-27T12:00:00+00:00" },
      site(slug),
    );
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as Booking).start).toBe("2026-03-27T12:00:00.000Z");
    // Its old time is free again.
    const open = await availability(slug, {
      from: "2026-03-27",
      to: "2026-03-27",
      service: serviceSlug,
      timeZone: "UTC",
    });
    expect(open.services[0]!.slots.map((s) => s.start)).toContain("2026-03-27T10:00:00Z");

    // Inside the 24-hour notice, the customer can neither move nor cancel it.
    at("2026-03-26T13:00:00.000Z");
    const late = await ada.postJson(`/api/v1/bookings/${booking.id}/cancel`, {}, site(slug));
    expect(late.status).toBe(409);
    expect(((await late.json()) as Problem).message).toMatch(/up to 1 day before/);
    at("2026-03-26T11:00:00.000Z");
    const cancelled = await ada.postJson(`/api/v1/bookings/${booking.id}/cancel`, { reason: "Ill" }, site(slug));
    expect(cancelled.status).toBe(200);
    expect(((await cancelled.json()) as Booking).status).toBe("cancelled");
    expect((await ada.postJson(`/api/v1/bookings/${booking.id}/cancel`, {}, site(slug))).status).toBe(409);
  });
});
