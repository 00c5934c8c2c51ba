/**
 * A booking's e-mails, reminders, the staff feed and the waiting list (issue 19, ADR 036), through real HTTP and a
 * real SMTP server on this dialect: the confirmation is in the booker's zone with the business's, carries an
 * invitation (booking.ics: UTC times, the booking's UID) and a manage link that opens the booking; a move sends the
 * same UID with a higher SEQUENCE and a cancellation METHOD:CANCEL; a retried job sends nothing twice; a reminder
 * goes once with two runners on one database, and a moved booking's old reminder sends nothing; a host's feed lists
 * its bookings without the customers' addresses and is a 404 once revoked; a freed place is offered to the first
 * on the waiting list only.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client, createWorkspace, linkIn, signUp, uniqueEmail } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { startSmtp, type TestSmtp } from "../helpers/smtp";
import { now, setTestClock } from "~/lib/clock.server";
import { DEFAULT_PROFILE, profileInputOf, profileOf } from "~/modules/sites/profile.server";
import { hostFeedsOf } from "~/modules/scheduling/feed.server";
import { BOOKING_MAIL_JOB, BOOKING_REMINDER_JOB, enqueueBookingMail } from "~/modules/scheduling/notify.server";

const FAST_JOBS = { JOBS_POLL_MS: "50", JOBS_RETRY_BASE_MS: "20" };
let smtp: TestSmtp;
let server: TestServer;
beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({
    ...FAST_JOBS,
    SMTP_URL: smtp.url,
    MAIL_FROM: "Atrium Test <atrium@example.test>",
    CUSTOMER_API_PER_ADDRESS_PER_MINUTE: "5000",
    CUSTOMER_CODES_PER_EMAIL_PER_HOUR: "50",
    CUSTOMER_CODES_PER_ADDRESS_PER_HOUR: "1000",
  });
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});
afterEach(() => setTestClock(undefined));

/** Wednesday 25 March 2026, 08:00 UTC: Berlin moves its clocks forward on Sunday the 29th. */
const NOW = "2026-03-25T08:00:00.000Z";
const at = (iso: string) => setTestClock(() => new Date(iso));
const site = (slug: string) => ({ "x-atrium-site": slug });

interface Booking {
  id: string;
  status: string;
  start: string;
  manageToken?: string;
}

let shops = 0;
/** A business in Berlin with one staff member working 09:00–17:00 every day, and a 60-minute service. */
async function business(service: Record<string, unknown> = {}) {
  shops += 1;
  const slug = `bookmail-${process.pid}-${shops}`;
  const { client: owner, email: ownerEmail } = await signUp(server.url, uniqueEmail(), {
    mailbox: (to) => smtp.mailbox(to),
  });
  await createWorkspace(owner, `Studio ${shops}`, slug);
  const { id: workspaceId } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
  await profileOf(server.db, workspaceId).save(null, {
    ...profileInputOf(DEFAULT_PROFILE),
    timeZone: "Europe/Berlin",
    currency: "EUR",
  });
  const weekly = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: "09:00", end: "17:00" }));
  const hostRes = await owner.postJson("/api/editor/bookings/services/availability", {
    name: "Mia",
    timeZone: "Europe/Berlin",
    weekly,
  });
  expect(hostRes.status).toBe(201);
  const host = (await hostRes.json()) as { id: string };
  const created = await owner.postJson("/api/editor/bookings/services", {
    name: "Deep tissue massage",
    durationMinutes: 60,
    price: 8000,
    locationKind: "in_person",
    locationDetail: "Torstraße 1, Berlin",
    hostIds: [host.id],
    reminderHours: 0,
    ...service,
  });
  expect(created.status).toBe(201);
  const { slug: serviceSlug, id: serviceId } = (await created.json()) as { slug: string; id: string };
  return { owner, ownerEmail, slug, workspaceId, hostId: host.id, serviceSlug, serviceId };
}

/** Books as a guest; the booking's transaction queued its "created" mail. */
async function book(slug: string, body: Record<string, unknown>) {
  const email = uniqueEmail("visitor");
  const res = await new Client(server.url).postJson(
    "/api/v1/bookings",
    { name: "Ada Visitor", email, timeZone: "America/New_York", ...body },
    site(slug),
  );
  expect(res.status).toBe(201);
  const booking = (await res.json()) as Booking;
  const queued = await server.db
    .selectFrom("jobs")
    .select("id")
    .where("kind", "=", BOOKING_MAIL_JOB)
    .where("payload", "like", `%"bookingId":"${booking.id}","event":"created"%`)
    .execute();
  expect(queued).toHaveLength(1);
  return { booking, email };
}

