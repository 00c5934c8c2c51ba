/**
 * The public booking pages and the portal's bookings (issue 19, ADR 036), through real HTTP without JavaScript:
 * the services list (and its empty state), the picker's week and times in the visitor's zone across Berlin's
 * daylight-saving change, booking by form post, the confirmation, a taken time answered with the next free ones,
 * field errors beside the fields, a deposit's hold, the portal's list with its confirm-then-cancel, moving a
 * booking, a guest seeing only their own, and the picker's CSP (its own script file, no nonce, nothing inline).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client, createWorkspace, signUp, uniqueEmail } from "../helpers/client";
import { signInCustomer } from "../helpers/customers";
import { startServer, type TestServer } from "../helpers/server";
import { setTestClock } from "~/lib/clock.server";
import { DEFAULT_PROFILE, profileInputOf, profileOf } from "~/modules/sites/profile.server";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ CUSTOMER_CODES_PER_EMAIL_PER_HOUR: "50", CUSTOMER_CODES_PER_ADDRESS_PER_HOUR: "1000" });
});
afterAll(() => server.close());
afterEach(() => setTestClock(undefined));

/** Wednesday 25 March 2026, 08:00 UTC: Berlin moves its clocks forward on Sunday the 29th. */
const NOW = "2026-03-25T08:00:00.000Z";
const at = (iso: string) => setTestClock(() => new Date(iso));

let shops = 0;
/** A business in Berlin, its own workspace: one staff member 09:00–17:00 every day, and a 60-minute massage. */
async function business(service: Record<string, unknown> = {}, withService = true, on = server) {
  shops += 1;
  const slug = `bookpage-${process.pid}-${shops}`;
  const { client: owner } = await signUp(on.url);
  await createWorkspace(owner, `Studio ${shops}`, slug);
  const { id: workspaceId } = await on.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
  await profileOf(on.db, workspaceId).save(null, {
    ...profileInputOf(DEFAULT_PROFILE),
    timeZone: "Europe/Berlin",
    currency: "EUR",
  });
  if (!withService) return { slug, workspaceId, serviceSlug: "" };
  const weekly = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: "09:00", end: "17:00" }));
  const host = await owner.postJson("/api/editor/bookings/services/availability", {
    name: "Mia",
    timeZone: "Europe/Berlin",
    weekly,
  });
  expect(host.status).toBe(201);
  const created = await owner.postJson("/api/editor/bookings/services", {
    name: "Deep tissue massage",
    description: "An hour that works out the knots.",
    durationMinutes: 60,
    price: 8000,
    locationKind: "in_person",
    locationDetail: "Torstraße 1, Berlin",
    questions: [{ id: "focus", label: "Anything we should know?", required: false }],
    hostIds: [((await host.json()) as { id: string }).id],
    ...service,
  });
  expect(created.status).toBe(201);
  const { slug: serviceSlug } = (await created.json()) as { slug: string };
  return { slug, workspaceId, serviceSlug };
}

/** The page's text as a reader sees it: entities decoded, React's text-boundary comments gone. */
const decode = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<");

/** The time buttons of a picker page: label and the `start` each selects. */
function timesIn(html: string): { label: string; start: string }[] {
  return [...html.matchAll(/<a href="([^"]+)" class="booking-time[^"]*"[^>]*>([^<]+)/g)].map((m) => ({
    label: m[2]!,
    start: new URL(decode(m[1]!), "http://x").searchParams.get("start")!,
  }));
}

/** The picker's form post of one start, as the page's form sends it. */
function bookForm(start: string, timeZone: string, fields: Record<string, string> = {}) {
  return {
    intent: "book",
    start,
    timeZone,
    name: "Ada Visitor",
    email: uniqueEmail("visitor"),
    phone: "",
    "answers.focus": "Shoulders",
    ...fields,
  };
}

const pickerPath = (slug: string, service: string, query: Record<string, string>) =>
  `/${slug}/bookings/${service}?${new URLSearchParams(query)}`;

