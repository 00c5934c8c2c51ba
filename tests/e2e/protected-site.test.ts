/**
 * A protected site in Chromium (ADR 023): the owner protects the site in /settings/site (asked to confirm,
 * the password shown on request), a visitor opening a page lands on the unlock page in the site's frame, is
 * refused a wrong password beside the field and let in with the right one, on to the page they asked for.
 * The settings page and the unlock page (with and without an error) pass axe at 1280 and 390 pixels wide.
 */
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../helpers/axe";
import { browserSuite, signUpWithWorkspace, openBrowser } from "../helpers/browser";
import { uniqueEmail } from "../helpers/client";

// axe is injected into the pages, so this browser bypasses the CSP; the visitor's browser below does not.
const suite = browserSuite({ bypassCSP: true });
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const WIDTHS = { wide: { width: 1280, height: 800 }, narrow: { width: 390, height: 844 } } as const;
/** Set SCREENSHOTS_DIR to keep a picture of each checked page (for a reviewer's eyes); none by default. */
const SHOTS = process.env.SCREENSHOTS_DIR;
const SLUG = "quiet-atelier";
const PASSWORD = "linen and oak 7";

let operator: Page;
let visitor: { page: Page; close(): Promise<void> };

beforeAll(async () => {
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  operator = await suite.context.newPage();
  const email = uniqueEmail("protected-e2e");
  await signUpWithWorkspace(operator, suite.server, {
    email,
    password: "a long enough password",
    name: "Quiet Atelier",
    slug: SLUG,
  });

  const browser = await openBrowser();
  visitor = { page: await browser.context.newPage(), close: browser.close };
});
afterAll(() => visitor?.close());

/** axe at both widths, and a full-page screenshot of each, of what `page` shows now (after `load`). */
async function checkAndShoot(page: Page, name: string, load: () => Promise<unknown>) {
  for (const width of ["wide", "narrow"] as const) {
    await page.setViewportSize(WIDTHS[width]);
    await load();
    expect(await seriousViolations(page, AXE), `${name} (${width})`).toEqual([]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}-${WIDTHS[width].width}.png`, fullPage: true });
  }
}

describe("a protected site", () => {
  it("is protected in /settings/site and unlocked by a visitor with the password", async () => {
    // The owner finds the page in the Settings section of the sidebar.
    await operator.getByRole("link", { name: "Site visibility" }).click();
    await operator.getByRole("heading", { name: "Site visibility", level: 1 }).waitFor();
    await checkAndShoot(operator, "settings-site-public", () => operator.goto(`${suite.server.url}/settings/site`));

    await operator.setViewportSize(WIDTHS.wide);
    await operator.getByLabel(/Protected with a password/).check();
    const password = operator.getByLabel("Password", { exact: true });
    await password.fill(PASSWORD);
    await operator.getByRole("button", { name: "Show" }).click();
    expect(await password.getAttribute("type")).toBe("text");
    await operator.getByText("Your site is public now. Once you save").waitFor();
    if (SHOTS) await operator.screenshot({ path: `${SHOTS}/settings-site-choosing-1280.png`, fullPage: true });

    // Closing a live site asks first: dismissed, nothing changes.
    operator.once("dialog", (dialog) => void dialog.dismiss());
    await operator.getByRole("button", { name: "Save visibility" }).click();
    await visitor.page.goto(`${suite.server.url}/${SLUG}`);
    expect(new URL(visitor.page.url()).pathname).toBe(`/${SLUG}`);

    operator.once("dialog", (dialog) => {
      expect(dialog.message()).toContain("Make your site private?");
      void dialog.accept();
    });
    await operator.getByRole("button", { name: "Save visibility" }).click();
    await operator.getByText("Your site is now protected.").waitFor();
    await operator.getByText("Password protected", { exact: true }).waitFor();
    await checkAndShoot(operator, "settings-site-protected", () => operator.reload());

    // The visitor (the site's CSP enforced, no JavaScript on the page) asks for the contact page.
    const page = visitor.page;
    await page.goto(`${suite.server.url}/${SLUG}/contact`);
    await page.getByRole("heading", { name: "This site is private" }).waitFor();
    const url = new URL(page.url());
    expect(url.pathname).toBe(`/${SLUG}/unlock`);
    expect(url.searchParams.get("next")).toBe(`/${SLUG}/contact`);
    expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(0);

    await page.getByLabel("Password").fill("not it at all");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByText("That password is not right").waitFor();
    expect(await page.getByLabel("Password").getAttribute("aria-invalid")).toBe("true");

    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("heading", { name: "Contact", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/${SLUG}/contact`);
    const [cookie] = (await visitor.page.context().cookies()).filter((c) => c.name === "atrium_site_unlock");
    expect(cookie).toMatchObject({ path: `/${SLUG}`, httpOnly: true, sameSite: "Lax" });
    await page.goto(`${suite.server.url}/${SLUG}`);
    expect(new URL(page.url()).pathname).toBe(`/${SLUG}`);

    // The unlock page as a locked visitor sees it, and with the refusal, checked and photographed.
    await checkAndShoot(operator, "unlock", () => operator.goto(`${suite.server.url}/${SLUG}/unlock?next=/${SLUG}`));
    await checkAndShoot(operator, "unlock-wrong-password", async () => {
      await operator.goto(`${suite.server.url}/${SLUG}/unlock?next=/${SLUG}`);
      await operator.getByLabel("Password").fill("still not it");
      await operator.getByRole("button", { name: "Continue" }).click();
      await operator.getByText("That password is not right").waitFor();
    });
  });
});