/** Runs every job due now (on every server given) until none is due or running; a failed attempt fails the test. */
async function settle(servers: TestServer[] = [server]) {
  for (let i = 0; i < 200; i += 1) {
    const due = await server.db
      .selectFrom("jobs")
      .select(["id"])
      .where((eb) =>
        eb.or([
          eb.and([eb("status", "=", "queued"), eb("run_at", "<=", now().toISOString())]),
          eb("status", "=", "running"),
        ]),
      )
      .executeTakeFirst();
    if (!due) break;
    for (const s of servers) s.atrium.runtime.services.jobRunner.wake();
    await new Promise((r) => setTimeout(r, 50));
    if (i === 199) throw new Error("jobs did not finish");
  }
  const failed = await server.db
    .selectFrom("jobs")
    .select(["kind", "last_error"])
    .where("kind", "in", [BOOKING_MAIL_JOB, BOOKING_REMINDER_JOB])
    .where("last_error", "is not", null)
    .execute();
  expect(failed).toEqual([]);
}

/** The body of a MIME part, its transfer encoding undone, as UTF-8. */
function decodePart(part: string): { headers: string; body: string } {
  const split = part.search(/\r?\n\r?\n/);
  const headers = part.slice(0, split);
  const raw = part.slice(split).replace(/^\r?\n\r?\n/, "");
  if (/content-transfer-encoding:\s*base64/i.test(headers)) {
    return { headers, body: Buffer.from(raw.replace(/[^A-Za-z0-9+/=]/g, ""), "base64").toString("utf8") };
  }
  if (/content-transfer-encoding:\s*quoted-printable/i.test(headers)) {
    const soft = raw.replace(/=\r?\n/g, "");
    const bytes: number[] = [];
    for (let i = 0; i < soft.length; i += 1) {
      const hex = soft[i] === "=" ? /^[0-9A-F]{2}/i.exec(soft.slice(i + 1, i + 3)) : null;
      if (hex) {
        bytes.push(parseInt(hex[0], 16));
        i += 2;
      } else bytes.push(soft.charCodeAt(i));
    }
    return { headers, body: Buffer.from(bytes).toString("utf8") };
  }
  return { headers, body: raw };
}

interface Mail {
  text: string;
  ics: string | null;
}

/** Every message delivered to `to`, oldest first: its plain text and its booking.ics (unfolded), if any. */
function mailsTo(to: string): Mail[] {
  return smtp.delivered
    .filter((d) => d.to.includes(to))
    .map((d) => {
      const parts = d.data.split(/\r?\n--[^\r\n]*\r?\n/).map(decodePart);
      const text = parts.find((p) => /content-type:\s*text\/plain/i.test(p.headers))?.body ?? "";
      const ics = parts.find((p) => /booking\.ics/.test(p.headers))?.body ?? null;
      return { text, ics: ics && ics.replace(/\r\n[ \t]/g, "") };
    });
}

const icsLines = (ics: string | null) => (ics ?? "").split("\r\n");

