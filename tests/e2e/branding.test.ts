/**
 * Branding and the business profile in Chromium: the live preview and contrast check follow the colour
 * pickers as they change, the preview also works without JavaScript (a form post), the public site shows the
 * saved theme under its real CSP (stylesheet and fonts from our own origin, no inline style), and every page
 * here — console and public — passes axe at 1280 and 390 wide.
 */
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../helpers/axe";
import { browserSuite, finishSignUp, openBrowser } from "../helpers/browser";
import { uniqueEmail } from "../helpers/client";
import { tempDir } from "../helpers/temp";

const filesDir = tempDir("atrium-e2e-branding-files");
const suite = browserSuite({ bypassCSP: true, env: { FILES_DIR: filesDir.path } });
afterAll(() => filesDir.remove());
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const PASSWORD = "a long enough password";
const WIDTHS = { wide: { width: 1280, height: 800 }, narrow: { width: 390, height: 844 } } as const;

let page: Page;
let email = "";

beforeAll(async () => {
  page = await suite.context.newPage();
  email = uniqueEmail("brand-e2e");
  await page.goto(`${suite.server.url}/signup`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await finishSignUp(page, suite.server, email);
  await page.getByRole("heading", { name: "Your workspaces" }).waitFor();
  await page.getByLabel("Name").fill("Crumb & Co");
  await page.getByLabel("Site address").fill("crumb");
  await page.getByRole("button", { name: "Create workspace" }).click();
  await page.getByRole("heading", { name: /Get started/ }).waitFor();
});

describe("the business profile page", () => {
  it("saves the address, hours and a holiday, and the site's footer shows them", async () => {
    await page.goto(`${suite.server.url}/website/profile`);
    await page.getByLabel("Tagline").fill("Small-batch bread and cakes.");
    await page.getByLabel("Street address").fill("3 Baker Street");
    await page.getByLabel("Town or city").fill("Leeds");
    await page.getByLabel("Country", { exact: true }).selectOption("GB");
    await page.getByLabel("Phone", { exact: true }).fill("+44 113 496 0000");
    await page.getByLabel("Time zone", { exact: true }).selectOption("Europe/London");
    await page.getByLabel("Currency", { exact: true }).selectOption("GBP");
    await page.getByLabel("Monday: opens", { exact: true }).fill("08:00");
    await page.getByLabel("Monday: closes", { exact: true }).fill("16:00");
    await page.getByRole("button", { name: "Save business profile" }).click();
    await page.getByText("Business profile saved").waitFor();

    const soon = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel("Date").fill(soon);
    await page.getByLabel("Note").fill("Stocktake");
    await page.getByRole("button", { name: "Add exception" }).click();
    await page.getByText(`Exception for ${soon} saved`).waitFor();
    await page.getByRole("cell", { name: "Stocktake" }).waitFor();

    await page.goto(`${suite.server.url}/crumb`);
    const footer = page.locator("footer");
    await footer.getByText("3 Baker Street").waitFor();
    await footer.getByText("8:00–16:00").waitFor();
    await footer.getByText("Stocktake").waitFor();
  });
});

describe("the branding page", () => {
  it("updates the preview and the contrast check as colours change, and saves them to the site", async () => {
    await page.setViewportSize(WIDTHS.wide);
    await page.goto(`${suite.server.url}/website/branding`);
    const previewLink = page.locator('link[href^="/website/branding/preview.css"]');
    const before = await previewLink.getAttribute("href");

    await page.getByLabel("Brand colour").fill("#1d4ed8");
    await expect.poll(() => previewLink.getAttribute("href")).not.toBe(before);
    expect(await previewLink.getAttribute("href")).toContain("brand=%231d4ed8");
    // The preview is drawn in the draft's colour.
    await expect
      .poll(() =>
        page
          .locator(".bp-button")
          .first()
          .evaluate((el) => getComputedStyle(el).backgroundColor),
      )
      .toBe("rgb(29, 78, 216)");

    // A text colour too close to the background is flagged at once, and refused when saved.
    await page.getByLabel("Text", { exact: true }).fill("#dddddd");
    await page.getByTestId("contrast-list").getByText("Too low").waitFor();
    await page.getByRole("button", { name: "Save branding" }).click();
    await page
      .locator("#color-text-error")
      .getByText(/needs at least 4\.5:1/)
      .waitFor();

    await page.getByLabel("Text", { exact: true }).fill("#14213d");
    await page.getByLabel("Heading font").selectOption("playfair-display");
    await page.getByLabel("Round", { exact: true }).check();
    await page.getByRole("button", { name: "Save branding" }).click();
    await page.getByText("Branding saved").waitFor();
    expect(await violations(page)).toEqual([]);
  });

  it.each(["wide", "narrow"] as const)(
    "has no serious axe violations (%s), with a finished import shown",
    async (width) => {
      await page.setViewportSize(WIDTHS[width]);
      await page.goto(`${suite.server.url}/website/branding`);
      expect(await violations(page)).toEqual([]);
      await page.goto(`${suite.server.url}/website/profile`);
      expect(await violations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTHS[width].width);
    },
  );

  it("shows a refused import address next to its field", async () => {
    await page.setViewportSize(WIDTHS.wide);
    await page.goto(`${suite.server.url}/website/branding`);
    await page.getByLabel("Website address").fill("ftp://files.example.com");
    await page.getByRole("button", { name: "Import my brand" }).click();
    await page
      .locator("#import-url-error")
      .getByText(/Only http: and https:/)
      .waitFor();
    expect(await violations(page)).toEqual([]);
  });
});

describe("without JavaScript", () => {
  it("previews unsaved colours with a form post, and saves nothing until asked", async () => {
    const browser = await openBrowser({ javaScriptEnabled: false });
    try {
      const p = await browser.context.newPage();
      await p.goto(`${suite.server.url}/login`);
      await p.getByLabel("Email").fill(email);
      await p.getByLabel("Password").fill(PASSWORD);
      await p.getByRole("button", { name: "Sign in" }).click();
      await p.getByRole("heading", { name: "Your workspaces" }).waitFor();
      await p.getByRole("button", { name: "Open" }).first().click();
      await p.goto(`${suite.server.url}/website/branding`);
      await p.getByLabel("Brand colour").fill("#b91c1c");
      await p.getByRole("button", { name: "Preview", exact: true }).click();
      await p.getByText("Preview updated. Nothing is saved yet.").waitFor();
      expect(await p.locator('link[href^="/website/branding/preview.css"]').getAttribute("href")).toContain(
        "brand=%23b91c1c",
      );
      const saved = (await (await p.request.get(`${suite.server.url}/api/editor/branding`)).json()) as {
        colors: { brand: string };
      };
      expect(saved.colors.brand).toBe("#1d4ed8");
    } finally {
      await browser.close();
    }
  });
});

describe("the public site", () => {
  it.each(["wide", "narrow"] as const)("has no serious axe violations (%s) and fits the screen", async (width) => {
    await page.setViewportSize(WIDTHS[width]);
    await page.goto(`${suite.server.url}/crumb`);
    expect(await violations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTHS[width].width);
  });

  it("is themed under its real CSP: the site's stylesheet and fonts load, and nothing is refused", async () => {
    const browser = await openBrowser();
    try {
      const p = await browser.context.newPage();
      const refused: string[] = [];
      p.on("console", (message) => {
        if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
      });
      await p.goto(`${suite.server.url}/crumb`, { waitUntil: "networkidle" });
      expect(await p.locator(".site-header, .block-hero__heading").count()).toBeGreaterThan(0);
      const brand = await p.evaluate(() =>
        getComputedStyle(document.querySelector(".site")!).getPropertyValue("--site-brand").trim(),
      );
      expect(brand).toBe("#1d4ed8");
      const heading = await p.evaluate(() => getComputedStyle(document.querySelector("h1")!).fontFamily);
      expect(heading).toContain("Playfair Display Variable");
      await p.evaluate(() => document.fonts.ready);
      expect(await p.evaluate(() => document.fonts.check('600 40px "Playfair Display Variable"'))).toBe(true);
      expect(refused).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

const violations = (p: Page) => seriousViolations(p, AXE);
