/**
 * The website's pages in Chromium (ADR 017): an operator builds and publishes a page in the console, with
 * JavaScript and without it, and a visitor sees it; every new console and public page passes axe (no serious
 * or critical WCAG 2 A/AA violation) at 1280 and 390 pixels wide. axe is injected, so the browser bypasses
 * the CSP (public pages allow no script).
 */
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../helpers/axe";
import { browserSuite, finishSignUp, openBrowser } from "../helpers/browser";
import { uniqueEmail } from "../helpers/client";

const suite = browserSuite({ bypassCSP: true });
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const WIDTHS = { wide: { width: 1280, height: 800 }, narrow: { width: 390, height: 844 } } as const;

let page: Page;
let pageId = "";
const SITE = "crumb";

beforeAll(async () => {
  page = await suite.context.newPage();
  await page.goto(`${suite.server.url}/signup`);
  const email = uniqueEmail("pages");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Create account" }).click();
  await finishSignUp(page, suite.server, email);
  await page.getByRole("heading", { name: "Your workspaces" }).waitFor();
  await page.getByLabel("Name").fill("Crumb & Co");
  await page.getByLabel("Site address").fill(SITE);
  await page.getByRole("button", { name: "Create workspace" }).click();
  await page.getByRole("heading", { name: /Get started/ }).waitFor();
});

describe("building a page with JavaScript", () => {
  it("starts from the empty state, creates the home page, fills it in and publishes it", async () => {
    await page.goto(`${suite.server.url}/website`);
    await page.getByText("Your site has no pages yet").waitFor();
    await page.getByRole("link", { name: "Create your first page" }).click();
    await page.getByLabel("Title").fill("Welcome");
    await page.getByRole("button", { name: "Create page" }).click();
    await page.getByText("Page created.").waitFor();
    pageId = new URL(page.url()).pathname.split("/").at(-1)!;

    await page.getByLabel("Text", { exact: true }).first().fill("Small-batch bread, baked at dawn.");
    await page.getByLabel("Add a block").selectOption("richText");
    await page.getByRole("button", { name: "Add block" }).click();
    await page.getByText("2. Text").waitFor();
    await page.locator('textarea[name="blocks.1.markdown"]').fill("## Opening hours\n\nEvery day from **7 am**.");
    await page.getByLabel("Add a block").selectOption("faq");
    await page.getByRole("button", { name: "Add block" }).click();
    await page.getByLabel("New question").fill("Do you deliver?");
    await page.getByLabel("Its answer").fill("Within the town, on Saturdays.");
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByText("Published: visitors see this version now.").waitFor();

    await page.goto(`${suite.server.url}/${SITE}`);
    await page.getByRole("heading", { level: 1, name: "Welcome" }).waitFor();
    await page.getByRole("heading", { name: "Opening hours" }).waitFor();
    await page.getByText("Do you deliver?").click();
    await expect(page.getByText("Within the town, on Saturdays.").isVisible()).resolves.toBe(true);
  });

  it("adds an About page to the navigation and shows it on the site", async () => {
    await page.goto(`${suite.server.url}/website/pages/new`);
    await page.getByLabel("Title").fill("About us");
    await page.getByRole("button", { name: "Create page" }).click();
    await page.getByText("Page created.").waitFor();
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByText("Published: visitors see this version now.").waitFor();
    await page.goto(`${suite.server.url}/website/navigation`);
    await page.getByText("About us · /crumb/about-us").waitFor();
    await page.goto(`${suite.server.url}/${SITE}/about-us`);
    await page.getByRole("heading", { level: 1, name: "About us" }).waitFor();
  });
});

describe("building a page without JavaScript", () => {
  let noJs: Awaited<ReturnType<typeof openBrowser>>;
  beforeAll(async () => {
    noJs = await openBrowser({ javaScriptEnabled: false });
    await noJs.context.addCookies(await suite.context.cookies());
  });
  afterAll(() => noJs.close());

  it("adds, moves and saves blocks with plain form posts", async () => {
    const p = await noJs.context.newPage();
    await p.goto(`${suite.server.url}/website/pages/${pageId}`);
    await p.getByLabel("Add a block").selectOption("cta");
    await p.getByRole("button", { name: "Add block" }).click();
    await p.getByText("4. Call to action").waitFor();
    await p.locator('input[name="blocks.3.heading"]').fill("Order a cake");
    await p.locator('input[name="blocks.3.label"]').fill("Write to us");
    await p.locator('input[name="blocks.3.href"]').fill(`/${SITE}/contact`);
    await p.getByRole("button", { name: "Move up block 4" }).click();
    await p.getByText("3. Call to action").waitFor();
    await p.getByRole("button", { name: "Save and publish" }).click();
    await p.getByText("Published: visitors see this version now.").waitFor();
    await p.goto(`${suite.server.url}/${SITE}`);
    await p.getByRole("link", { name: "Write to us" }).waitFor();
    await p.close();
  });

  it("shows a refused field next to the field, keeping what was typed", async () => {
    const p = await noJs.context.newPage();
    await p.goto(`${suite.server.url}/website/pages/${pageId}`);
    await p.getByLabel("Address").fill("shop");
    await p.getByRole("button", { name: "Save draft" }).click();
    await p.getByText(/kept for the site's own pages/).waitFor();
    await expect(p.getByLabel("Address").inputValue()).resolves.toBe("shop");
    await p.close();
  });
});

describe("accessibility (axe, WCAG 2 A/AA)", () => {
  const PAGES: Record<string, () => string> = {
    "the pages list": () => "/website",
    "a new page": () => "/website/pages/new",
    "the page editor": () => `/website/pages/${pageId}`,
    "a page's history": () => `/website/pages/${pageId}/history`,
    "the draft preview": () => `/website/pages/${pageId}/preview`,
    "the navigation": () => "/website/navigation",
    "the public home page": () => `/${SITE}`,
    "a public page": () => `/${SITE}/about-us`,
    "a missing public page": () => `/${SITE}/no-such-page`,
  };

  it.each(Object.keys(PAGES).flatMap((name) => (["wide", "narrow"] as const).map((w) => [name, w] as const)))(
    "%s (%s) has no serious violations",
    async (name, width) => {
      const path = PAGES[name]!();
      await page.setViewportSize(WIDTHS[width]);
      await page.goto(suite.server.url + path);
      expect(await seriousViolations(page, AXE), path).toEqual([]);
    },
  );
});
