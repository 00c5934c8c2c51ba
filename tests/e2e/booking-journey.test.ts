/**
 * Booking on a public site (issue 19, ADR 036), in Chromium: a visitor whose browser is in New York books a
 * Berlin studio's massage on the Sunday Berlin springs forward. With JavaScript the picker's script (its own
 * fingerprinted file, under the page's CSP `script-src 'self'`) shows the times in New York time; without it the
 * page reads in Berlin's zone and says so. The visitor books, sees the confirmation, finds the booking in
 * "Bookings" and cancels it after the confirm step; a deposit's booking shows the hold and "Pay deposit". Every
 * new page passes axe at 1280 and 390 pixels wide; with SHOTS_DIR set, each is photographed at both.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../helpers/axe";
import { assertChromium, CHROMIUM_ARGS, CHROMIUM_PATH } from "../helpers/chromium";
import { createWorkspace, signUp, uniqueEmail } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { setTestClock } from "~/lib/clock.server";
import { DEFAULT_PROFILE, profileInputOf, profileOf } from "~/modules/sites/profile.server";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const WIDTHS = { wide: { width: 1280, height: 860 }, narrow: { width: 390, height: 844 } } as const;
const SHOTS = process.env.SHOTS_DIR;
const SLUG = "kneadwell";
/** Wednesday 25 March 2026, 08:00 UTC: Berlin moves its clocks forward on Sunday the 29th. */
const NOW = new Date("2026-03-25T08:00:00.000Z");

let server: TestServer;
let browser: Browser;
/** The New York visitor: JavaScript on; axe needs its script injected, so this context bypasses the CSP. */
let visitor: BrowserContext;