describe("the services list", () => {
  it("lists each active service with its facts and a link to choose a time; an empty state without any", async () => {
    at("2026-03-25T07:30:00.000Z");
    const { slug, serviceSlug, workspaceId } = await business({ deposit: 2000 });
    const res = await new Client(server.url).get(`/${slug}/bookings`);
    expect(res.status).toBe(200);
    const html = decode(await res.text());
    expect(html).toContain("Deep tissue massage");
    expect(html).toContain("1 hour");
    expect(html).toContain("€80.00");
    expect(html).toContain("Deposit €20.00 when booking");
    expect(html).toContain("In person: Torstraße 1, Berlin");
    expect(html).toContain("An hour that works out the knots.");
    // 08:30 in Berlin: today's 09:00 is the first free time.
    expect(/Next free: <strong>([^<]+)/.exec(html)?.[1]).toBe("Wednesday 25 March 2026, 09:00");
    expect(html).toContain(`href="/${slug}/bookings/${serviceSlug}"`);
    expect(html).toMatch(/Choose a time/);
    expect(
      await server.db.selectFrom("bookings").selectAll().where("workspace_id", "=", workspaceId).execute(),
    ).toEqual([]);

    const empty = await business({}, false);
    const none = await new Client(server.url).get(`/${empty.slug}/bookings`);
    expect(none.status).toBe(200);
    expect(await none.text()).toContain("has nothing to book online yet");
  });
});

describe("the picker, without JavaScript", () => {
  it("shows the week and the day's times in the zone asked for, across Berlin's spring-forward", async () => {
    at(NOW);
    const { slug, serviceSlug } = await business();
    const client = new Client(server.url);

    // In Berlin's own zone (named on the page), 09:00–16:00 starts on both sides of the change.
    const berlin = await client.get(pickerPath(slug, serviceSlug, { date: "2026-03-29" }));
    expect(berlin.status).toBe(200);
    const berlinHtml = decode(await berlin.text());
    expect(berlinHtml).toMatch(/Times in <strong>Europe\/Berlin<\/strong>/);
    expect(timesIn(berlinHtml).map((t) => t.label)).toEqual(
      ["09", "10", "11", "12", "13", "14", "15", "16"].map((h) => `${h}:00`),
    );
    // Sunday the 29th is CEST (UTC+2): 09:00 is 07:00Z.
    expect(timesIn(berlinHtml)[0]!.start).toBe("2026-03-29T07:00:00Z");
    // The week, Monday first: Monday and Tuesday have passed, the rest are links to their day.
    expect(berlinHtml).toContain("23 Mar – 29 Mar");
    expect(berlinHtml).toContain('<span class="visually-hidden">Monday 23 March 2026: past</span>');
    expect(berlinHtml).toContain(`href="/${slug}/bookings/${serviceSlug}?date=2026-03-28&tz=Europe%2FBerlin"`);

    // A New York visitor (EDT, UTC−4): Saturday (Berlin on CET) starts at 04:00, Sunday (CEST) at 03:00.
    const saturday = decode(
      await (await client.get(pickerPath(slug, serviceSlug, { date: "2026-03-28", tz: "America/New_York" }))).text(),
    );
    expect(saturday).toMatch(/Times in <strong>America\/New_York<\/strong>/);
    expect(timesIn(saturday).map((t) => t.label)).toEqual(
      ["04", "05", "06", "07", "08", "09", "10", "11"].map((h) => `${h}:00`),
    );
    expect(timesIn(saturday)[0]!.start).toBe("2026-03-28T08:00:00Z");
    const sunday = decode(
      await (await client.get(pickerPath(slug, serviceSlug, { date: "2026-03-29", tz: "America/New_York" }))).text(),
    );
    expect(timesIn(sunday).map((t) => t.label)).toEqual(
      ["03", "04", "05", "06", "07", "08", "09", "10"].map((h) => `${h}:00`),
    );
    // "Show times in": a GET form with the zone chosen.
    expect(sunday).toMatch(/<select id="booking-tz" name="tz"/);
    expect(sunday).toContain('<option value="America/New_York" selected="">');

    // Choosing a time opens the details form with it, and the summary names it.
    const chosen = decode(
      await (
        await client.get(
          pickerPath(slug, serviceSlug, { date: "2026-03-29", tz: "America/New_York", start: "2026-03-29T07:00:00Z" }),
        )
      ).text(),
    );
    expect(chosen).toContain("Sunday 29 March 2026, 03:00–04:00");
    expect(chosen).toMatch(/<form method="post"[^>]*id="details"/);
    expect(chosen).toContain('name="answers.focus"');
    expect(chosen).toContain("Anything we should know? (optional)");

    // Bad input is never a 500: a date not in the calendar or an unknown zone reads as none given; no service, a 404.
    const odd = await client.get(pickerPath(slug, serviceSlug, { date: "2026-02-30", tz: "Mars/Olympus", start: "x" }));
    expect(odd.status).toBe(200);
    expect(decode(await odd.text())).toMatch(/Times in <strong>Europe\/Berlin<\/strong>/);
    expect((await client.get(`/${slug}/bookings/no-such-service`)).status).toBe(404);
  });

  it("sends its own script file under a CSP without a nonce, with no inline script, and stays cacheable", async () => {
    at(NOW);
    const { slug, serviceSlug, workspaceId } = await business();
    const res = await new Client(server.url).get(pickerPath(slug, serviceSlug, { date: "2026-03-28" }));
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toMatch(/nonce-/);
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
    const files = scripts.filter((a) => /\bsrc=/.test(a));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/src="\/assets\/booking-picker-[\w-]+\.js"/);
    // Anything else inline is a JSON-LD data block, which never runs.
    for (const attributes of scripts.filter((a) => !/\bsrc=/.test(a))) expect(attributes).toMatch(/ld\+json/);
    expect(html).not.toMatch(/nonce=/);
    expect(
      await server.db.selectFrom("bookings").selectAll().where("workspace_id", "=", workspaceId).execute(),
    ).toEqual([]);
    // The script is fingerprinted, so it is kept a year.
    const src = /src="(\/assets\/booking-picker-[\w-]+\.js)"/.exec(html)![1]!;
    const script = await new Client(server.url).get(src);
    expect(script.status).toBe(200);
    expect(script.headers.get("cache-control")).toMatch(/max-age=31536000/);
    expect(await script.text()).toContain("resolvedOptions().timeZone");
    // A page without it still refuses every script.
    const contact = await new Client(server.url).get(`/${slug}/policies`);
    expect(contact.headers.get("content-security-policy")).toMatch(/script-src 'none'/);
  });
});

