/**
 * The console's Scheduling pages (issue 19, ADR 036), in Chromium: an operator follows the empty calendar's setup
 * steps — adds a staff member with weekly hours, a closed day, a country's public holidays (previewed first) and a
 * calendar feed, then a service (a refusal shown beside its field first) and one that needs approval; bookings made
 * through the API show on the calendar — in Berlin's 23-hour day at the hour its clocks read — and in the list;
 * the operator approves one, moves it, cancels another after the confirmation step and marks a past one a no-show.
 * Every new page passes axe at 1280 and 390 pixels wide; with SHOTS_DIR set, each is photographed at both.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { Temporal } from "temporal-polyfill";
import { beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../helpers/axe";
import { browserSuite, signUpWithWorkspace } from "../helpers/browser";
import { Client, uniqueEmail } from "../helpers/client";
import { setTestClock } from "~/lib/clock.server";
import { DEFAULT_PROFILE, profileInputOf, profileOf } from "~/modules/sites/profile.server";

const suite = browserSuite({ bypassCSP: true, env: { CUSTOMER_API_PER_ADDRESS_PER_MINUTE: "5000" } });
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const WIDTHS = { wide: { width: 1280, height: 860 }, narrow: { width: 390, height: 844 } } as const;
const SHOTS = process.env.SHOTS_DIR;
const SLUG = "still-water-studio";
const ZONE = "Europe/Berlin";

let operator: Page;

/** axe at both widths (and the screenshots for review), on the page as it is now. */
async function check(page: Page, name: string) {
  const url = page.url();
  for (const width of ["wide", "narrow"] as const) {
    await page.setViewportSize(WIDTHS[width]);
    await page.goto(url);
    expect(await seriousViolations(page, AXE), `${name} (${width})`).toEqual([]);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, `scheduling-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(WIDTHS.wide);
}

/** As `check`, for a page that is the answer to a form (reloading it would lose that answer): resized, not reloaded. */
async function look(page: Page, name: string) {
  for (const width of ["wide", "narrow"] as const) {
    await page.setViewportSize(WIDTHS[width]);
    expect(await seriousViolations(page, AXE), `${name} (${width})`).toEqual([]);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, `scheduling-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(WIDTHS.wide);
}

/** Books through the customer API as a visitor would; `clock` pretends it is then (the browser keeps real time). */
async function book(service: string, start: string, name: string, clock?: string): Promise<string> {
  if (clock) setTestClock(() => new Date(clock));
  try {
    const res = await new Client(suite.server.url).postJson(
      "/api/v1/bookings",
      { service, start, timeZone: ZONE, name, email: uniqueEmail("visitor"), answers: { focus: "Lower back" } },
      { "x-atrium-site": SLUG },
    );
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  } finally {
    setTestClock(undefined);
  }
}

/** The Monday after today in Berlin (real time: the browser's session cookie lives in it). */
const today = () => Temporal.Now.plainDateISO(ZONE);
const nextMonday = () => today().add({ days: 8 - today().dayOfWeek });

beforeAll(async () => {
  operator = await suite.context.newPage();
  operator.on("dialog", (dialog) => void dialog.accept());
  await signUpWithWorkspace(operator, suite.server, {
    email: uniqueEmail("owner"),
    password: "a long enough password",
    name: "Still Water Studio",
    slug: SLUG,
  });
  const { id } = await suite.server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", SLUG)
    .executeTakeFirstOrThrow();
  await profileOf(suite.server.db, id).save(null, {
    ...profileInputOf(DEFAULT_PROFILE),
    timeZone: ZONE,
    currency: "EUR",
  });
});

describe("scheduling in the console", () => {
  const ids = {} as Record<"dst" | "pending" | "monday" | "consultPast", string>;
  const slugs = {} as Record<"massage" | "consult", string>;

  it("is set up from the empty calendar: a staff member's hours, a closed day, holidays, a feed and services", async () => {
    const url = suite.server.url;
    await operator.goto(`${url}/scheduling`);
    await operator.getByRole("heading", { name: "Ready to take bookings: 0 of 2" }).waitFor();
    await check(operator, "calendar-empty");

    await operator.getByRole("link", { name: "Add who is booked" }).first().click();
    await operator.getByRole("heading", { name: "New staff member or resource" }).first().waitFor();
    await check(operator, "availability-new");
    await operator.getByLabel("Name", { exact: true }).fill("Mia Hoffmann");
    await operator.getByLabel("Time zone").selectOption(ZONE);
    await operator.getByLabel("Saturday: from").fill("10:00");
    await operator.getByLabel("Saturday: until").fill("14:00");
    await operator.getByLabel("Sunday: from").fill("09:00");
    await operator.getByLabel("Sunday: until").fill("13:00");
    await operator.getByLabel("Wednesday, second range: from").fill("18:00");
    await operator.getByLabel("Wednesday, second range: until").fill("17:30");
    await operator.getByRole("button", { name: "Add", exact: true }).click();
    await operator.getByText("End after the start").waitFor();
    await look(operator, "availability-error");
    await operator.getByLabel("Wednesday, second range: from").fill("");
    await operator.getByLabel("Wednesday, second range: until").fill("");
    await operator.getByRole("button", { name: "Add", exact: true }).click();
    await operator.getByText("Added. Give them a service").waitFor();

    // A closed day, far enough ahead not to touch the bookings below.
    const closed = nextMonday().add({ days: 21 }).toString();
    await operator.getByLabel("Date", { exact: true }).fill(closed);
    await operator.getByLabel("Note (optional)").fill("Team training");
    await operator.getByRole("button", { name: "Add date" }).click();
    await operator.getByText("Date saved.").waitFor();

    // Next year's holidays: previewed, then added.
    const year = String(today().year + 1);
    await operator.getByLabel("Country").selectOption("DE");
    await operator.getByLabel("Year").selectOption(year);
    await operator.getByRole("button", { name: "Preview holidays" }).click();
    await operator.getByRole("heading", { name: `Public holidays in Germany, ${year}` }).waitFor();
    await look(operator, "availability-holidays-preview");
    await operator.getByRole("button", { name: /^Add \d+ closed days for Mia Hoffmann$/ }).click();
    await operator.getByText(/\d+ holidays added as closed days/).waitFor();
    await operator.getByRole("cell", { name: "Team training" }).waitFor();

    await operator.getByRole("button", { name: "Get calendar feed link" }).click();
    await operator.getByText("Copy this address now").waitFor();
    expect(await operator.locator(".key-line code").innerText()).toMatch(/\/api\/bookings\/feed\/[\w-]+\.ics$/);
    await look(operator, "availability-host");

    // Services: a refusal beside its field, then the service.
    await operator.getByRole("link", { name: "Services" }).first().click();
    await operator.getByRole("heading", { name: "Services", level: 1 }).waitFor();
    await check(operator, "services-empty");
    await operator.getByRole("link", { name: "Add service" }).first().click();
    await operator.getByRole("heading", { name: "New service" }).waitFor();
    await check(operator, "service-new");
    await operator.getByLabel("Length (minutes)").fill("3");
    await operator.getByLabel("Price", { exact: true }).fill("80");
    await operator.getByRole("button", { name: "Create service" }).click();
    await operator.getByText("Give the service a name").waitFor();
    await operator.getByText("At least 5 minutes").waitFor();
    await look(operator, "service-errors");
    await operator.getByLabel("Name", { exact: true }).fill("Deep tissue massage");
    await operator
      .getByLabel("Description", { exact: true })
      .fill("Slow, firm pressure for tight muscles. Wear something comfortable.");
    await operator.getByLabel("Length (minutes)").fill("60");
    await operator.getByLabel("Deposit", { exact: true }).fill("");
    await operator.getByLabel("Address, phone number or video link").fill("Torstraße 1, Berlin");
    await operator.getByLabel("Question 1", { exact: true }).fill("Anything we should know?");
    await operator.getByRole("button", { name: "Create service" }).click();
    await operator.getByText("Service created.").waitFor();
    await check(operator, "service-edit");
    slugs.massage = (await operator.getByLabel("Address", { exact: true }).inputValue()) || "deep-tissue-massage";

    await operator.goto(`${url}/scheduling/services/new`);
    await operator.getByLabel("Name", { exact: true }).fill("First consultation");
    await operator.getByLabel("Length (minutes)").fill("30");
    await operator.getByLabel("I approve each booking").check();
    await operator.getByRole("button", { name: "Create service" }).click();
    await operator.getByText("Service created.").waitFor();
    slugs.consult = await operator.getByLabel("Address", { exact: true }).inputValue();
    await operator.goto(`${url}/scheduling/services`);
    await operator.getByRole("cell", { name: "€80.00" }).waitFor();
    await check(operator, "services");
  });

  it("shows bookings on the calendar by the business's clocks, and in the list", async () => {
    const url = suite.server.url;
    // Sunday 29 March 2026, Berlin's 23-hour day: 07:00Z is 09:00 on its clocks (CEST), not 08:00.
    ids.dst = await book(slugs.massage, "2026-03-29T07:00:00Z", "Jonas Weber", "2026-03-25T08:00:00Z");
    ids.consultPast = await book(slugs.consult, "2026-03-27T10:00:00Z", "Lea Fischer", "2026-03-25T08:00:00Z");
    ids.monday = await book(slugs.massage, `${nextMonday().toString()}T10:00`, "Amelie Braun");
    ids.pending = await book(slugs.consult, `${nextMonday().add({ days: 1 }).toString()}T11:30`, "Noah Schmidt");

    await operator.goto(`${url}/scheduling?view=week&date=2026-03-29`);
    await operator.getByText("Clocks go forward at 02:00 to 03:00: a 23-hour day").waitFor();
    expect(await operator.locator(`tr[data-time="09:00"] a[data-booking="${ids.dst}"]`).count()).toBe(1);
    await check(operator, "calendar-week-dst");
    await operator.goto(`${url}/scheduling?view=day&date=2026-03-29`);
    expect(await operator.locator(`tr[data-time="09:00"] a[data-booking="${ids.dst}"]`).count()).toBe(1);
    await check(operator, "calendar-day-dst");

    await operator.goto(`${url}/scheduling?view=week&date=${nextMonday().toString()}`);
    expect(await operator.locator(`a[data-booking="${ids.monday}"]`).innerText()).toContain("10:00–11:00");
    expect(await operator.locator(`a[data-booking="${ids.pending}"]`).innerText()).toContain("11:30–12:00");
    await operator.getByRole("heading", { name: /Waiting for your approval/ }).waitFor();
    await check(operator, "calendar-week");
    await operator.getByRole("link", { name: "Next week" }).click();
    await operator.getByRole("link", { name: "Previous week" }).click();
    await operator.getByRole("link", { name: "Day", exact: true }).click();
    await operator.getByRole("columnheader", { name: /Mia Hoffmann/ }).waitFor();

    await operator.goto(`${url}/scheduling/bookings`);
    await operator.getByRole("cell", { name: /Amelie Braun/ }).waitFor();
    await check(operator, "bookings");
    await operator.getByRole("link", { name: /Needs approval/ }).click();
    await operator.waitForURL(/filter=pending/);
    await operator.locator('.filter-chips a[aria-current="page"]', { hasText: "Needs approval" }).waitFor();
    await operator.getByRole("cell", { name: /Noah Schmidt/ }).waitFor();
    expect(await operator.getByRole("cell", { name: /Amelie Braun/ }).count()).toBe(0);
    await operator.getByLabel("Search bookings").fill("nobody-like-this");
    await operator.getByRole("button", { name: "Search" }).click();
    await operator.getByText("No booking matches.").waitFor();
    await check(operator, "bookings-no-match");
  });

  it("approves, moves, cancels after confirming, and marks a past booking a no-show", async () => {
    const url = suite.server.url;
    await operator.goto(`${url}/scheduling/bookings/${ids.pending}`);
    await check(operator, "booking-pending");
    await operator.getByRole("button", { name: "Approve booking" }).click();
    await operator.getByText("Approved. The booker has been sent their confirmation.").waitFor();
    expect((await operator.locator(".page-actions .status-pill").innerText()).trim()).toBe("Confirmed");

    // Move it to a free time two days later.
    await operator.getByLabel("Day", { exact: true }).fill(nextMonday().add({ days: 3 }).toString());
    await operator.getByRole("button", { name: "Show free times" }).click();
    await operator.locator('.time-choices input[type="radio"]').first().check();
    await look(operator, "booking-move");
    await operator.getByRole("button", { name: "Move booking" }).click();
    await operator.getByText("Moved. The booker has been sent the new time.").waitFor();

    await operator.goto(`${url}/scheduling/bookings/${ids.monday}`);
    await operator.getByRole("link", { name: "Cancel booking…" }).click();
    await operator.getByRole("heading", { name: "Cancel this booking?" }).waitFor();
    await look(operator, "booking-cancel-confirm");
    await operator.getByLabel("Reason", { exact: true }).fill("Mia is ill, sorry. Please book another day.");
    await operator.getByRole("button", { name: "Yes, cancel the booking" }).click();
    await operator.getByText("Cancelled. The booker has been told").waitFor();
    await operator.getByText("“Mia is ill, sorry. Please book another day.”").first().waitFor();
    await look(operator, "booking-cancelled");

    await operator.goto(`${url}/scheduling/bookings/${ids.dst}`);
    await operator.getByRole("button", { name: "Mark no-show" }).click();
    await operator.getByText("Marked a no-show.").waitFor();
    await check(operator, "booking-no-show");

    await operator.goto(`${url}/scheduling?view=week&date=${nextMonday().toString()}`);
    expect(await operator.locator(`a[data-booking="${ids.monday}"]`).getAttribute("class")).toMatch(
      /cal-block--cancelled/,
    );
    await check(operator, "calendar-after");
  });
});