describe("the booker's e-mails", () => {
  it("confirms in the booker's zone with an invitation and a manage link; a move and a cancellation update it", async () => {
    at(NOW);
    const { slug, serviceSlug, ownerEmail } = await business();
    const { booking, email } = await book(slug, { service: serviceSlug, start: "2026-03-29T07:00:00Z" });
    await settle();

    const [confirmation, ...more] = mailsTo(email);
    expect(more).toEqual([]);
    expect(confirmation!.text).toContain("is confirmed");
    expect(confirmation!.text).toContain("Sunday 29 March 2026, 03:00 (America/New_York) — 09:00 in Berlin");
    expect(confirmation!.text).toContain("Where: Torstraße 1, Berlin");
    expect(confirmation!.text).toContain("Price: €80.00");
    expect(confirmation!.text).toContain("https://calendar.google.com/calendar/render?action=TEMPLATE");
    expect(confirmation!.text).toContain("https://outlook.live.com/calendar/0/deeplink/compose?");
    const lines = icsLines(confirmation!.ics);
    expect(lines).toContain("METHOD:REQUEST");
    expect(lines).toContain("DTSTART:20260329T070000Z");
    expect(lines).toContain("DTEND:20260329T080000Z");
    expect(lines).toContain(`UID:booking-${booking.id}@atrium`);
    expect(lines).toContain("SEQUENCE:0");
    expect(lines).toContain("STATUS:CONFIRMED");
    expect(lines.some((l) => l.startsWith("ATTENDEE;") && l.endsWith(`:mailto:${email}`))).toBe(true);

    // The stored copy names the attachment and keeps no live link.
    const stored = await server.db
      .selectFrom("mail_messages")
      .select("body")
      .where("to_address", "=", email)
      .executeTakeFirstOrThrow();
    expect(stored.body).toMatch(/Attached: booking\.ics \(\d+ B\)/);
    expect(stored.body).toContain("token=[sent by e-mail, not stored]");

    // The manage link lands on the portal's bookings page and opens this booking, without an account.
    const guest = new Client(server.url);
    const landing = await guest.get(linkIn(confirmation!.text, "/portal/callback"));
    expect(landing.status).toBe(303);
    expect(landing.headers.get("location")).toBe(`/${slug}/account/my-bookings?booking=${booking.id}`);
    const opened = await guest.get(`/api/v1/bookings/${booking.id}`, site(slug));
    expect(opened.status).toBe(200);
    expect(((await opened.json()) as Booking).id).toBe(booking.id);

    // The owner hears of the new booking, with the console's calendar.
    const notice = mailsTo(ownerEmail).find((m) => m.text.includes("New booking"));
    expect(notice?.text).toContain(`${server.url}/scheduling`);
    expect(notice?.text).toContain(email);

    // A retried job sends nothing twice.
    await server.db
      .updateTable("jobs")
      .set({ status: "queued", run_at: now().toISOString() })
      .where("kind", "=", BOOKING_MAIL_JOB)
      .where("payload", "like", `%"bookingId":"${booking.id}"%`)
      .execute();
    await settle();
    expect(mailsTo(email)).toHaveLength(1);

    // Moved: the same UID, a higher SEQUENCE, the new time.
    const token = { ...site(slug), "x-atrium-manage-token": booking.manageToken! };
    const moved = await guest.postJson(
      `/api/v1/bookings/${booking.id}/reschedule`,
      { start: "2026-03-29T10:00:00Z" },
      token,
    );
    expect(moved.status).toBe(200);
    await settle();
    const move = mailsTo(email)[1]!;
    expect(move.text).toContain("was moved to Sunday 29 March 2026, 06:00 (America/New_York) — 12:00 in Berlin");
    expect(icsLines(move.ics)).toContain(`UID:booking-${booking.id}@atrium`);
    expect(icsLines(move.ics)).toContain("SEQUENCE:1");
    expect(icsLines(move.ics)).toContain("DTSTART:20260329T100000Z");

    // Cancelled: METHOD:CANCEL for the same event, higher again.
    expect((await guest.postJson(`/api/v1/bookings/${booking.id}/cancel`, {}, token)).status).toBe(200);
    await settle();
    const cancel = mailsTo(email)[2]!;
    expect(cancel.text).toContain("was cancelled");
    expect(icsLines(cancel.ics)).toContain("METHOD:CANCEL");
    expect(icsLines(cancel.ics)).toContain("STATUS:CANCELLED");
    expect(icsLines(cancel.ics)).toContain(`UID:booking-${booking.id}@atrium`);
    expect(icsLines(cancel.ics)).toContain("SEQUENCE:2");
    expect(mailsTo(ownerEmail).filter((m) => m.text.includes("Booking cancelled"))).toHaveLength(1);
  });

  it("tells a booker awaiting approval so, with a tentative invitation", async () => {
    at(NOW);
    const { slug, serviceSlug } = await business({ requiresApproval: true });
    const { email } = await book(slug, { service: serviceSlug, start: "2026-03-28T09:00:00Z" });
    await settle();
    const [mail] = mailsTo(email);
    expect(mail!.text).toContain("awaiting their approval");
    expect(icsLines(mail!.ics)).toContain("STATUS:TENTATIVE");
  });

  it("sends nothing for a booking deleted before its job ran", async () => {
    at(NOW);
    const { slug, workspaceId, serviceSlug } = await business();
    const { booking, email } = await book(slug, { service: serviceSlug, start: "2026-03-28T09:00:00Z" });
    await settle();
    await server.db.deleteFrom("bookings").where("id", "=", booking.id).execute();
    await enqueueBookingMail(server.db, workspaceId, {
      bookingId: booking.id,
      event: "cancelled",
      origin: server.url,
      by: "operator",
    });
    await settle();
    expect(mailsTo(email)).toHaveLength(1);
  });
});