/** axe at both widths (and the screenshots for review), on the page as it is now (reloaded at each width). */
async function check(page: Page, name: string) {
  const url = page.url();
  for (const width of ["wide", "narrow"] as const) {
    await page.setViewportSize(WIDTHS[width]);
    await page.goto(url);
    expect(await seriousViolations(page, AXE), `${name} (${width})`).toEqual([]);
    // A time's link jumps to the form (#details); the photograph is of the whole page from its top.
    await page.evaluate(() => window.scrollTo(0, 0));
    if (SHOTS) await page.screenshot({ path: join(SHOTS, `booking-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(WIDTHS.wide);
}

beforeAll(async () => {
  assertChromium();
  setTestClock(() => NOW);
  server = await startServer();
  const { client: owner } = await signUp(server.url);
  await createWorkspace(owner, "Kneadwell Massage", SLUG);
  const { id } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", SLUG)
    .executeTakeFirstOrThrow();
  await profileOf(server.db, id).save(null, {
    ...profileInputOf(DEFAULT_PROFILE),
    timeZone: "Europe/Berlin",
    currency: "EUR",
  });
  const host = await owner.postJson("/api/editor/bookings/services/availability", {
    name: "Mia",
    timeZone: "Europe/Berlin",
    weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: "09:00", end: "17:00" })),
  });
  expect(host.status).toBe(201);
  const hostIds = [((await host.json()) as { id: string }).id];
  for (const service of [
    {
      name: "Deep tissue massage",
      description: "Slow, firm pressure that works out the knots in your back, neck and shoulders.",
      durationMinutes: 60,
      price: 8000,
      locationDetail: "Torstraße 1, 10119 Berlin",
      questions: [{ id: "focus", label: "Anything we should know?", required: false, long: true }],
      cancelNoticeMinutes: 12 * 60,
    },
    {
      name: "Sports recovery session",
      description: "Stretching and massage after a race or a hard week of training.",
      durationMinutes: 45,
      intervalMinutes: 60,
      price: 6500,
      deposit: 2000,
      locationDetail: "Torstraße 1, 10119 Berlin",
    },
  ]) {
    const created = await owner.postJson("/api/editor/bookings/services", {
      locationKind: "in_person",
      hostIds,
      ...service,
    });
    expect(created.status).toBe(201);
  }
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  visitor = await browser.newContext({ timezoneId: "America/New_York", locale: "en-US", bypassCSP: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  setTestClock(undefined);
});

describe("booking a time", () => {
  it("shows a New York browser the times in New York time under the page's CSP, and Berlin's without JavaScript", async () => {
    const enforced = await browser.newContext({ timezoneId: "America/New_York" });
    const page = await enforced.newPage();
    const errors: string[] = [];
    page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
    await page.goto(`${server.url}/${SLUG}/bookings/deep-tissue-massage?date=2026-03-28`);
    // The script swapped in the browser's zone: Saturday's 09:00 in Berlin (CET) is 04:00 in New York.
    await page.waitForURL(/tz=America%2FNew_York/);
    await expect.poll(() => page.locator(".booking-picker__zone").innerText()).toBe("Times in America/New_York");
    expect(await page.locator(".booking-time").first().innerText()).toBe("04:00");
    expect(errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
    await enforced.close();

    const noScript = await browser.newContext({ timezoneId: "America/New_York", javaScriptEnabled: false });
    const plain = await noScript.newPage();
    await plain.goto(`${server.url}/${SLUG}/bookings/deep-tissue-massage?date=2026-03-28`);
    expect(await plain.locator(".booking-picker__zone").innerText()).toBe("Times in Europe/Berlin");
    expect(await plain.locator(".booking-time").first().innerText()).toBe("09:00");
    // The zone can still be chosen, by a form.
    await plain.getByLabel("Show times in").selectOption("America/New_York");
    await plain.getByRole("button", { name: "Show", exact: true }).click();
    expect(await plain.locator(".booking-time").first().innerText()).toBe("04:00");
    await noScript.close();
  });

  it("books Sunday 03:00 New York time (09:00 in Berlin, the first day of summer time), then cancels it", async () => {
    const page = await visitor.newPage();
    await page.goto(`${server.url}/${SLUG}/bookings`);
    await expect.poll(() => page.getByRole("heading", { name: "Book an appointment" }).isVisible()).toBe(true);
    await check(page, "services");

    await page.getByRole("link", { name: "Choose a time for Deep tissue massage" }).click();
    await page.waitForURL(/tz=America%2FNew_York/);
    await page.getByRole("link", { name: /Sunday 29 March 2026: 8 free times/ }).click();
    expect(await page.locator(".booking-picker__zone").innerText()).toBe("Times in America/New_York");
    expect(await page.locator(".booking-time").allInnerTexts()).toEqual([
      "03:00",
      "04:00",
      "05:00",
      "06:00",
      "07:00",
      "08:00",
      "09:00",
      "10:00",
    ]);
    await check(page, "picker");
    await page.getByRole("link", { name: "03:00" }).click();
    await page.getByLabel("Full name").waitFor();
    expect(await page.locator(".booking-summary__when").innerText()).toBe("Sunday 29 March 2026, 03:00–04:00");
    await check(page, "details");

    await page.getByLabel("Full name").fill("Ada Lovelace");
    await page.getByLabel("E-mail").fill(uniqueEmail("ada"));
    await page.getByLabel("Anything we should know? (optional)").fill("Tight shoulders after a long flight.");
    await page.getByRole("button", { name: "Book this time" }).click();
    await page.getByRole("heading", { name: "You're booked" }).waitFor();
    expect(await page.locator(".booking-details").innerText()).toContain("Sunday 29 March 2026, 03:00–04:00");
    expect(await page.locator(".booking-details").innerText()).toContain("Sunday 29 March 2026, 09:00 (Europe/Berlin)");
    const google = await page.getByRole("link", { name: "Google Calendar" }).getAttribute("href");
    expect(google).toContain("dates=20260329T070000Z%2F20260329T080000Z");
    await check(page, "confirmed");

    await page.getByRole("link", { name: "See, move or cancel this booking" }).click();
    await page.getByRole("heading", { name: "Bookings", exact: true }).waitFor();
    expect(await page.locator(".booking-item__when").innerText()).toContain("Sunday 29 March 2026, 03:00–04:00");
    await check(page, "my-bookings");

    await page.getByRole("link", { name: /^Cancel Deep tissue massage/ }).click();
    await page.getByText("Cancel this booking?").waitFor();
    await check(page, "cancel-confirm");
    await page.getByLabel("Reason (optional)").fill("My flight moved.");
    await page.getByRole("button", { name: "Yes, cancel it" }).click();
    await page.getByText("Your booking is cancelled").waitFor();
    expect(await page.locator(".booking-badge").innerText()).toBe("Cancelled");
    await check(page, "cancelled");
    await page.close();
  });

  it("holds a deposit's time and asks for the deposit by the hold's end", async () => {
    const page = await visitor.newPage();
    await page.goto(`${server.url}/${SLUG}/bookings`);
    await page.getByRole("link", { name: "Choose a time for Sports recovery session" }).click();
    await page.waitForURL(/tz=America%2FNew_York/);
    await page.getByRole("link", { name: /Friday 27 March 2026/ }).click();
    await page.getByRole("link", { name: "05:00" }).click();
    await page.getByText("A deposit of €20.00 is taken to hold your time").waitFor();
    await page.getByLabel("Full name").fill("Grace Hopper");
    await page.getByLabel("E-mail").fill(uniqueEmail("grace"));
    await page.getByRole("button", { name: "Book and pay deposit" }).click();
    await page.getByRole("heading", { name: "Your time is held" }).waitFor();
    // Held five minutes: 08:00Z is 04:00 in New York, so until 04:05.
    expect(await page.locator(".booking-pay__text").innerText()).toContain("by 04:05 (America/New_York)");
    await page.getByRole("button", { name: "Pay deposit €20.00" }).waitFor();
    await check(page, "held");
    await page.close();
  });
});
