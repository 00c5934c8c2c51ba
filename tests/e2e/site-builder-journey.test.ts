/**
 * Issue 13's "Done when", as a brand-new user in Chromium with JavaScript on: sign up, create a workspace,
 * fill in the business profile, import the brand from the business's old website (a little site this test
 * serves on loopback), upload photos, build three pages in the console — hero with an image, text, a gallery,
 * an image, a contact form — make one the home page and publish them all; the get-started checklist ticks
 * brand, first page and publish; then a visitor at 1280 and 390 wide sees the imported logo, the brand colour,
 * the three pages in the navigation (through the Menu on a phone), loaded images and reachable pages; and an
 * edit shows at the next request. One story, in order: each `it` carries the state of the one before, so a
 * failure names the step. Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL (CI's Postgres stage).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserSuite, finishSignUp, openBrowser } from "../helpers/browser";
import { uniqueEmail } from "../helpers/client";
import { png } from "../helpers/files";
import { tempDir } from "../helpers/temp";

const files = tempDir("atrium-e2e-journey-files");
// The old website is on loopback, which the outbound guard refuses unless told otherwise (tests only).
const suite = browserSuite({
  env: { FILES_DIR: files.path, OUTBOUND_ALLOW_PRIVATE: "true", JOBS_POLL_MS: "50" },
});
afterAll(() => files.remove());

const SITE = "old-mill";
const BRAND = "#8b4513";
const BRAND_RGB = "rgb(139, 69, 19)";
const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

/** The business's current website: a home page naming a logo, a favicon, a theme colour and a share image. */
let oldSite: Server;
let oldSiteUrl = "";

