/**
 * The contact form, the inbox and the policies in Chromium: a visitor writes through the public contact page
 * (the site's CSP enforced, no JavaScript on the page), the operator reads it in the inbox, writes and publishes
 * a policy from its template, and the visitor reads it; every page passes axe (no serious or critical WCAG 2
 * A/AA violation) at 1280 and 390 pixels wide.
 */
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../helpers/axe";
import { browserSuite, finishSignUp, openBrowser } from "../helpers/browser";
import { uniqueEmail } from "../helpers/client";

// axe is injected into the pages, so this browser bypasses the CSP; the visitor's browser below does not.
const suite = browserSuite({ bypassCSP: true });
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const WIDTHS = { wide: { width: 1280, height: 800 }, narrow: { width: 390, height: 844 } } as const;
const SLUG = "harbor-contact";

let operator: Page;
let visitor: { page: Page; close(): Promise<void> };

beforeAll(async () => {
  operator = await suite.context.newPage();
  const email = uniqueEmail("contact-e2e");
  await operator.goto(`${suite.server.url}/signup`);
  await operator.getByLabel("Email").fill(email);
  await operator.getByLabel("Password").fill("a long enough password");
  await operator.getByRole("button", { name: "Create account" }).click();
  await finishSignUp(operator, suite.server, email);
  await operator.getByRole("heading", { name: "Your workspaces" }).waitFor();
  await operator.getByLabel("Name").fill("Harbor Bakery");
  await operator.getByLabel("Site address").fill(SLUG);
  await operator.getByRole("button", { name: "Create workspace" }).click();
  await operator.getByRole("heading", { name: /Get started/ }).waitFor();

  const browser = await openBrowser();
  visitor = { page: await browser.context.newPage(), close: browser.close };
});
afterAll(() => visitor?.close());

async function axeEverywhere(page: Page, path: string) {
  for (const width of ["wide", "narrow"] as const) {
    await page.setViewportSize(WIDTHS[width]);
    await page.goto(suite.server.url + path);
    expect(await seriousViolations(page, AXE), `${path} (${width})`).toEqual([]);
  }
}

describe("contact and inbox", () => {
  it("shows the inbox's empty state, then a visitor's message sent through the contact page", async () => {
    await axeEverywhere(operator, "/inbox");
    await operator.getByText("Nothing here yet.").waitFor();

    const page = visitor.page;
    await page.goto(`${suite.server.url}/${SLUG}/contact`);
    // The robots' trap is in the form but hidden from people by the stylesheet.
    const trap = page.locator('input[name="website"]');
    expect(await trap.count()).toBe(1);
    expect(await trap.isVisible()).toBe(false);
    await page.getByLabel("Your name").fill("Grace Visitor");
    await page.getByLabel("E-mail address").fill("grace@example.com");
    await page.getByLabel("Your message", { exact: true }).fill("Could you bake a birthday cake for Saturday?");
    await page.getByRole("button", { name: "Send message" }).click();
    await page.getByText("Thank you — your message has been sent.").waitFor();
    expect(new URL(page.url()).pathname).toBe(`/${SLUG}/contact`);

    await axeEverywhere(operator, `/${SLUG}/contact`);
    await axeEverywhere(operator, `/${SLUG}/contact?error=invalid&field=email&field=message`);
    await axeEverywhere(operator, `/${SLUG}/contact?sent=1`);

    await operator.goto(`${suite.server.url}/inbox`);
    await operator.getByRole("link", { name: /Grace Visitor/ }).click();
    await operator.getByRole("heading", { name: "Message from Grace Visitor" }).waitFor();
    await operator.getByText("Could you bake a birthday cake for Saturday?").waitFor();
    const messagePath = new URL(operator.url()).pathname;
    await axeEverywhere(operator, messagePath);
    await axeEverywhere(operator, "/inbox");
  });
});

describe("policies", () => {
  it("writes a policy from its template, publishes it, and shows it on the site", async () => {
    await axeEverywhere(operator, "/website/policies");
    await operator.setViewportSize(WIDTHS.wide);
    await operator.goto(`${suite.server.url}/website/policies`);
    await operator.getByRole("link", { name: "Write Privacy policy" }).click();
    await operator.getByText("We have started you off with a template").waitFor();
    await axeEverywhere(operator, "/website/policies/privacy");
    await operator.getByLabel("Published").check();
    await operator.getByRole("button", { name: "Save" }).click();
    await operator.getByText("Saved and published on your site.").waitFor();

    await visitor.page.goto(`${suite.server.url}/${SLUG}/policies`);
    await visitor.page
      .getByRole("main")
      .getByRole("link", { name: /Privacy policy/ })
      .click();
    await visitor.page.getByRole("heading", { name: "Privacy policy", level: 1 }).waitFor();
    await visitor.page.getByText("Harbor Bakery respects your privacy.").waitFor();

    await axeEverywhere(operator, `/${SLUG}/policies`);
    await axeEverywhere(operator, `/${SLUG}/policies/privacy`);
    await axeEverywhere(operator, `/${SLUG}/policies/terms`);
  });
});
