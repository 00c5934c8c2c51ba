/**
 * The console shell (ADR 015) in a browser without JavaScript: the sidebar's sections follow the selected
 * workspace, the current page is marked, the switcher and the narrow "Menu" work by plain HTML, and a console
 * path not built yet is the console's own 404 inside the shell.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { browserSuite, finishSignUp } from "../helpers/browser";
import { uniqueEmail } from "../helpers/client";

const suite = browserSuite({ javaScriptEnabled: false });
let page: Page;

const consoleNav = () => page.getByRole("navigation", { name: "Console" });
const navLink = (name: string) => consoleNav().getByRole("link", { name, exact: true });

async function createWorkspace(name: string, slug: string) {
  await page.goto(`${suite.server.url}/`);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Site address").fill(slug);
  await page.getByRole("button", { name: "Create workspace" }).click();
  await page.getByRole("heading", { name: /Get started/ }).waitFor();
}

beforeAll(async () => {
  page = await suite.context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  const email = uniqueEmail("shell");
  await page.goto(`${suite.server.url}/signup`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Create account" }).click();
  await finishSignUp(page, suite.server, email);
  await page.getByRole("heading", { name: "Your workspaces" }).waitFor();
});

describe("console shell", () => {
  it("shows only the account's pages until a workspace is selected, and invites choosing one", async () => {
    await navLink("Workspaces").waitFor();
    expect(await navLink("API keys").isVisible()).toBe(true);
    for (const name of ["Get started", "SOPs", "Outbox", "Workspace & members", "View site"]) {
      expect(await navLink(name).count(), name).toBe(0);
    }
    expect(await consoleNav().getByText("No workspace selected").isVisible()).toBe(true);
    expect(await navLink("Choose or create a workspace").getAttribute("href")).toBe("/");

    await createWorkspace("Alpha Bakery", "alpha-shell");
    await createWorkspace("Beta Books", "beta-shell");
    for (const name of ["Get started", "SOPs", "Outbox", "Workspace & members", "View site"]) {
      expect(await navLink(name).isVisible(), name).toBe(true);
    }
    expect(await consoleNav().locator(".switcher-current").innerText()).toBe("Beta Books");
  });

  it("marks the current page, and only it, with aria-current", async () => {
    await page.goto(`${suite.server.url}/settings/sops`);
    expect(await navLink("SOPs").getAttribute("aria-current")).toBe("page");
    expect(await page.locator('nav [aria-current="page"]').filter({ visible: true }).count()).toBe(1);
    await navLink("Workspace & members").click();
    await page.waitForURL(/\/settings$/);
    expect(await navLink("Workspace & members").getAttribute("aria-current")).toBe("page");
    expect(await navLink("SOPs").getAttribute("aria-current")).toBeNull();
    expect(await page.locator('nav [aria-current="page"]').filter({ visible: true }).count()).toBe(1);
  });

  it("switches the workspace without JavaScript", async () => {
    await page.goto(`${suite.server.url}/settings`);
    await consoleNav().getByText("Switch workspace").click();
    await consoleNav().getByRole("button", { name: "Switch to Alpha Bakery" }).click();
    await page.waitForURL(/\/get-started$/);
    await page.getByRole("heading", { name: /Get started with Alpha Bakery/ }).waitFor();
    expect(await consoleNav().locator(".switcher-current").innerText()).toBe("Alpha Bakery");
    expect(await navLink("View site").getAttribute("href")).toBe("/alpha-shell");
  });

  it("collapses behind Menu on a narrow screen, whose links work", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${suite.server.url}/settings`);
      expect(await navLink("SOPs").isVisible()).toBe(false);
      await page.getByText("Menu", { exact: true }).click();
      await navLink("SOPs").click();
      await page.waitForURL(/\/settings\/sops$/);
      await page.getByRole("heading", { name: "SOPs" }).waitFor();
      // The menu closes on the new page; nothing is wider than the screen.
      expect(await navLink("SOPs").isVisible()).toBe(false);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.getByText("Menu", { exact: true }).click();
      expect(await navLink("SOPs").getAttribute("aria-current")).toBe("page");
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it("answers a console page not built yet with the console's 404 inside the shell", async () => {
    for (const path of ["/scheduling/nope/x", "/shop/x/y", "/customers/x/y"]) {
      const response = await page.goto(`${suite.server.url}${path}`);
      expect(response?.status(), path).toBe(404);
      await page.getByRole("heading", { name: "Page not found" }).waitFor();
      expect(await navLink("SOPs").isVisible()).toBe(true);
      expect(await page.getByText("Site not found").count()).toBe(0);
    }
  });

  it("still renders a public site at its address", async () => {
    const response = await page.goto(`${suite.server.url}/alpha-shell`);
    expect(response?.status()).toBe(200);
    await page.getByRole("link", { name: "Alpha Bakery" }).first().waitFor();
    expect(await consoleNav().count()).toBe(0);
  });
});