describe("reminders", () => {
  const reminders = (email: string) => mailsTo(email).filter((m) => m.text.includes("A reminder of your booking"));

  it("sends one reminder with two runners, even when its job was queued twice", async () => {
    at(NOW);
    const { slug, serviceSlug } = await business({ reminderHours: 24 });
    const { booking, email } = await book(slug, { service: serviceSlug, start: "2026-03-28T09:00:00Z" });
    await settle();
    const [job] = await server.db
      .selectFrom("jobs")
      .selectAll()
      .where("kind", "=", BOOKING_REMINDER_JOB)
      .where("payload", "like", `%"bookingId":"${booking.id}"%`)
      .execute();
    expect(job?.run_at).toBe("2026-03-27T09:00:00.000Z");
    // Delivery is at least once: a twin of the job from another change (its own mail key), so only the claim
    // on the booking stands between it and a second reminder.
    const twin = { ...(JSON.parse(job!.payload) as Record<string, unknown>), eventId: "TWIN-EVENT" };
    await server.db
      .insertInto("jobs")
      .values({ ...job!, id: `${job!.id.slice(0, -4)}TWIN`, payload: JSON.stringify(twin) })
      .execute();

    const second = await startServer({ ...FAST_JOBS, SMTP_URL: smtp.url }, server.database);
    try {
      at("2026-03-27T09:00:30.000Z");
      await settle([server, second]);
      expect(reminders(email)).toHaveLength(1);
      expect(reminders(email)[0]!.text).toContain("Saturday 28 March 2026, 05:00 (America/New_York) — 10:00 in Berlin");
      const done = await server.db
        .selectFrom("jobs")
        .select(["status", "locked_by"])
        .where("kind", "=", BOOKING_REMINDER_JOB)
        .where("payload", "like", `%"bookingId":"${booking.id}"%`)
        .execute();
      expect(done).toHaveLength(2);
      expect(done.every((j) => j.status !== "queued" && j.status !== "running")).toBe(true);
      const row = await server.db
        .selectFrom("bookings")
        .select("reminder_sent_at")
        .where("id", "=", booking.id)
        .executeTakeFirstOrThrow();
      expect(row.reminder_sent_at).toBe("2026-03-27T09:00:30.000Z");
    } finally {
      await second.atrium.close();
    }
  });

  it("leaves a moved booking's old reminder silent and sends the new one once", async () => {
    at(NOW);
    const { slug, serviceSlug } = await business({ reminderHours: 24 });
    const { booking, email } = await book(slug, { service: serviceSlug, start: "2026-03-28T09:00:00Z" });
    await settle();
    const moved = await new Client(server.url).postJson(
      `/api/v1/bookings/${booking.id}/reschedule`,
      { start: "2026-03-30T09:00:00Z" },
      { ...site(slug), "x-atrium-manage-token": booking.manageToken! },
    );
    expect(moved.status).toBe(200);
    await settle();
    const jobs = await server.db
      .selectFrom("jobs")
      .select(["run_at"])
      .where("kind", "=", BOOKING_REMINDER_JOB)
      .where("payload", "like", `%"bookingId":"${booking.id}"%`)
      .orderBy("run_at")
      .execute();
    expect(jobs.map((j) => j.run_at)).toEqual(["2026-03-27T09:00:00.000Z", "2026-03-29T09:00:00.000Z"]);

    // The old time's reminder comes due: the booking is no longer there, so nothing is sent.
    at("2026-03-27T09:01:00.000Z");
    await settle();
    expect(reminders(email)).toHaveLength(0);

    at("2026-03-29T09:01:00.000Z");
    await settle();
    expect(reminders(email)).toHaveLength(1);
    expect(reminders(email)[0]!.text).toContain("Monday 30 March 2026, 05:00 (America/New_York) — 11:00 in Berlin");
  });
});

