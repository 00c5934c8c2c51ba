/**
 * "Page status" in Chromium (issue 15, item 4; ADR 026 "Diagnosis"): an admin opens it from Settings, sees the
 * answer for the home page (how it routes, cached or why not, what refreshes it in words), asks about another
 * address, and refreshes it. The same without JavaScript. axe at 1280 and 390 wide, with screenshots.
 */
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../helpers/axe";
import { browserSuite, openBrowser, signUpWithWorkspace } from "../helpers/browser";
import { uniqueEmail } from "../helpers/client";

// Screenshots for review go where SHOTS_DIR names (outside the repository), when it is set.
const SHOTS = process.env.SHOTS_DIR;
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const PASSWORD = "a long enough password";
const WIDTHS = { wide: { width: 1280, height: 900 }, narrow: { width: 390, height: 844 } } as const;
const SLUG = `status-e2e-${process.pid}`;

const suite = browserSuite({ bypassCSP: true });
let page: Page;

beforeAll(async () => {
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  page = await suite.context.newPage();
  await signUpWithWorkspace(page, suite.server, {
    email: uniqueEmail("page-status-e2e"),
    password: PASSWORD,
    name: "Harbour Bakery",
    slug: SLUG,
  });
});

async function audit(name: string) {
  for (const [label, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    expect(await seriousViolations(page, AXE), `${name} (${label})`).toEqual([]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/page-status-${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize(WIDTHS.wide);
}

describe("Page status", () => {
  it("is in Settings and answers for the home page", async () => {
    await page.goto(`${suite.server.url}/settings`);
    await page.getByRole("link", { name: "Page status" }).click();
    await page.getByRole("heading", { name: "Page status", level: 1 }).waitFor();
    await expect.poll(() => page.getByLabel("Public address or path").inputValue()).toBe(`${suite.server.url}/${SLUG}`);
    const answer = page.getByTestId("answer");
    await expect.poll(() => answer.innerText()).toContain("Harbour Bakery");
    expect(await answer.innerText()).toContain("The home page");
    const refreshers = page.getByRole("table");
    expect(await refreshers.innerText()).toContain("Branding");
    expect(await refreshers.innerText()).toContain("/api/webhooks/branding");
    expect(await page.getByRole("link", { name: "Branding" }).last().getAttribute("href")).toBe("/website/branding");
    await audit("home");
  });

  it("asks about another address and says why it is not cached", async () => {
    await page.getByLabel("Public address or path").fill("/no-such-page");
    await page.getByRole("button", { name: "Check" }).click();
    await expect.poll(() => page.getByTestId("cache-verdict").innerText()).toContain("Nothing is published");
    expect(new URL(page.url()).searchParams.get("url")).toBe("/no-such-page");
    await audit("missing");
    await page.getByLabel("Public address or path").fill("not an address");
    await page.getByRole("button", { name: "Check" }).click();
    await page.getByText("Enter a full address").waitFor();
    await audit("invalid");
  });

  it("refreshes the home page on request, saying it is never needed after a save", async () => {
    await page.goto(`${suite.server.url}/settings/page-status`);
    expect(await page.getByText("Never needed after a save").count()).toBe(1);
    const purged: string[][] = [];
    const stop = suite.server.atrium.runtime.services.pageCache.onPurge((tags) => purged.push([...tags]));
    try {
      await page.getByRole("button", { name: "Refresh now" }).click();
      await page.getByText(/^Refreshed:/).waitFor();
    } finally {
      stop();
    }
    expect(purged).toHaveLength(1);
    expect(purged[0]!.some((tag) => tag.endsWith(":pages"))).toBe(true);
    await audit("refreshed");
  });

  it("works without JavaScript", async () => {
    const cookies = await suite.context.cookies();
    const browser = await openBrowser({ javaScriptEnabled: false });
    try {
      await browser.context.addCookies(cookies);
      const plain = await browser.context.newPage();
      await plain.goto(`${suite.server.url}/settings/page-status`);
      await plain.getByLabel("Public address or path").fill("/contact");
      await plain.getByRole("button", { name: "Check" }).click();
      await expect.poll(() => plain.getByTestId("answer").innerText()).toContain("The contact page");
      await plain.getByRole("button", { name: "Refresh now" }).click();
      await plain.getByText(/^Refreshed:/).waitFor();
    } finally {
      await browser.close();
    }
  });
});
