/**
 * The console's Scheduling pages (issue 19, ADR 036), through real HTTP on this dialect: an operator adds a staff
 * member and their hours through the availability form, imports public holidays after a preview, makes a
 * service through the services form (bad input refused beside its fields), sees bookings on the calendar — placed
 * by Berlin's wall clock in the week it springs forward — and in the list, approves and declines pending ones,
 * cancels one after the confirmation step, marks one a no-show once it has started and moves one; a viewer reads
 * but cannot change; another workspace's booking is a 404.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client, addMember, createWorkspace, signUp, uniqueEmail } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { setTestClock } from "~/lib/clock.server";
import { DEFAULT_PROFILE, profileInputOf, profileOf } from "~/modules/sites/profile.server";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ CUSTOMER_API_PER_ADDRESS_PER_MINUTE: "5000" });
});
afterAll(() => server.close());
afterEach(() => setTestClock(undefined));

/** Wednesday 25 March 2026, 08:00 UTC: Berlin moves its clocks forward on Sunday the 29th. */
const NOW = "2026-03-25T08:00:00.000Z";
const at = (iso: string) => setTestClock(() => new Date(iso));

const ALL_WEEK = Object.fromEntries(
  [1, 2, 3, 4, 5, 6, 7].flatMap((d) => [
    [`w.${d}.0.start`, "09:00"],
    [`w.${d}.0.end`, "17:00"],
  ]),
);

let shops = 0;
async function business() {
  shops += 1;
  const slug = `sched-${process.pid}-${shops}`;
  const { client: owner } = await signUp(server.url);
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
  return { owner, slug, workspaceId };
}

async function addHost(owner: Client, name = "Mia"): Promise<string> {
  const res = await owner.post("/scheduling/availability", {
    intent: "save",
    hostId: "",
    name,
    kind: "staff",
    userId: "",
    timeZone: "Europe/Berlin",
    ...ALL_WEEK,
  });
  expect(res.status).toBe(303);
  const id = new URL(res.headers.get("location")!, server.url).searchParams.get("host");
  expect(id).toBeTruthy();
  return id!;
}

async function addService(owner: Client, hostId: string, fields: Record<string, string> = {}) {
  const res = await owner.post("/scheduling/services/new", {
    intent: "save",
    name: "Deep tissue massage",
    durationMinutes: "60",
    price: "80.00",
    deposit: "",
    locationKind: "in_person",
    locationDetail: "Torstraße 1, Berlin",
    status: "active",
    "q.0.label": "Anything we should know?",
    [`host.${hostId}`]: "on",
    ...fields,
  });
  expect(res.status).toBe(303);
  const id = /\/scheduling\/services\/([^?]+)\?saved=created/.exec(res.headers.get("location") ?? "")?.[1];
  expect(id).toBeTruthy();
  const { slug } = await server.db
    .selectFrom("booking_services")
    .select("slug")
    .where("id", "=", id!)
    .executeTakeFirstOrThrow();
  return { id: id!, slug };
}

