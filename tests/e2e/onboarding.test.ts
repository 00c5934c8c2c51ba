/** A new operator, in a real browser: sign up, create a workspace, find it in the picker, open its site. */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite, finishSignUp } from "../helpers/browser";
import { uniqueEmail } from "../helpers/client";

const suite = browserSuite();

async function createWorkspace(page: Page, name: string, slug: string) {
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Site address").fill(slug);
  await page.getByRole("button", { name: "Create workspace" }).click();
}

describe("onboarding in Chromium", () => {
  const email = uniqueEmail("e2e");
  const password = "a long enough password";

  it("signs up, creates Acme at /acme, sees it in the picker and opens its site", async () => {
    const page = await suite.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));

    await page.goto(`${suite.server.url}/`);
    await expect.poll(() => new URL(page.url()).pathname).toBe("/login");
    await page.getByRole("link", { name: "Create an account" }).click();
    // The sign-in page has the same two fields: wait for the sign-up page before typing into them.
    await page.getByRole("heading", { name: "Create your Atrium account" }).waitFor();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Create account" }).click();
    await finishSignUp(page, suite.server, email);

    await page.getByRole("heading", { name: "Your workspaces" }).waitFor();
    await page.getByText("You have no workspaces yet").waitFor();
    await createWorkspace(page, "Acme", "acme");

    await page.getByRole("heading", { name: "Get started with Acme" }).waitFor();
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Workspaces" }).click();
    const picker = page.getByRole("list", { name: "Workspaces" });
    await picker.getByText("Acme", { exact: true }).waitFor();
    expect(await picker.textContent()).toContain("/acme");

    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "View site" }).click();
    await page.getByRole("heading", { level: 1, name: "Acme" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/acme");
    expect(await page.title()).toBe("Acme");
    // The public page runs no script: CSP says so, and no CSP violation or error was reported.
    // Structured data (JSON-LD) is data, not a script: nothing else may be there.
    expect(await page.locator('script:not([type="application/ld+json"])').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it.each([
    ["settings", "reserved for Atrium's own pages"],
    ["api", "reserved for Atrium's own pages"],
  ])("refuses %j as a site address with a clear message next to the field", async (slug, message) => {
    const page = await suite.context.newPage();
    await page.goto(`${suite.server.url}/`);
    await createWorkspace(page, "Reserved Co", slug);
    const field = page.getByLabel("Site address");
    await expect.poll(() => field.getAttribute("aria-invalid")).toBe("true");
    const describedBy = (await field.getAttribute("aria-describedby")) ?? "";
    const errorId = describedBy.split(" ").find((id) => id.endsWith("-error"));
    expect(await page.locator(`#${errorId}`).textContent()).toContain(message);
    expect(new URL(page.url()).pathname).toBe("/");
    await page.close();
  });

  it("signs out, and signs back in to the same workspace", async () => {
    const page = await suite.context.newPage();
    await page.goto(`${suite.server.url}/get-started`);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/login");
    await page.goto(`${suite.server.url}/settings`);
    await expect.poll(() => new URL(page.url()).pathname).toBe("/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    // Back where sign-in was asked for; a new session has no workspace selected yet, so the picker.
    await page.getByRole("heading", { name: "Your workspaces" }).waitFor();
    await page.getByRole("button", { name: "Open Acme" }).click();
    await page.getByRole("heading", { name: "Get started with Acme" }).waitFor();
    await page.close();
  });
});
