/**
 * Discovery in Chromium (ADR 021), a short journey: set a page's search title and see the preview follow, add a
 * redirect and follow it on the public site, turn llms.txt on and open it from the console, delete a redirect
 * after the confirmation; every Discovery page passes axe at 1280 and 390 wide, and is photographed at both.
 */
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../helpers/axe";
import { browserSuite, signUpWithWorkspace } from "../helpers/browser";
import { uniqueEmail } from "../helpers/client";

// axe is injected as a script tag, which the console's CSP refuses otherwise.
const suite = browserSuite({ bypassCSP: true });
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const PASSWORD = "a long enough password";
const WIDTHS = { wide: { width: 1280, height: 800 }, narrow: { width: 390, height: 844 } } as const;
// Where the screenshots of the new pages go for review (outside the repository), when that folder exists.
const SHOTS = process.env.DISCOVERY_SHOTS_DIR ?? "";
const SITE = `disco-${Math.random().toString(36).slice(2, 6)}`;

let page: Page;
let aboutId = "";

async function apiPost(path: string, data: unknown) {
  const res = await page.request.post(`${suite.server.url}${path}`, {
    data: data as Record<string, unknown>,
    headers: { origin: suite.server.url },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return (await res.json()) as { id: string };
}

beforeAll(async () => {
  page = await suite.context.newPage();
  const email = uniqueEmail("discovery-e2e");
  await signUpWithWorkspace(page, suite.server, { email, password: PASSWORD, name: "Harbor Bakery", slug: SITE });
  for (const [title, slug, description] of [
    ["Welcome", "welcome", "Fresh bread by the harbour, every morning."],
    ["About us", "about", "Who we are."],
  ]) {
    const { id } = await apiPost("/api/editor/pages", {
      title,
      slug,
      description,
      blocks: [{ type: "richText", markdown: `About ${title}.` }],
    });
    await apiPost(`/api/editor/pages/${id}/publish`, {});
    if (slug === "about") aboutId = id;
  }
});

async function checkPage(path: string, name: string) {
  for (const width of ["wide", "narrow"] as const) {
    await page.setViewportSize(WIDTHS[width]);
    await page.goto(`${suite.server.url}${path}`);
    expect(await seriousViolations(page, AXE), `${path} (${width})`).toEqual([]);
    // Nothing wider than the screen: a phone scrolls down, never sideways.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} (${width})`).toBeLessThanOrEqual(0);
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
    }
  }
  await page.setViewportSize(WIDTHS.wide);
}

describe("the Discovery journey", () => {
  it("sets a page's search title, and the preview and the public page's title follow", async () => {
    await page.goto(`${suite.server.url}/discovery`);
    await page
      .getByRole("navigation", { name: "Discovery" })
      .getByRole("link", { name: "Search appearance" })
      .waitFor();
    await page.getByRole("link", { name: "Edit search settings of About us" }).click();
    await page.getByRole("heading", { name: "About us" }).waitFor();
    await page.getByLabel("Search title").fill("About Harbor Bakery, bakers since 1990");
    await page.getByLabel("Language").fill("en-gb");
    await page.getByRole("button", { name: "Save search settings" }).click();
    await page.getByText("Saved: search engines see it").waitFor();
    await page.locator(".snippet-title", { hasText: "About Harbor Bakery, bakers since 1990" }).waitFor();
    expect(await page.getByLabel("Language").inputValue()).toBe("en-GB");

    await page.goto(`${suite.server.url}/${SITE}/about`);
    expect(await page.title()).toBe("About Harbor Bakery, bakers since 1990 · Harbor Bakery");
  });

  it("adds a redirect and follows it on the public site, and refuses a loop beside the field", async () => {
    await page.goto(`${suite.server.url}/discovery/redirects`);
    await page.getByText("No redirects yet.").waitFor();
    await page.getByLabel("Old address").fill("/our-story");
    await page.getByLabel("New address").fill("/about");
    await page.getByRole("button", { name: "Add redirect" }).click();
    await page.getByText("Redirect added.").waitFor();
    await page.getByRole("cell", { name: "/our-story", exact: true }).waitFor();

    await page.getByLabel("Old address").fill("/about");
    await page.getByLabel("New address").fill("/our-story");
    await page.getByRole("button", { name: "Add redirect" }).click();
    await page.locator("#field-to-error", { hasText: "This would make a loop" }).waitFor();

    await page.goto(`${suite.server.url}/${SITE}/our-story?utm_source=flyer`);
    expect(page.url()).toBe(`${suite.server.url}/${SITE}/about?utm_source=flyer`);
    await page.getByText("About About us.").waitFor();
  });

  it("turns llms.txt on and opens it from the console", async () => {
    await page.goto(`${suite.server.url}/discovery/llms`);
    await page.getByLabel("Publish llms.txt").check();
    await page.getByLabel("Summary").fill("A family bakery on the harbour: sourdough, pastries and coffee.");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved: your site publishes llms.txt.").waitFor();
    await page.getByRole("link", { name: `${suite.server.url}/${SITE}/llms.txt` }).click();
    await page.waitForURL(`${suite.server.url}/${SITE}/llms.txt`);
    const text = await page.locator("body").innerText();
    expect(text).toContain("# Harbor Bakery");
    expect(text).toContain("> A family bakery on the harbour: sourdough, pastries and coffee.");
    expect(text).toContain(`- [About Harbor Bakery, bakers since 1990](${suite.server.url}/${SITE}/about)`);
  });

  it("deletes a redirect only after the confirmation", async () => {
    await page.goto(`${suite.server.url}/discovery/redirects`);
    page.once("dialog", (dialog) => void dialog.dismiss());
    await page.getByRole("button", { name: "Delete the redirect from /our-story" }).click();
    await page.getByRole("cell", { name: "/our-story", exact: true }).waitFor();
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Delete the redirect from /our-story" }).click();
    await page.getByText("Redirect deleted.").waitFor();
    await page.getByText("No redirects yet.").waitFor();
  });
});

describe("every Discovery page", () => {
  it("has no serious axe violations and fits the screen, wide and narrow", async () => {
    await apiPost("/api/editor/discovery/seo/redirects", { from: "/old-menu", to: "https://example.com/menu" });
    await checkPage("/discovery", "discovery");
    await checkPage(`/discovery/pages/${aboutId}`, "discovery-page");
    await checkPage("/discovery/redirects", "discovery-redirects");
    await checkPage("/discovery/llms", "discovery-llms");
  });
});
