/**
 * The customers issue's "done when" (issue 16), in Chromium: a visitor signs in on a business's site with an
 * e-mailed code (read where the development outbox puts it: the server's log), edits their profile, opens a
 * ticket, sees the operator's reply from /inbox in their portal and in their e-mail, and can export or erase
 * their data; none of it is visible on another site or to another customer, who signs in by the e-mailed link.
 * Every new page passes axe at 1280 and 390 pixels wide; with SHOTS_DIR set, each is photographed at both.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../helpers/axe";
import { browserSuite, openBrowser, signUpWithWorkspace } from "../helpers/browser";
import { lastMailTo, uniqueEmail } from "../helpers/client";
import { codeMailTo, signInCustomer } from "../helpers/customers";
import { issueManageToken } from "~/modules/customers/manage-tokens.server";

const suite = browserSuite({ bypassCSP: true });
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const WIDTHS = { wide: { width: 1280, height: 860 }, narrow: { width: 390, height: 844 } } as const;
const SHOTS = process.env.SHOTS_DIR;
const SLUG = "harbor-portal";
const OTHER = "other-portal";

let operator: Page;
let ada: { context: BrowserContext; page: Page; close(): Promise<void> };
const adaEmail = uniqueEmail("ada");

/** axe at both widths (and the screenshots for review), on the page as it is now. */
async function check(page: Page, name: string) {
  const url = page.url();
  for (const width of ["wide", "narrow"] as const) {
    await page.setViewportSize(WIDTHS[width]);
    await page.goto(url);
    expect(await seriousViolations(page, AXE), `${name} (${width})`).toEqual([]);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, `portal-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(WIDTHS.wide);
}

beforeAll(async () => {
  operator = await suite.context.newPage();
  await signUpWithWorkspace(operator, suite.server, {
    email: uniqueEmail("owner"),
    password: "a long enough password",
    name: "Harbor Bakery",
    slug: SLUG,
  });
  const browser = await openBrowser({ bypassCSP: true });
  ada = { context: browser.context, page: await browser.context.newPage(), close: browser.close };
});
afterAll(() => ada?.close());

describe("a customer's portal", () => {
  it("signs in with an e-mailed code from the site's header, and edits the profile", async () => {
    const page = ada.page;
    await page.goto(`${suite.server.url}/${SLUG}`);
    await page.getByRole("link", { name: "Account" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await check(page, "login");
    await page.getByRole("textbox", { name: "E-mail address" }).fill(adaEmail);
    await page.getByRole("button", { name: "E-mail me a code" }).click();
    await page.getByRole("heading", { name: "Check your e-mail" }).waitFor();
    await page.getByLabel("Code").fill("000000");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText(/That code is not right/).waitFor();
    await page.getByLabel("Code").fill(codeMailTo(suite.server.url, adaEmail).code);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Your account" }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/${SLUG}/account`);
    await check(page, "account");

    await page.getByRole("navigation", { name: "Your account" }).getByRole("link", { name: "Profile" }).click();
    await page.getByLabel("Name").fill("Ada Lovelace");
    await page.getByLabel("Phone").fill("+44 20 7946 0018");
    await page.getByRole("button", { name: "Save details" }).click();
    await page.getByText("Your details are saved.").waitFor();
    await page.getByLabel(/news and offers/).check();
    await page.getByRole("button", { name: "Save preferences" }).click();
    await page.getByText("Your e-mail preferences are saved.").waitFor();
    await check(page, "profile");
  });

  it("opens a ticket, which the operator answers from the inbox; the reply reaches the portal and the e-mail", async () => {
    const page = ada.page;
    await page.goto(`${suite.server.url}/${SLUG}/tickets`);
    await check(page, "tickets-empty");
    await page.getByLabel("Subject").fill("A cake for Saturday");
    await page.getByLabel("How can we help?").fill("Could you bake a lemon cake for 12 people?");
    await page.getByRole("button", { name: "Send request" }).click();
    await page.getByText("Your request is sent.").waitFor();
    const ticketUrl = page.url();
    await check(page, "ticket");

    await operator.goto(`${suite.server.url}/inbox`);
    await operator.getByRole("link", { name: /A cake for Saturday/ }).click();
    await operator.getByRole("heading", { name: "#1 A cake for Saturday" }).waitFor();
    await check(operator, "console-ticket");
    await operator.getByLabel(/Reply to Ada Lovelace/).fill("Yes! Lemon it is — pick it up after 10.");
    await operator.getByRole("button", { name: "Send reply" }).click();
    await operator.getByText("Reply sent.").waitFor();
    await operator.goto(`${suite.server.url}/inbox`);
    await check(operator, "console-inbox");

    await page.goto(ticketUrl);
    await page.getByText("Yes! Lemon it is — pick it up after 10.").waitFor();
    await page.getByText("Answered", { exact: true }).first().waitFor();
    await expect
      .poll(async () => (await lastMailTo(suite.server.url, adaEmail)).subject, { timeout: 5000 })
      .toBe("Re: A cake for Saturday [#1]");
    expect((await lastMailTo(suite.server.url, adaEmail)).body).toContain("Yes! Lemon it is");
    await page.goto(`${suite.server.url}/${SLUG}/tickets`);
    await check(page, "tickets");

    await operator.goto(`${suite.server.url}/customers`);
    await check(operator, "console-customers");
    await operator.getByRole("link", { name: "Ada Lovelace" }).click();
    await operator.getByText("Opened request #1: A cake for Saturday").waitFor();
    await check(operator, "console-customer");
  });

  it("shows the operator a native notice in the desktop shell when a new request arrives", async () => {
    const desk = await suite.context.newPage();
    // The desktop shell's bridge (ADR 012), as its preload exposes it; the console asks once a minute.
    await desk.addInitScript(() => {
      const w = window as unknown as { notices: unknown[]; atrium: { notify(n: unknown): void } };
      w.notices = [];
      w.atrium = { notify: (notice) => w.notices.push(notice) };
    });
    await desk.clock.install();
    await desk.goto(`${suite.server.url}/inbox`);
    await desk.getByRole("heading", { name: "Inbox" }).waitFor();
    const customer = await signInCustomer(suite.server.url, SLUG, uniqueEmail("cy"));
    expect((await customer.post(`/${SLUG}/tickets`, { subject: "Gluten-free bread?", message: "Any?" })).status).toBe(
      303,
    );
    // A minute on each try: under load the console may hydrate (and start its minute) after the first one.
    await expect
      .poll(async () => {
        await desk.clock.fastForward(61_000);
        return desk.evaluate(() => (window as unknown as { notices: unknown[] }).notices);
      })
      .toEqual([{ title: "New in your inbox", body: expect.stringContaining("Gluten-free bread?") }]);
    await desk.close();
  });

  it("shows another customer, signed in by the e-mailed link, nothing of Ada's; Ada's cookie is no key to another site", async () => {
    const browser = await openBrowser({ bypassCSP: true });
    try {
      const page = await browser.context.newPage();
      const bea = uniqueEmail("bea");
      await page.goto(`${suite.server.url}/${SLUG}/login`);
      await page.getByRole("textbox", { name: "E-mail address" }).fill(bea);
      await page.getByRole("button", { name: "E-mail me a code" }).click();
      await page.getByRole("heading", { name: "Check your e-mail" }).waitFor();
      await page.goto(suite.server.url + codeMailTo(suite.server.url, bea).link);
      await page.getByRole("heading", { name: "Sign in to Harbor Bakery" }).waitFor();
      await check(page, "link");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Your account" }).waitFor();
      await page.goto(`${suite.server.url}/${SLUG}/tickets`);
      await page.getByText("You have no support requests yet.").waitFor();
      const [adaTicket] = await suite.server.db.selectFrom("tickets").select("id").execute();
      const stolen = await page.goto(`${suite.server.url}/${SLUG}/tickets/${adaTicket!.id}`);
      expect(stolen?.status()).toBe(404);
      expect(await page.locator("body").innerText()).not.toContain("A cake for Saturday");
    } finally {
      await browser.close();
    }

    // A second business; Ada's session cookie for the first, presented under the second's name, signs no one in.
    await operator.goto(`${suite.server.url}/`);
    await operator.getByLabel("Name").fill("Other Bakery");
    await operator.getByLabel("Site address").fill(OTHER);
    await operator.getByRole("button", { name: "Create workspace" }).click();
    await operator.getByRole("heading", { name: /Get started/ }).waitFor();
    const cookies = await ada.context.cookies(suite.server.url);
    const session = cookies.find((c) => c.name === `atrium_customer_${SLUG}`)!;
    await ada.context.addCookies([{ ...session, name: `atrium_customer_${OTHER}` }]);
    await ada.page.goto(`${suite.server.url}/${OTHER}/account`);
    await ada.page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(new URL(ada.page.url()).pathname).toBe(`/${OTHER}/login`);
  });

  it("opens one request to a guest holding its manage link, and says so when a link no longer works", async () => {
    const browser = await openBrowser({ bypassCSP: true });
    try {
      const page = await browser.context.newPage();
      const [ticket] = await suite.server.db.selectFrom("tickets").select(["id", "workspace_id"]).execute();
      const token = await issueManageToken(suite.server.db, ticket!.workspace_id, {
        subjectType: "ticket",
        subjectId: ticket!.id,
        actions: ["view", "reply"],
        email: adaEmail,
        days: 1,
      });
      await page.goto(`${suite.server.url}/portal/callback?token=${token}`);
      await page.getByRole("heading", { name: "Your support request" }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/${SLUG}/tickets/${ticket!.id}`);
      await page.getByText("Yes! Lemon it is — pick it up after 10.").waitFor();
      // Replying is allowed by this link; closing is not, so it is not offered.
      expect(await page.getByRole("button", { name: "Close this request" }).count()).toBe(0);
      await check(page, "guest-ticket");
      await page.goto(`${suite.server.url}/portal/callback?token=${"x".repeat(43)}`);
      await page.getByRole("heading", { name: "This link no longer works" }).waitFor();
      await check(page, "manage-link-expired");
      await page.goto(`${suite.server.url}/auth/callback?token=spent`);
      await page.getByRole("heading", { name: "This link no longer works" }).waitFor();
      await check(page, "sign-in-link-expired");
    } finally {
      await browser.close();
    }
  });

  it("exports everything, then erases it", async () => {
    const page = ada.page;
    await page.goto(`${suite.server.url}/${SLUG}/saved`);
    await page.getByText("Nothing saved yet.").waitFor();
    await check(page, "saved");
    await page.goto(`${suite.server.url}/${SLUG}/billing`);
    await page.getByText("No invoices yet.").waitFor();
    await check(page, "billing-empty");
    await page.goto(`${suite.server.url}/${SLUG}/profile`);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download my data (JSON)" }).click();
    const file = await (await download).path();
    const { readFile } = await import("node:fs/promises");
    const exported = JSON.parse(await readFile(file!, "utf8")) as { customer: { name: string }; tickets: unknown[] };
    expect(exported.customer.name).toBe("Ada Lovelace");
    expect(exported.tickets).toHaveLength(1);

    await page.getByRole("button", { name: "Erase my data" }).click();
    await page.getByText("Tick the box to confirm that you want your data erased").waitFor();
    await page.getByLabel(/my data will be erased for good/).check();
    await page.getByRole("button", { name: "Erase my data" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    const left = await suite.server.db.selectFrom("customers").select(["email", "name", "phone"]).execute();
    expect(left.map((c) => c.name)).not.toContain("Ada Lovelace");
    expect(left.map((c) => c.email)).not.toContain(adaEmail);
  });
});