describe("the staff feed", () => {
  it("lists the host's bookings without customers' addresses, and is a 404 once rotated or revoked", async () => {
    at(NOW);
    const { slug, workspaceId, serviceSlug, hostId } = await business();
    const { booking, email } = await book(slug, { service: serviceSlug, start: "2026-03-28T09:00:00Z" });
    const { booking: dropped } = await book(slug, { service: serviceSlug, start: "2026-03-28T11:00:00Z" });
    const cancelled = await new Client(server.url).postJson(
      `/api/v1/bookings/${dropped.id}/cancel`,
      {},
      { ...site(slug), "x-atrium-manage-token": dropped.manageToken! },
    );
    expect(cancelled.status).toBe(200);
    // Another business's booking, of another host, stays out.
    const other = await business();
    const { booking: theirs } = await book(other.slug, {
      service: other.serviceSlug,
      start: "2026-03-28T09:00:00Z",
    });

    const feeds = hostFeedsOf(server.db, workspaceId);
    const { secret, path } = await feeds.create(null, hostId);
    expect(path).toBe(`/api/bookings/feed/${secret}.ics`);
    const stored = await server.db
      .selectFrom("booking_hosts")
      .select("feed_token_hash")
      .where("id", "=", hostId)
      .executeTakeFirstOrThrow();
    expect(stored.feed_token_hash).not.toContain(secret);

    const res = await new Client(server.url).get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/calendar/);
    expect(res.headers.get("cache-control")).toMatch(/private/);
    const text = (await res.text()).replace(/\r\n[ \t]/g, "");
    expect(text).toContain(`UID:booking-${booking.id}@atrium`);
    expect(text).toContain("DTSTART:20260328T090000Z");
    expect(text).toContain("SUMMARY:Deep tissue massage: Ada Visitor");
    expect(text).not.toContain(dropped.id);
    expect(text).not.toContain(theirs.id);
    expect(text).not.toContain(email);
    expect(text).not.toContain("mailto:");

    // Another workspace cannot touch this host's feed.
    await expect(hostFeedsOf(server.db, other.workspaceId).revoke(null, hostId)).rejects.toThrow(/No such/);
    expect((await new Client(server.url).get(path)).status).toBe(200);

    const rotated = await feeds.rotate(null, hostId);
    expect((await new Client(server.url).get(path)).status).toBe(404);
    expect((await new Client(server.url).get(rotated.path)).status).toBe(200);
    await feeds.revoke(null, hostId);
    expect((await new Client(server.url).get(rotated.path)).status).toBe(404);
    expect((await new Client(server.url).get("/api/bookings/feed/not-a-secret.ics")).status).toBe(404);
  });
});

describe("the waiting list", () => {
  it("takes names for a full time only, once each, and offers a freed place to the first", async () => {
    at(NOW);
    const { slug, serviceSlug, serviceId } = await business();
    const { booking } = await book(slug, { service: serviceSlug, start: "2026-03-28T09:00:00Z" });
    await settle();
    const join = (body: Record<string, unknown>) =>
      new Client(server.url).postJson(
        "/api/v1/bookings/waitlist",
        { service: serviceSlug, name: "Wren Waiting", timeZone: "Europe/London", ...body },
        site(slug),
      );
    const first = uniqueEmail("first");
    const second = uniqueEmail("second");

    const free = await join({ start: "2026-03-28T10:00:00Z", email: first });
    expect(free.status).toBe(409);
    expect(((await free.json()) as { message: string }).message).toBe("That time is free: book it");
    const offGrid = await join({ start: "2026-03-28T09:30:00Z", email: first });
    expect(offGrid.status).toBe(400);
    expect((await join({ start: "2026-03-28T09:00:00Z", email: "nope" })).status).toBe(400);

    const joined = await join({ start: "2026-03-28T09:00:00Z", email: first });
    expect(joined.status).toBe(201);
    expect(await joined.json()).toMatchObject({ status: "waiting", start: "2026-03-28T09:00:00.000Z" });
    expect((await join({ start: "2026-03-28T09:00:00+00:00", email: first })).status).toBe(409);
    at("2026-03-25T08:00:01.000Z");
    expect((await join({ start: "2026-03-28T09:00:00Z", email: second, name: "Second" })).status).toBe(201);

    const cancelled = await new Client(server.url).postJson(
      `/api/v1/bookings/${booking.id}/cancel`,
      {},
      { ...site(slug), "x-atrium-manage-token": booking.manageToken! },
    );
    expect(cancelled.status).toBe(200);
    await settle();

    const [offer, ...others] = mailsTo(first);
    expect(others).toEqual([]);
    expect(offer!.text).toContain("A place has opened");
    expect(offer!.text).toContain("Saturday 28 March 2026, 09:00 (Europe/London) — 10:00 in Berlin");
    expect(linkIn(offer!.text, `/${slug}/bookings/`)).toBe(
      `/${slug}/bookings/${serviceSlug}?start=${encodeURIComponent("2026-03-28T09:00:00.000Z")}`,
    );
    expect(mailsTo(second)).toEqual([]);
    const list = await server.db
      .selectFrom("booking_waitlist")
      .select(["email", "status"])
      .where("service_id", "=", serviceId)
      .orderBy("created_at")
      .execute();
    expect(list).toEqual([
      { email: first, status: "offered" },
      { email: second, status: "waiting" },
    ]);
  });
});
