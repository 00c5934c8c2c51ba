/**
 * Every page built so far, checked with axe in Chromium: no serious or critical WCAG 2 A/AA violation
 * (DESIGN conventions). axe is injected into the page, so this suite alone lets the browser bypass the CSP
 * (public pages allow no script at all).
 */
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../helpers/axe";
import { setStatus } from "~/modules/accounts/users.server";
import { finishSignUp, browserSuite } from "../helpers/browser";
import { linkIn, mailedText, uniqueEmail } from "../helpers/client";

const suite = browserSuite({ bypassCSP: true });
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

const violations = (page: Page) => seriousViolations(page, AXE);

let page: Page;
let email = "";

beforeAll(async () => {
  // An operator with a workspace and an API key, so every page shows its full content.
  page = await suite.context.newPage();
  email = uniqueEmail("a11y");
  await page.goto(`${suite.server.url}/signup`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Create account" }).click();
  await finishSignUp(page, suite.server, email);
  await page.getByRole("heading", { name: "Your workspaces" }).waitFor();
  await page.getByLabel("Name").fill("Acme Bakery");
  await page.getByLabel("Site address").fill("acme");
  await page.getByRole("button", { name: "Create workspace" }).click();
  await page.getByRole("heading", { name: /Get started/ }).waitFor();
  await page.goto(`${suite.server.url}/settings/api-keys`);
  await page.getByLabel("Name").fill("Checker");
  await page.getByRole("button", { name: "Generate New Key" }).click();
  await page.getByTestId("new-api-key").waitFor();
  // A SOP with a step and a trigger, so its page shows the editor, the trigger and the secret panel.
  await page.goto(`${suite.server.url}/settings/sops`);
  await page.getByLabel("Name").fill("Checker SOP");
  await page.getByLabel("Slug").fill("checker-sop");
  await page.getByRole("button", { name: "Create SOP" }).click();
  await page.getByRole("button", { name: "Add step" }).click();
  await page.getByRole("button", { name: "Create trigger" }).click();
  await page.getByTestId("trigger-secret").waitFor();
  sopPath = new URL(page.url()).pathname;
  // A page, so Discovery's page settings (`/discovery/pages/:page`) have one to show.
  await page.goto(`${suite.server.url}/website/pages/new`);
  await page.getByLabel("Title").fill("About us");
  await page.getByRole("button", { name: "Create page" }).click();
  await page.getByText("Page created.").waitFor();
  pageId = new URL(page.url()).pathname.split("/").at(-1) ?? "";
});

let sopPath = "";
let pageId = "";

const PAGES = [
  "/",
  "/get-started",
  "/settings",
  "/settings/account",
  "/settings/api-keys",
  "/settings/sops",
  "/settings/outbox",
  "/settings/integrations/oauth-apps",
  "/settings/integrations/connected-apps",
  "/website",
  "/website/pages/new",
  "/website/navigation",
  "/website/branding",
  "/website/media",
  "/website/profile",
  "/website/policies",
  "/website/policies/privacy",
  "/inbox",
  "/discovery",
  "/discovery/pages/:page",
  "/discovery/redirects",
  "/discovery/llms",
  "/discovery/indexnow",
  "/settings/site",
  "/settings/domains",
  "/settings/page-status",
  "/shop",
  "/shop/collections",
  "/scheduling", // the console's own 404, inside the shell
  "/acme",
  "/acme/contact",
  "/acme/policies",
  "/acme/no-such-page", // the site's own 404, inside its frame
  "/no-such-site",
];

/** The console shell's two layouts (ADR 015): the sidebar, and the top bar with its Menu on a phone. */
const WIDTHS = { wide: { width: 1280, height: 800 }, narrow: { width: 390, height: 844 } } as const;

describe("accessibility (axe, WCAG 2 A/AA)", () => {
  it.each(PAGES.flatMap((path) => (["wide", "narrow"] as const).map((width) => [path, width] as const)))(
    "%s (%s) has no serious violations",
    async (path, width) => {
      await page.setViewportSize(WIDTHS[width]);
      await page.goto(suite.server.url + path.replace(":page", pageId));
      expect(await violations(page)).toEqual([]);
    },
  );

  it("a protected site's unlock page has no serious violations, wide and narrow", async () => {
    const settings = (visibility: string) =>
      page.request.post(`${suite.server.url}/settings/site`, {
        form: { visibility, password: "a long enough password" },
        headers: { origin: suite.server.url },
      });
    expect((await settings("protected")).status()).toBeLessThan(400);
    try {
      for (const width of ["wide", "narrow"] as const) {
        await page.setViewportSize(WIDTHS[width]);
        await page.goto(`${suite.server.url}/acme/about`);
        expect(new URL(page.url()).pathname).toBe("/acme/unlock");
        await page.getByLabel("Password").waitFor();
        expect(await violations(page)).toEqual([]);
      }
    } finally {
      await settings("public");
      await page.setViewportSize(WIDTHS.wide);
    }
  });

  it("the narrow shell with its menu and the workspace switcher open has no serious violations", async () => {
    await page.setViewportSize(WIDTHS.narrow);
    await page.goto(`${suite.server.url}/settings`);
    await page.getByText("Menu", { exact: true }).click();
    await page.getByText("Switch workspace").filter({ visible: true }).click();
    await page.getByRole("link", { name: "New workspace" }).filter({ visible: true }).waitFor();
    expect(await violations(page)).toEqual([]);
    await page.setViewportSize(WIDTHS.wide);
  });

  it("the OAuth consent page has no serious violations", async () => {
    await page.goto(`${suite.server.url}/settings/integrations/oauth-apps`);
    await page.getByLabel("Name").fill("Checker app");
    await page.getByLabel("Redirect URIs").fill("https://checker.example.test/cb");
    await page.getByRole("button", { name: "Register app" }).click();
    expect(await violations(page)).toEqual([]);
    const clientId = (await page.getByTestId("client-id").textContent()) ?? "";
    await page.goto(
      `${suite.server.url}/oauth/authorize?client_id=${clientId}&response_type=code&scope=read_profile%20read_data`,
    );
    await page.getByRole("button", { name: "Approve" }).waitFor();
    expect(await violations(page)).toEqual([]);
  });

  it("a SOP's page, with its editor and a new secret shown, has no serious violations", async () => {
    await page.goto(suite.server.url + sopPath);
    await page.getByRole("button", { name: "Rotate secret" }).waitFor();
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await page.getByTestId("trigger-secret").waitFor();
    expect(await violations(page)).toEqual([]);
  });

  it("an invitation's pages, from the inviter's list to the newcomer's sign-up and acceptance, have no serious violations", async () => {
    const invitee = uniqueEmail("a11y-invitee");
    await page.goto(`${suite.server.url}/settings`);
    await page.locator("#members").getByLabel("Email").fill(invitee);
    await page.getByRole("button", { name: "Send invitation" }).click();
    await page.getByText(`Invitation sent to ${invitee}`).waitFor();
    expect(await page.locator("#members").getByLabel("Email").inputValue()).toBe("");
    expect(await violations(page)).toEqual([]);

    // The newcomer follows the e-mailed link in a browser of their own: signed out, with no account yet.
    const theirs = await suite.context.browser()!.newContext({ bypassCSP: true });
    try {
      const newcomer = await theirs.newPage();
      await newcomer.goto(suite.server.url + linkIn(mailedText(suite.server.url, invitee), "/invitations"));
      await newcomer.getByRole("heading", { name: "Join Acme Bakery" }).waitFor();
      expect(await seriousViolations(newcomer, AXE)).toEqual([]);
      await newcomer.getByRole("link", { name: "create an account" }).click();
      await newcomer.getByLabel("Email").fill(invitee);
      await newcomer.getByLabel("Password").fill("a long enough password");
      await newcomer.getByRole("button", { name: "Create account" }).click();
      await newcomer.getByRole("heading", { name: "Check your email" }).waitFor();
      expect(await seriousViolations(newcomer, AXE)).toEqual([]);
      await newcomer.goto(suite.server.url + linkIn(mailedText(suite.server.url, invitee), "/signup/confirm"));
      await newcomer.getByRole("button", { name: "Create my account" }).waitFor();
      expect(await seriousViolations(newcomer, AXE)).toEqual([]);
      await newcomer.getByRole("button", { name: "Create my account" }).click();
      await newcomer.getByRole("button", { name: "Accept and join Acme Bakery" }).waitFor();
      expect(await seriousViolations(newcomer, AXE)).toEqual([]);
    } finally {
      await theirs.close();
    }
  });

  // Last: signing out ends the session the pages above used.
  it.each(["/login", "/signup"])("%s has no serious violations when signed out", async (path) => {
    await suite.context.clearCookies();
    await page.goto(suite.server.url + path);
    expect(await violations(page)).toEqual([]);
  });

  it("a suspended owner's site, answered with the neutral unavailable page, has no serious violations", async () => {
    await setStatus(suite.server.db, email, "suspended");
    try {
      const response = await page.goto(`${suite.server.url}/acme`);
      expect(response?.status()).toBe(503);
      await page.getByRole("heading", { name: "This site is unavailable" }).waitFor();
      expect(await violations(page)).toEqual([]);
    } finally {
      await setStatus(suite.server.db, email, "active");
    }
  });
});