async function book(siteSlug: string, service: string, start: string, name = "Ada Visitor") {
  const res = await new Client(server.url).postJson(
    "/api/v1/bookings",
    { service, start, name, email: uniqueEmail("visitor"), timeZone: "Europe/Berlin" },
    { "x-atrium-site": siteSlug },
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** A page's HTML without React's text separators, so a sentence built of parts reads as one. */
const textOf = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "");

const statusOf = async (id: string) =>
  (await server.db.selectFrom("bookings").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;

const mailJobs = async (workspaceId: string) =>
  (
    await server.db
      .selectFrom("jobs")
      .select("payload")
      .where("workspace_id", "=", workspaceId)
      .where("kind", "=", "scheduling.booking-mail")
      .execute()
  ).map((j) => JSON.parse(j.payload) as { bookingId: string; event: string; by: string });

/** The calendar row (`<tr data-time="09:00">…</tr>`) that holds a booking's block. */
function rowOfBooking(html: string, bookingId: string): string | undefined {
  for (const row of html.split("<tr").slice(1)) {
    if (row.includes(`data-booking="${bookingId}"`)) return /data-time="([\d:]+)"/.exec(row)?.[1];
  }
  return undefined;
}

describe("setting up scheduling in the console", () => {
  it("walks through the setup, adds a host and holidays, and refuses bad service input beside its fields", async () => {
    at(NOW);
    const { owner } = await business();

    const empty = await textOf(await owner.get("/scheduling"));
    expect(empty).toContain("Ready to take bookings: 0 of 2");
    expect(empty).toContain("Add who is booked");
    expect(await textOf(await owner.get("/scheduling/services"))).toContain("First, add who is booked");

    // Half a range, and a range ending before it starts, are refused beside their fields; nothing is written.
    const bad = await owner.post("/scheduling/availability", {
      intent: "save",
      hostId: "",
      name: "Mia",
      kind: "staff",
      timeZone: "Europe/Berlin",
      "w.1.0.start": "09:00",
      "w.1.0.end": "08:00",
      "w.2.0.start": "09:00",
    });
    expect(bad.status).toBe(400);
    const badHtml = await textOf(bad);
    expect(badHtml).toContain("End after the start");
    expect(badHtml).toContain("Enter an end time");
    const badZone = await owner.post("/scheduling/availability", {
      intent: "save",
      hostId: "",
      name: "",
      timeZone: "Mars/Olympus",
      ...ALL_WEEK,
    });
    expect(badZone.status).toBe(400);
    const badZoneHtml = await textOf(badZone);
    expect(badZoneHtml).toContain("Use an IANA time zone");
    expect(badZoneHtml).toContain("Give them a name");

    const hostId = await addHost(owner);
    const page = await textOf(await owner.get(`/scheduling/availability?host=${hostId}`));
    expect(page).toContain("Mon–Sun 09:00–17:00");
    expect(page).toContain('value="Europe/Berlin" selected=""');

    // A closed day and a day of special hours; then one removed.
    expect(
      (
        await owner.post("/scheduling/availability", {
          intent: "add-exception",
          hostId,
          date: "2026-04-20",
          exceptionKind: "hours",
          start: "10:00",
          end: "14:00",
          label: "Short day",
        })
      ).status,
    ).toBe(303);
    const missingTimes = await owner.post("/scheduling/availability", {
      intent: "add-exception",
      hostId,
      date: "2026-04-21",
      exceptionKind: "hours",
    });
    expect(missingTimes.status).toBe(400);
    expect(await textOf(missingTimes)).toContain("Enter the opening time");

    // Holidays: previewed first (nothing written), then added as closed days.
    const preview = await owner.post("/scheduling/availability", {
      intent: "preview-holidays",
      hostId,
      country: "DE",
      year: "2026",
    });
    expect(preview.status).toBe(200);
    const previewHtml = await textOf(preview);
    expect(previewHtml).toContain("Good Friday");
    expect(previewHtml).toContain("2026-04-03");
    expect(previewHtml).toMatch(/Add 9 closed days for Mia/);
    const before = await server.db
      .selectFrom("booking_hosts")
      .select("overrides")
      .where("id", "=", hostId)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(before.overrides)).toHaveLength(1);
    const imported = await owner.post("/scheduling/availability", {
      intent: "import-holidays",
      hostId,
      country: "DE",
      year: "2026",
    });
    expect(imported.status).toBe(303);
    expect(imported.headers.get("location")).toContain("n=9");
    const after = JSON.parse(
      (
        await server.db
          .selectFrom("booking_hosts")
          .select("overrides")
          .where("id", "=", hostId)
          .executeTakeFirstOrThrow()
      ).overrides,
    ) as { date: string; ranges: unknown[]; label: string }[];
    expect(after).toHaveLength(10);
    expect(after.find((o) => o.date === "2026-04-03")).toMatchObject({ ranges: [], label: "Good Friday" });
    expect(after.find((o) => o.date === "2026-04-20")).toMatchObject({ ranges: [{ start: "10:00", end: "14:00" }] });
    const unknownCountry = await owner.post("/scheduling/availability", {
      intent: "preview-holidays",
      hostId,
      country: "XX",
      year: "2026",
    });
    expect(unknownCountry.status).toBe(400);
    expect(await textOf(unknownCountry)).toContain("Choose a country from the list");
    expect(
      (await owner.post("/scheduling/availability", { intent: "remove-exception", hostId, date: "2026-04-20" })).status,
    ).toBe(303);

    // The staff calendar feed: its address shown once, then revoked.
    const feed = await owner.post("/scheduling/availability", { intent: "feed", hostId });
    expect(feed.status).toBe(200);
    const feedUrl = /(http:\/\/[^<"\s]+\/api\/bookings\/feed\/[\w-]+\.ics)/.exec(await textOf(feed))?.[1];
    expect(feedUrl).toBeTruthy();
    expect((await new Client(server.url).get(new URL(feedUrl!).pathname)).status).toBe(200);
    expect((await owner.post("/scheduling/availability", { intent: "feed-revoke", hostId })).status).toBe(303);
    expect((await new Client(server.url).get(new URL(feedUrl!).pathname)).status).toBe(404);

    // The service form: every refusal beside its field, the draft kept.
    const invalid = await owner.post("/scheduling/services/new", {
      intent: "save",
      name: "",
      durationMinutes: "3",
      price: "abc",
      capacity: "0",
      status: "active",
    });
    expect(invalid.status).toBe(400);
    const invalidHtml = await textOf(invalid);
    expect(invalidHtml).toContain("Enter an amount in EUR");
    const typed = await owner.post("/scheduling/services/new", {
      intent: "save",
      name: "",
      durationMinutes: "3",
      price: "50",
      deposit: "60",
      capacity: "0",
      description: "Kept after the refusal",
      status: "active",
    });
    expect(typed.status).toBe(400);
    const typedHtml = await textOf(typed);
    for (const message of [
      "Give the service a name",
      "At least 5 minutes",
      "At least 1 place",
      "The deposit cannot be more than the price",
      "Choose who delivers it",
    ]) {
      expect(typedHtml).toContain(message);
    }
    expect(typedHtml).toContain("Kept after the refusal");
    expect(typedHtml).toContain('aria-invalid="true"');

    const service = await addService(owner, hostId);
    const saved = await textOf(await owner.get(`/scheduling/services/${service.id}?saved=created`));
    expect(saved).toContain("Service created");
    expect(saved).toContain('value="Anything we should know?"');
    const list = await textOf(await owner.get("/scheduling/services"));
    expect(list).toContain("Deep tissue massage");
    expect(list).toContain("€80.00");
    expect(list).toContain("1 hour");

    // An edit keeps the question's id (answers are stored under it).
    const question = await server.db
      .selectFrom("booking_services")
      .select("questions")
      .where("id", "=", service.id)
      .executeTakeFirstOrThrow();
    const qid = (JSON.parse(question.questions) as { id: string }[])[0]!.id;
    const edited = await owner.post(`/scheduling/services/${service.id}`, {
      intent: "save",
      name: "Deep tissue massage",
      durationMinutes: "90",
      price: "95",
      status: "active",
      "q.0.id": qid,
      "q.0.label": "Anything we should know before?",
      "q.0.required": "on",
      [`host.${hostId}`]: "on",
    });
    expect(edited.status).toBe(303);
    const row = await server.db
      .selectFrom("booking_services")
      .select(["duration_minutes", "price", "questions"])
      .where("id", "=", service.id)
      .executeTakeFirstOrThrow();
    expect(row.duration_minutes).toBe(90);
    expect(row.price).toBe(9500);
    expect(JSON.parse(row.questions)).toEqual([
      { id: qid, label: "Anything we should know before?", required: true, long: false },
    ]);

    const ready = await textOf(await owner.get("/scheduling"));
    expect(ready).not.toContain("Ready to take bookings");
  });
});

describe("bookings in the console", () => {
  it("places bookings by Berlin's wall clock across the change, lists them, and approves, cancels and marks them", async () => {
    at(NOW);
    const { owner, slug, workspaceId } = await business();
    const hostId = await addHost(owner, "Mia");
    const massage = await addService(owner, hostId);
    const consult = await addService(owner, hostId, {
      name: "Consultation",
      durationMinutes: "30",
      price: "0",
      requiresApproval: "on",
      "q.0.label": "",
    });

    // Sunday the 29th is on CEST (UTC+2): 07:00Z is 09:00 there. Friday the 27th is on CET: 09:00Z is 10:00.
    const sunday = await book(slug, massage.slug, "2026-03-29T07:00:00Z", "Sunday Person");
    const pending = await book(slug, consult.slug, "2026-03-27T09:00:00Z", "Pending Person");
    const thursday = await book(slug, massage.slug, "2026-03-26T09:00:00Z", "Thursday Person");
    expect(await statusOf(pending)).toBe("pending");

    const week = await textOf(await owner.get("/scheduling?view=week&date=2026-03-29"));
    expect(week).toContain("23 – 29 March 2026");
    expect(week).toContain("Clocks go forward at 02:00 to 03:00: a 23-hour day");
    expect(rowOfBooking(week, sunday)).toBe("09:00");
    expect(rowOfBooking(week, pending)).toBe("10:00");
    expect(rowOfBooking(week, thursday)).toBe("10:00");
    expect(week).toMatch(/class="cal-block cal-block--pending[ "]/);
    expect(week).toContain("09:00–10:00");

    const day = await textOf(await owner.get("/scheduling?view=day&date=2026-03-29"));
    expect(day).toMatch(/Sunday,? 29 March 2026/);
    expect(rowOfBooking(day, sunday)).toBe("09:00");
    expect(rowOfBooking(day, pending)).toBeUndefined();
    expect(day).toMatch(/<th[^>]*scope="col"[^>]*>.*Mia/);
    // The pending one waits at the top of the calendar.
    expect(day).toContain("Waiting for your approval");
    expect(day).toContain("Pending Person");

    const list = await textOf(await owner.get("/scheduling/bookings"));
    expect(list).toContain("Sunday Person");
    expect(list).toContain("Pending Person");
    expect(list).toContain("3 bookings");
    const onlyPending = await textOf(await owner.get("/scheduling/bookings?filter=pending"));
    expect(onlyPending).toContain("Pending Person");
    expect(onlyPending).not.toContain("Sunday Person");
    const searched = await textOf(await owner.get("/scheduling/bookings?filter=upcoming&q=sunday"));
    expect(searched).toContain("Sunday Person");
    expect(searched).not.toContain("Thursday Person");

    // Approve: confirmed, and the booker's confirmation queued in the same transaction.
    const approved = await owner.post(`/scheduling/bookings/${pending}`, { intent: "approve" });
    expect(approved.status).toBe(303);
    expect(await statusOf(pending)).toBe("confirmed");
    expect(await mailJobs(workspaceId)).toContainEqual(
      expect.objectContaining({ bookingId: pending, event: "confirmed", by: "operator" }),
    );
    const again = await owner.post(`/scheduling/bookings/${pending}`, { intent: "approve" });
    expect(again.status).toBe(409);
    expect(await textOf(again)).toContain("not waiting for approval");

    // Decline another pending one, after its confirmation step.
    const second = await book(slug, consult.slug, "2026-03-27T12:00:00Z", "Second Pending");
    expect(await textOf(await owner.get(`/scheduling/bookings/${second}?decline=1`))).toContain(
      "Decline this booking?",
    );
    expect(
      (await owner.post(`/scheduling/bookings/${second}`, { intent: "decline", reason: "Fully booked" })).status,
    ).toBe(303);
    expect(await statusOf(second)).toBe("cancelled");
    expect(await mailJobs(workspaceId)).toContainEqual(
      expect.objectContaining({ bookingId: second, event: "declined" }),
    );

    // Cancel: the page asks first; the reason is kept and sent.
    const detail = await textOf(await owner.get(`/scheduling/bookings/${sunday}`));
    expect(detail).toContain("Cancel booking…");
    expect(detail).not.toContain("Yes, cancel the booking");
    const asking = await textOf(await owner.get(`/scheduling/bookings/${sunday}?cancel=1`));
    expect(asking).toContain("Cancel this booking?");
    expect(asking).toContain("Yes, cancel the booking");
    const cancelled = await owner.post(`/scheduling/bookings/${sunday}`, { intent: "cancel", reason: "Therapist ill" });
    expect(cancelled.status).toBe(303);
    const row = await server.db
      .selectFrom("bookings")
      .select(["status", "cancel_reason", "cancelled_by"])
      .where("id", "=", sunday)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "cancelled", cancel_reason: "Therapist ill", cancelled_by: "operator" });
    const struck = await textOf(await owner.get("/scheduling?view=day&date=2026-03-29"));
    expect(struck).toContain("cal-block--cancelled");
    expect(await textOf(await owner.get("/scheduling/bookings?filter=cancelled"))).toContain("Sunday Person");

    // No-show only once it has started.
    const early = await owner.post(`/scheduling/bookings/${thursday}`, { intent: "no-show" });
    expect(early.status).toBe(409);
    expect(await textOf(early)).toContain("has not started yet");
    at("2026-03-26T09:20:00.000Z");
    expect((await owner.post(`/scheduling/bookings/${thursday}`, { intent: "no-show" })).status).toBe(303);
    expect(await statusOf(thursday)).toBe("no_show");
    const history = await textOf(await owner.get(`/scheduling/bookings/${thursday}`));
    expect(history).toContain("Marked a no-show");
    expect(history).toContain("Booked");
    expect(history).toContain("No-show");

    // Move the approved consultation to another free time of that day.
    const moveDay = await textOf(await owner.get(`/scheduling/bookings/${pending}?move=2026-03-27`));
    expect(moveDay).toContain('value="2026-03-27T14:00:00Z"');
    const moved = await owner.post(`/scheduling/bookings/${pending}`, {
      intent: "reschedule",
      start: "2026-03-27T14:00:00Z",
    });
    expect(moved.status).toBe(303);
    const movedRow = await server.db
      .selectFrom("bookings")
      .select("start_at")
      .where("id", "=", pending)
      .executeTakeFirstOrThrow();
    expect(movedRow.start_at).toBe("2026-03-27T14:00:00.000Z");
    expect(await textOf(await owner.get(`/scheduling/bookings/${pending}`))).toContain("Moved");
  });

  it("lets a viewer read everything and change nothing, and hides another workspace's booking", async () => {
    at(NOW);
    const { owner, slug } = await business();
    const hostId = await addHost(owner);
    const service = await addService(owner, hostId, { requiresApproval: "on" });
    const id = await book(slug, service.slug, "2026-03-27T09:00:00Z", "Viewer Sees");

    const viewer = await signUp(server.url);
    await addMember(server.url, owner, viewer, "viewer");
    const calendar = await textOf(await viewer.client.get("/scheduling?view=week&date=2026-03-27"));
    expect(calendar).toContain("Viewer Sees");
    expect(calendar).not.toContain("Approve");
    const detail = await textOf(await viewer.client.get(`/scheduling/bookings/${id}`));
    expect(detail).toContain("Viewer Sees");
    expect(detail).not.toContain("Approve booking");
    expect(detail).not.toContain("Cancel booking…");
    const hours = await textOf(await viewer.client.get("/scheduling/availability"));
    expect(hours).not.toContain("Save hours");
    expect((await viewer.client.get(`/scheduling/services/${service.id}`)).status).toBe(200);

    for (const [path, fields] of [
      [`/scheduling/bookings/${id}`, { intent: "approve" }],
      [`/scheduling/bookings/${id}`, { intent: "cancel" }],
      ["/scheduling/availability", { intent: "save", name: "Sneaky", timeZone: "UTC" }],
      ["/scheduling/services/new", { intent: "save", name: "Sneaky" }],
    ] as const) {
      const res = await viewer.client.post(path, fields);
      expect(res.status, path).toBe(403);
    }
    expect(await statusOf(id)).toBe("pending");

    const stranger = await business();
    const theirs = await stranger.owner.get(`/scheduling/bookings/${id}`);
    expect(theirs.status).toBe(404);
    // Said inside the console's shell, with the way back.
    const said = await theirs.text();
    expect(said).toContain("Booking not found");
    expect(said).toContain('aria-label="Console"');
    expect(said).toContain("Back to bookings");
    expect((await stranger.owner.post(`/scheduling/bookings/${id}`, { intent: "approve" })).status).toBe(404);
    expect((await stranger.owner.get(`/scheduling/services/${service.id}`)).status).toBe(404);
    expect((await stranger.owner.get(`/scheduling/availability?host=${hostId}`)).status).toBe(200);
    expect(await textOf(await stranger.owner.get(`/scheduling/availability?host=${hostId}`))).toContain(
      "Who is booked?",
    );
    expect(
      (
        await stranger.owner.post("/scheduling/availability", {
          intent: "remove-exception",
          hostId,
          date: "2026-04-03",
        })
      ).status,
    ).toBe(404);
    expect(await statusOf(id)).toBe("pending");
  });
});