beforeAll(async () => {
  const image = (width: number, height: number, color: string) =>
    sharp({ create: { width, height, channels: 3, background: color } })
      .png()
      .toBuffer();
  const routes: Record<string, { type: string; body: Buffer | string }> = {
    "/": {
      type: "text/html; charset=utf-8",
      body: `<!doctype html><html><head><title>Old Mill Bakery</title>
        <meta name="theme-color" content="${BRAND.toUpperCase()}">
        <meta property="og:image" content="/img/share.png">
        <link rel="icon" href="/img/icon.png" sizes="192x192">
        </head><body><header><img class="logo" src="/img/logo.png" alt="Old Mill Bakery"></header>
        <main><h1>Bread since 1921</h1></main></body></html>`,
    },
    "/img/logo.png": { type: "image/png", body: await image(480, 160, BRAND) },
    "/img/icon.png": { type: "image/png", body: await image(192, 192, "#f5deb3") },
    "/img/share.png": { type: "image/png", body: await image(1200, 630, "#deb887") },
  };
  oldSite = createServer((req, res) => {
    const route = routes[req.url ?? ""];
    if (!route) res.writeHead(404).end("not found");
    else res.writeHead(200, { "content-type": route.type }).end(route.body);
  });
  await new Promise<void>((resolve) => oldSite.listen(0, "127.0.0.1", resolve));
  oldSiteUrl = `http://127.0.0.1:${(oldSite.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => oldSite.close(() => resolve())));

let page: Page;
const errors: string[] = [];
/** The editor's address of each page built, by title. */
const editorOf: Record<string, string> = {};

const go = (path: string) => page.goto(`${suite.server.url}${path}`);

/** Adds a block of `type` at the end of the draft and waits for its card (a form post keeps what was typed). */
async function addBlock(type: string, legend: string) {
  await page.getByLabel("Add a block").selectOption(type);
  await page.getByRole("button", { name: "Add block" }).click();
  await page.getByText(legend, { exact: true }).waitFor();
}

/** Creates a page with this title; it opens in the editor with a hero carrying the title. */
async function newPage(title: string) {
  await go("/website/pages/new");
  await page.getByLabel("Title").fill(title);
  await page.getByRole("button", { name: "Create page" }).click();
  await page.getByText("Page created.").waitFor();
  editorOf[title] = new URL(page.url()).pathname;
}

async function publish() {
  await page.getByRole("button", { name: /^(Publish|Save and publish)$/ }).click();
  await page.getByText("Published: visitors see this version now.").waitFor();
}

/** Every image on the page has loaded (lazy ones once scrolled to). */
async function expectImagesLoaded(p: Page) {
  const images = p.locator("main img, header img");
  const count = await images.count();
  expect(count).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    const img = images.nth(i);
    if (!(await img.isVisible())) continue;
    await img.scrollIntoViewIfNeeded();
    await expect
      .poll(() => img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0)), {
        message: `image ${await img.getAttribute("src")}`,
      })
      .toBeGreaterThan(0);
  }
}

describe("a new business builds its site, as issue 13's 'Done when' says", () => {
  beforeAll(async () => {
    page = await suite.context.newPage();
    page.on("pageerror", (e) => errors.push(e.message));
  });

  it("signs up and creates a workspace", async () => {
    const email = uniqueEmail("journey");
    await go("/signup");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Create account" }).click();
    await finishSignUp(page, suite.server, email);
    await page.getByRole("heading", { name: "Your workspaces" }).waitFor();
    await page.getByLabel("Name").fill("Old Mill Bakery");
    await page.getByLabel("Site address").fill(SITE);
    await page.getByRole("button", { name: "Create workspace" }).click();
    await page.getByRole("heading", { name: "Get started with Old Mill Bakery" }).waitFor();
    // Nothing of the site is done yet.
    for (const title of ["Make the site look like your business", "Build your first page", "Publish your site"])
      await page.getByRole("heading", { name: `${title} (to do)` }).waitFor();
  });

  it("fills in the business profile: address, phone, e-mail, time zone and opening hours", async () => {
    await go("/website/profile");
    await page.getByLabel("Tagline").fill("Stone-ground bread, baked at dawn.");
    await page.getByLabel("Street address").fill("12 Mill Lane");
    await page.getByLabel("Postal code").fill("YO1 7HH");
    await page.getByLabel("Town or city").fill("York");
    await page.getByLabel("Country", { exact: true }).selectOption("GB");
    await page.getByLabel("Phone", { exact: true }).fill("+44 1904 496000");
    await page.getByLabel("E-mail", { exact: true }).fill("hello@oldmill.example");
    await page.getByLabel("Time zone", { exact: true }).selectOption("Europe/London");
    for (const day of ["Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]) {
      await page.getByLabel(`${day}: opens`, { exact: true }).fill("07:30");
      await page.getByLabel(`${day}: closes`, { exact: true }).fill("15:00");
    }
    await page.getByRole("button", { name: "Save business profile" }).click();
    await page.getByText("Business profile saved").waitFor();
  });

  it("imports the brand from the old website and watches the import finish in the console", async () => {
    await go("/website/branding");
    await page.getByLabel("Website address").fill(oldSiteUrl);
    await page.getByRole("button", { name: "Import my brand" }).click();
    // The panel polls by itself (JavaScript on): no reload here.
    const state = page.locator(".import-state");
    await state.getByText("Import finished").waitFor({ timeout: 20_000 });
    expect(await state.getAttribute("data-status")).toBe("done");
    expect(await state.locator("progress").getAttribute("value")).toBe("100");
    await state.getByText("Imported your logo, favicon, brand colour and social image").waitFor();
    // The form shows the imported colour as the saved brand colour.
    await go("/website/branding");
    expect(await page.getByLabel("Brand colour").inputValue()).toBe(BRAND);
  });

  it("uploads three photos to the media library", async () => {
    const photos = [
      { name: "loaves.png", alt: "Loaves cooling on the rack", rgb: [180, 110, 50] as [number, number, number] },
      { name: "oven.png", alt: "The stone oven at dawn", rgb: [120, 60, 30] as [number, number, number] },
      { name: "counter.png", alt: "Our shop counter", rgb: [210, 170, 120] as [number, number, number] },
    ];
    for (const photo of photos) {
      await go("/website/media");
      await page.getByLabel("Image").setInputFiles({
        name: photo.name,
        mimeType: "image/png",
        buffer: Buffer.from(await png(1200, 800, photo.rgb)),
      });
      await page.getByLabel("Description (optional)").fill(photo.alt);
      await page.getByRole("button", { name: "Upload" }).click();
      await page.getByRole("heading", { level: 2, name: photo.name }).waitFor();
    }
    await go("/website/media");
    for (const photo of photos) await page.getByText(photo.name).first().waitFor();
  });

  it("builds three pages with a hero image, text, a gallery, an image and a contact form", async () => {
    // The first page becomes the home page by itself; the owner will move the home to "Welcome" below.
    await newPage("Our story");
    await page.locator('textarea[name="blocks.0.text"]').fill("Four generations of millers and bakers.");
    await page.locator('select[name="blocks.0.imageId"]').selectOption({ label: "The stone oven at dawn" });
    await addBlock("richText", "2. Text");
    await page
      .locator('textarea[name="blocks.1.markdown"]')
      .fill("## Since 1921\n\nWe still grind our flour **on the stone** every morning.");
    await addBlock("image", "3. Image");
    await page.locator('select[name="blocks.2.imageId"]').selectOption({ label: "Loaves cooling on the rack" });
    await page.locator('input[name="blocks.2.caption"]').fill("Tuesday's rye");
    await publish();

    await newPage("Welcome");
    await page.locator('textarea[name="blocks.0.text"]').fill("Bread, buns and cakes from the old mill.");
    await page.locator('select[name="blocks.0.imageId"]').selectOption({ label: "Loaves cooling on the rack" });
    await page.locator('input[name="blocks.0.ctaLabel"]').fill("Find us");
    await page.locator('input[name="blocks.0.ctaHref"]').fill(`/${SITE}/visit-us`);
    await addBlock("richText", "2. Text");
    await page.locator('textarea[name="blocks.1.markdown"]').fill("Fresh every morning from **7:30**.");
    await addBlock("gallery", "3. Gallery");
    for (const label of ["Loaves cooling on the rack", "The stone oven at dawn", "Our shop counter"])
      await page.getByRole("checkbox", { name: label }).check();
    await publish();
    await page.getByRole("button", { name: "Make home page" }).click();
    await page.getByText(`This is now your home page, at /${SITE}.`).waitFor();

    await newPage("Visit us");
    await page.locator('textarea[name="blocks.0.text"]').fill("Come by, call, or write to us.");
    await page.locator('select[name="blocks.0.imageId"]').selectOption({ label: "Our shop counter" });
    await addBlock("contactForm", "2. Contact form");
    await page.locator('input[name="blocks.1.heading"]').fill("Order a cake");
    await publish();

    await go("/website");
    for (const title of ["Welcome", "Our story", "Visit us"]) await page.getByText(title).first().waitFor();
  });

  it("ticks brand, first page and publish on the get-started checklist", async () => {
    await go("/get-started");
    for (const title of ["Make the site look like your business", "Build your first page", "Publish your site"])
      await page.getByRole("heading", { name: `${title} (done)` }).waitFor();
  });

  it.each(["desktop", "phone"] as const)("looks like a designed site on a %s", async (width) => {
    // A visitor's own browser, under the public pages' real CSP.
    const visitor = await openBrowser();
    try {
      const p = await visitor.context.newPage();
      const refused: string[] = [];
      p.on("console", (m) => /Content Security Policy/i.test(m.text()) && refused.push(m.text()));
      await p.setViewportSize(WIDTHS[width]);
      await p.goto(`${suite.server.url}/${SITE}`, { waitUntil: "load" });
      await p.getByRole("heading", { level: 1, name: "Welcome" }).waitFor();

      // The imported logo, a wordmark: shown alone, named by the business's name, and loaded.
      const logo = p.locator("header .site-brand__logo");
      expect(await logo.getAttribute("alt")).toBe("Old Mill Bakery");
      expect(await logo.getAttribute("src")).toMatch(new RegExp(`^/${SITE}/media/`));
      await expect
        .poll(() => logo.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
        .toBeGreaterThan(0);

      // The theme stylesheet carries the imported colour, and the button is drawn in it.
      expect(await p.locator(`link[rel="stylesheet"][href^="/${SITE}/theme.css"]`).count()).toBe(1);
      expect(
        await p.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--site-brand").trim()),
      ).toBe(BRAND);
      const button = p.getByRole("link", { name: "Find us" });
      expect(await button.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(BRAND_RGB);
      expect(await p.locator('meta[name="theme-color"]').getAttribute("content")).toBe(BRAND);

      await expectImagesLoaded(p);
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTHS[width].width);

      // The three pages in the navigation: in the header on a desktop, behind the Menu on a phone.
      const nav = p.getByRole("navigation", { name: "Main" });
      let links = nav.locator(".site-nav__list a");
      if (width === "phone") {
        expect(await links.first().isVisible()).toBe(false);
        await nav.getByText("Menu", { exact: true }).click();
        links = nav.locator(".site-nav__panel a");
      }
      await expect.poll(() => links.first().isVisible()).toBe(true);
      const menu = await links.evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute("href")]));
      expect(menu).toEqual(
        expect.arrayContaining([
          ["Welcome", `/${SITE}`],
          ["Our story", `/${SITE}/our-story`],
          ["Visit us", `/${SITE}/visit-us`],
        ]),
      );
      expect(menu).toHaveLength(3);

      // Each page is reachable from the menu, with its images and blocks.
      await links.filter({ hasText: "Our story" }).click();
      await p.getByRole("heading", { level: 1, name: "Our story" }).waitFor();
      expect(new URL(p.url()).pathname).toBe(`/${SITE}/our-story`);
      await p.getByRole("heading", { name: "Since 1921" }).waitFor();
      await p.getByText("Tuesday's rye").waitFor();
      await expectImagesLoaded(p);

      await p.goto(`${suite.server.url}/${SITE}/visit-us`);
      await p.getByRole("heading", { level: 1, name: "Visit us" }).waitFor();
      await p.getByRole("heading", { name: "Order a cake" }).waitFor();
      expect(await p.locator(`form[action="/api/v1/contact?site=${SITE}"]`).count()).toBe(1);
      await expectImagesLoaded(p);
      // The footer shows the business profile.
      const footer = p.locator("footer");
      await footer.getByText("12 Mill Lane").waitFor();
      await footer.getByRole("link", { name: "+44 1904 496000" }).waitFor();
      await footer.getByRole("link", { name: "hello@oldmill.example" }).waitFor();
      await footer.getByText("7:30–15:00").waitFor();
      expect(refused).toEqual([]);
    } finally {
      await visitor.close();
    }
  });

  it("shows an edit at the next request", async () => {
    await go(editorOf["Our story"]!);
    await page
      .locator('textarea[name="blocks.1.markdown"]')
      .fill("## Since 1921\n\nNow with a **sourdough** class on Sundays.");
    await publish();
    const visitor = await fetch(`${suite.server.url}/${SITE}/our-story`);
    expect(visitor.status).toBe(200);
    const html = await visitor.text();
    expect(html).toContain("<strong>sourdough</strong> class on Sundays");
    expect(html).not.toContain("on the stone");
    expect(errors).toEqual([]);
  });
});