describe("booking by form", () => {
  it("books a New York visitor's Sunday 03:00, shows the confirmation, and offers the next times to the next one", async () => {
    at(NOW);
    const { slug, serviceSlug, workspaceId } = await business();
    const path = pickerPath(slug, serviceSlug, {
      date: "2026-03-29",
      tz: "America/New_York",
      start: "2026-03-29T07:00:00Z",
    });
    const ada = new Client(server.url);
    const made = await ada.post(path, bookForm("2026-03-29T07:00:00Z", "America/New_York"));
    expect(made.status).toBe(303);
    const location = made.headers.get("location")!;
    expect(location).toMatch(new RegExp(`^/${slug}/bookings/${serviceSlug}/confirmed\\?booking=\\w+$`));
    const row = await server.db
      .selectFrom("bookings")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: "confirmed",
      start_at: "2026-03-29T07:00:00.000Z",
      visitor_time_zone: "America/New_York",
      source: "site",
      customer_id: null,
    });
    expect(JSON.parse(row.answers)).toEqual({ focus: "Shoulders" });

    const confirmed = await ada.get(location);
    expect(confirmed.status).toBe(200);
    expect(confirmed.headers.get("cache-control")).toBe("private, no-store");
    const html = decode(await confirmed.text());
    expect(html).toContain("You're booked");
    expect(html).toContain("Sunday 29 March 2026, 03:00–04:00");
    expect(html).toContain("America/New_York");
    expect(html).toContain("Sunday 29 March 2026, 09:00 (Europe/Berlin)");
    expect(html).toContain("In person: Torstraße 1, Berlin");
    expect(html).toContain("https://calendar.google.com/calendar/render?action=TEMPLATE");
    expect(html).toContain("dates=20260329T070000Z%2F20260329T080000Z");
    expect(html).toContain("https://outlook.live.com/calendar/0/deeplink/compose?");
    // Someone without the booking's cookie cannot open it.
    expect((await new Client(server.url).get(location)).status).toBe(404);

    // The same time, a moment later: taken. The form comes back with the visitor's details and the next times.
    const bea = new Client(server.url);
    const taken = await bea.post(path, bookForm("2026-03-29T07:00:00Z", "America/New_York", { name: "Bea Late" }));
    expect(taken.status).toBe(409);
    const again = decode(await taken.text());
    expect(again).toContain("That time was just taken: choose another");
    expect(again).toContain('value="Bea Late"');
    const offered = [...again.matchAll(/<input type="radio"[^>]*value="([^"]+)"/g)].map((m) => m[1]);
    expect(offered).toEqual(["2026-03-29T08:00:00Z", "2026-03-29T09:00:00Z", "2026-03-29T10:00:00Z"]);
    expect(again).toContain("Sunday 29 March 2026, 04:00");
    const second = await bea.post(path, bookForm(offered[0]!, "America/New_York", { name: "Bea Late" }));
    expect(second.status).toBe(303);
  });

  it("shows field errors beside the fields, and a required question's", async () => {
    at(NOW);
    const { slug, serviceSlug, workspaceId } = await business({
      questions: [{ id: "allergies", label: "Any allergies?", required: true }],
    });
    const path = pickerPath(slug, serviceSlug, { date: "2026-03-28", start: "2026-03-28T08:00:00Z" });
    const bad = await new Client(server.url).post(
      path,
      bookForm("2026-03-28T08:00:00Z", "Europe/Berlin", { email: "not an address", "answers.focus": "" }),
    );
    expect(bad.status).toBe(400);
    const html = decode(await bad.text());
    expect(html).toMatch(/aria-invalid="true"[^>]*>?[\s\S]{0,400}Enter an e-mail address/);
    expect(html).toContain('value="not an address"');

    const unanswered = await new Client(server.url).post(path, bookForm("2026-03-28T08:00:00Z", "Europe/Berlin"));
    expect(unanswered.status).toBe(400);
    expect(decode(await unanswered.text())).toContain("Any allergies?: please answer");
    expect(
      await server.db.selectFrom("bookings").where("workspace_id", "=", workspaceId).selectAll().execute(),
    ).toEqual([]);
  });

  it("states the deposit and its hold, and the confirmation asks for it by the hold's end", async () => {
    at(NOW);
    const { slug, serviceSlug } = await business({ deposit: 2000 });
    const path = pickerPath(slug, serviceSlug, { date: "2026-03-28", start: "2026-03-28T08:00:00Z" });
    const guest = new Client(server.url);
    const form = decode(await (await guest.get(path)).text());
    expect(form).toContain("A deposit of <strong>€20.00</strong> is taken to hold your time; it is held for 5 minutes");
    const made = await guest.post(path, bookForm("2026-03-28T08:00:00Z", "Europe/Berlin"));
    expect(made.status).toBe(303);
    const page = decode(await (await guest.get(made.headers.get("location")!)).text());
    expect(page).toContain("Your time is held");
    // Held five minutes from 09:00 Berlin time.
    expect(page).toMatch(/Pay the deposit of <strong>€20.00<\/strong> by <strong>09:05<\/strong>/);
    expect(page).toContain('name="intent" value="pay"');
    // "Pay deposit" opens the provider's page through scheduling's payments; with none connected it says so.
    const pay = await guest.post(made.headers.get("location")!, { intent: "pay" });
    expect(pay.status).toBe(409);
    expect(decode(await pay.text())).toContain("This business cannot take card payments yet");
    // Someone else cannot pay (or see) it.
    expect((await new Client(server.url).post(made.headers.get("location")!, { intent: "pay" })).status).toBe(404);
  });
});

describe("the portal's bookings", () => {
  it("shows a guest their booking alone, confirms before cancelling, and cancels it", async () => {
    at(NOW);
    const { slug, serviceSlug } = await business();
    const ada = new Client(server.url);
    const path = pickerPath(slug, serviceSlug, { date: "2026-03-28", start: "2026-03-28T08:00:00Z" });
    const made = await ada.post(path, bookForm("2026-03-28T08:00:00Z", "Europe/Berlin"));
    const adaId = new URL(made.headers.get("location")!, server.url).searchParams.get("booking")!;
    const bea = new Client(server.url);
    const other = await bea.post(path, bookForm("2026-03-28T09:00:00Z", "Europe/Berlin"));
    const beaId = new URL(other.headers.get("location")!, server.url).searchParams.get("booking")!;

    const list = await ada.get(`/${slug}/account/my-bookings`);
    expect(list.status).toBe(200);
    expect(list.headers.get("cache-control")).toBe("private, no-store");
    const html = decode(await list.text());
    expect(html).toContain("Saturday 28 March 2026, 09:00–10:00");
    expect(html).toContain("Confirmed");
    expect(html).not.toContain("10:00–11:00");
    expect(html).toContain(`reschedule=${adaId}`);

    // The confirm step, then the cancel.
    const confirm = decode(await (await ada.get(`/${slug}/account/my-bookings?cancel=${adaId}`)).text());
    expect(confirm).toContain("Cancel this booking?");
    expect(confirm).toContain("Yes, cancel it");
    // Another guest's booking is not theirs to cancel.
    const stranger = await ada.post(`/${slug}/account/my-bookings`, { intent: "cancel", booking: beaId });
    expect(stranger.status).toBe(404);
    const cancelled = await ada.post(`/${slug}/account/my-bookings`, {
      intent: "cancel",
      booking: adaId,
      reason: "Ill",
    });
    expect(cancelled.status).toBe(303);
    const after = decode(await (await ada.get(cancelled.headers.get("location")!)).text());
    expect(after).toContain("Your booking is cancelled");
    expect(after).toContain("Cancelled");
    expect(after).not.toContain("Yes, cancel it");

    // Bea's is untouched; without any cookie the page asks to sign in.
    expect(decode(await (await bea.get(`/${slug}/account/my-bookings`)).text())).toContain("10:00–11:00");
    const nobody = await new Client(server.url).get(`/${slug}/account/my-bookings`);
    expect(nobody.status).toBe(302);
    expect(nobody.headers.get("location")).toMatch(/\/login\?next=/);
  });

  it("lists a customer's bookings, moves one through the picker, and says why one cannot be cancelled", async () => {
    at(NOW);
    const { slug, serviceSlug } = await business({ cancelNoticeMinutes: 48 * 60, rescheduleNoticeMinutes: 60 });
    const email = uniqueEmail("cara");
    const cara = await signInCustomer(server.url, slug, email);
    // Thursday 26th at 10:00 Berlin: inside the 48-hour cancellation notice, outside the hour's reschedule one.
    const path = pickerPath(slug, serviceSlug, { date: "2026-03-26", start: "2026-03-26T09:00:00Z" });
    const made = await cara.post(path, bookForm("2026-03-26T09:00:00Z", "Europe/Berlin", { email }));
    expect(made.status).toBe(303);
    expect(cara.cookie(`atrium_customer_manage_${slug}`)).toBeUndefined();
    const id = new URL(made.headers.get("location")!, server.url).searchParams.get("booking")!;

    const list = decode(await (await cara.get(`/${slug}/account/my-bookings`)).text());
    expect(list).toContain('aria-current="page"');
    expect(list).toContain("Thursday 26 March 2026, 10:00–11:00");
    expect(list).toContain("Cancelling closes 2 days before the start");
    expect(list).not.toContain(`cancel=${id}`);

    // Move it: the picker in reschedule mode is private, and its form moves instead of booking.
    const picker = await cara.get(
      pickerPath(slug, serviceSlug, { date: "2026-03-27", start: "2026-03-27T12:00:00Z", reschedule: id }),
    );
    expect(picker.status).toBe(200);
    expect(picker.headers.get("cache-control")).toBe("private, no-store");
    const pickerHtml = decode(await picker.text());
    expect(pickerHtml).toContain("Moving your booking of <strong>Thursday 26 March 2026, 10:00</strong>");
    expect(pickerHtml).toContain("Move to this time");
    const moved = await cara.post(path, {
      intent: "reschedule",
      booking: id,
      start: "2026-03-27T12:00:00Z",
      timeZone: "Europe/Berlin",
    });
    expect(moved.status).toBe(303);
    const done = decode(await (await cara.get(moved.headers.get("location")!)).text());
    expect(done).toContain("Your booking is moved");
    expect(done).toContain("Friday 27 March 2026, 13:00–14:00");
    // Another visitor cannot open the picker's move for it.
    expect((await new Client(server.url).get(pickerPath(slug, serviceSlug, { reschedule: id }))).status).toBe(404);
  });
});

describe("caching", () => {
  let shared: TestServer;
  beforeAll(async () => {
    // With a public address, shared caches are told what they may keep (without one, nothing is shared).
    shared = await startServer({ PUBLIC_URL: "https://atrium.example.test" });
  });
  afterAll(() => shared?.close());

  it("keeps the list and the picker half a minute, tagged with the site's frame, in shared caches and here", async () => {
    const { slug, serviceSlug, workspaceId } = await business({}, true, shared);
    for (const path of [`/${slug}/bookings`, `/${slug}/bookings/${serviceSlug}`]) {
      const res = await fetch(`${shared.url}${path}`);
      expect(res.status, path).toBe(200);
      await res.arrayBuffer();
      expect(res.headers.get("cache-control"), path).toBe(
        "public, max-age=0, must-revalidate, s-maxage=30, stale-while-revalidate=30",
      );
      expect(res.headers.get("cache-tag"), path).toContain(`ws:${workspaceId}`);
      const held = shared.atrium.runtime.services.pageCache.inspect(new URL(shared.url).host, path);
      expect(held, path).not.toBeNull();
      const life = Date.parse(held!.expiresAt) - Date.parse(held!.renderedAt);
      expect(life, path).toBeGreaterThan(25_000);
      expect(life, path).toBeLessThanOrEqual(30_000);
    }
  });
});
