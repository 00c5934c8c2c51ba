/**
 * The site assistant (issue 20, ADR 037), in Chromium, on the demo workspace (Harbor Bakery, which has it on): the
 * operator changes its greeting in /inbox/assistant; a visitor opens the widget on the home page under the page's
 * real CSP (`script-src 'self'`), asks for Saturday's hours (answered from the business profile, citing the contact
 * page), asks for a person and passes the conversation to the team; the widget works from the keyboard and passes
 * axe with its panel open; without JavaScript it is a link to the contact page; the operator then reads the
 * conversation, its sources and its ticket in the inbox. Screenshots at 1280 and 390 pixels wide go to SHOTS_DIR,
 * else test-results/screenshots.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_OPERATOR } from "~/modules/onboarding/demo.server";
import { seriousViolations } from "../helpers/axe";
import { browserSuite, openBrowser, SCREENSHOT_DIR } from "../helpers/browser";

const suite = browserSuite({ env: { SEED_DEMO: "true" } });

const SLUG = "harbor-bakery";
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const WIDTHS = { wide: { width: 1280, height: 800 }, narrow: { width: 390, height: 844 } } as const;
const SHOTS = process.env.SHOTS_DIR ?? SCREENSHOT_DIR;
const GREETING = "Hello from the quayside! Ask us about opening hours, today's bakes or the sourdough class.";

/** The visitor: a browser of their own (a fresh profile, no console session), JavaScript on, the site's CSP kept. */
let visitor: { context: BrowserContext; close(): Promise<void> };
/** The request number the visitor was given, looked for again in the console. */
let requestNumber = "";

beforeAll(async () => {
  visitor = await openBrowser();
});
afterAll(async () => {
  await visitor?.close();
});

/**
 * Photographs the page at both widths: the viewport only (`fullPage: false`) where a fixed widget is the subject;
 * `atWidth` runs after each resize (a scroll, a check of the layout at that width).
 */
async function screenshots(
  page: Page,
  name: string,
  fullPage = true,
  atWidth: (width: keyof typeof WIDTHS) => Promise<void> = async () => {},
) {
  for (const width of ["wide", "narrow"] as const) {
    await page.setViewportSize(WIDTHS[width]);
    await atWidth(width);
    await page.screenshot({ path: join(SHOTS, `site-assistant-${name}-${width}.png`), fullPage });
  }
  await page.setViewportSize(WIDTHS.wide);
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * axe under the page's own CSP: its script is evaluated through the DevTools protocol (which a page's CSP does not
 * govern) instead of the inline script tag the shared helper adds, so the widget is checked as visitors get it.
 */
function axeOn(page: Page) {
  return seriousViolations(
    {
      addScriptTag: ({ path }) => page.evaluate(readFileSync(path, "utf8")),
      evaluate: (fn) => page.evaluate(fn),
    },
    AXE,
  );
}

/** Sends a question in the open widget and waits until its answer has finished streaming; returns that answer. */
async function ask(page: Page, question: string) {
  const log = page.locator(".site-assistant__log > li");
  const before = await log.count();
  await page.getByLabel("Your question").fill(question);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect.poll(() => page.getByRole("button", { name: "Send", exact: true }).isEnabled()).toBe(true);
  expect(await page.locator(".site-assistant__status").innerText()).toBe("");
  // The question, then its answer.
  await expect.poll(() => log.count()).toBe(before + 2);
  expect(await log.nth(before).innerText()).toBe(question);
  return log.nth(before + 1);
}

describe("the site assistant", () => {
  it("lets the operator change its greeting in the inbox (the demo has it on)", async () => {
    const page = await suite.context.newPage();
    await page.setViewportSize(WIDTHS.wide);
    await page.goto(`${suite.server.url}/login`);
    await page.getByLabel("Email").fill(DEMO_OPERATOR.email);
    await page.getByLabel("Password").fill(DEMO_OPERATOR.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Your workspaces" }).waitFor();
    await page.getByRole("button", { name: "Open Harbor Bakery" }).click();
    await page.waitForURL((url) => url.pathname !== "/");
    await page.goto(`${suite.server.url}/inbox/assistant`);
    await page.getByRole("heading", { name: "Site assistant", level: 1 }).waitFor();

    const enabled = page.getByLabel("Show the assistant on my site");
    // The demo switched it on; a workspace without it would be switched on here.
    expect(await enabled.isChecked()).toBe(true);
    await page.getByLabel("Greeting").fill(GREETING);
    await page.getByRole("button", { name: "Save" }).click();
    await page
      .getByRole("status")
      .getByText("The assistant is on: visitors see it at the bottom of every page of your site.")
      .waitFor();
    expect(await enabled.isChecked()).toBe(true);
    expect(await page.getByLabel("Greeting").inputValue()).toBe(GREETING);
    expect(await axeOn(page)).toEqual([]);
    await screenshots(page, "settings");
    await page.close();
  });

  it("answers a visitor on the site, then passes the conversation to the team", async () => {
    const page = await visitor.context.newPage();
    await page.setViewportSize(WIDTHS.wide);
    const problems: string[] = [];
    page.on("console", (m) => void (m.type() === "error" && problems.push(m.text())));
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(`${suite.server.url}/${SLUG}`);

    // The script turned the link into a button that opens the chat.
    const launcher = page.getByRole("button", { name: "Questions? Ask us" });
    await launcher.waitFor();
    expect(await launcher.isVisible()).toBe(true);
    expect(await launcher.getAttribute("aria-expanded")).toBe("false");
    await screenshots(page, "closed", false, async (width) => {
      // On a phone it is a round button in the corner, and its box takes no taps meant for the page beside it.
      const corner = (await page.locator(".site-assistant").boundingBox())!;
      expect(corner.width, width).toBeLessThan(width === "narrow" ? 80 : 260);
    });
    // Scrolled to the foot of the page, the launcher leaves the footer's last line (the copyright) readable.
    await screenshots(page, "closed-bottom", false, async (width) => {
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const copyright = (await page.locator(".site-footer__copyright").boundingBox())!;
      expect(overlaps((await launcher.boundingBox())!, copyright), width).toBe(false);
    });
    await page.evaluate(() => window.scrollTo(0, 0));

    await launcher.click();
    const panel = page.getByRole("dialog", { name: "Ask Harbor Bakery" });
    await panel.waitFor();
    expect(await page.locator(".site-assistant__log > li").first().innerText()).toBe(GREETING);
    // Opening puts the visitor in the question box.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("site-assistant-question");

    const hours = await ask(page, "When are you open on Saturday?");
    const hoursText = await hours.locator("p").first().innerText();
    expect(hoursText).toContain("Saturday: 8:00–12:30, 13:30–16:00");
    const contact = hours.getByRole("link", { name: "Visit Harbor Bakery" });
    expect(await contact.getAttribute("href")).toBe(`${suite.server.url}/${SLUG}/contact`);
    expect(await axeOn(page)).toEqual([]);
    await screenshots(page, "answer", false);
    // The answer is read from its start: its question is in view at the top of the conversation.
    expect(await page.locator(".site-assistant__log > li").nth(1).isVisible()).toBe(true);
    await page.setViewportSize(WIDTHS.narrow);
    expect(await axeOn(page)).toEqual([]);
    // On a phone the open chat is the whole screen, and nothing scrolls sideways.
    expect(await panel.boundingBox()).toEqual({ x: 0, y: 0, ...WIDTHS.narrow });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTHS.narrow.width);
    await page.setViewportSize(WIDTHS.wide);
    // On a wide screen it is a box in the corner, inside the window.
    const box = (await panel.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(WIDTHS.wide.width);
    expect(box.y).toBeGreaterThanOrEqual(0);

    const offer = await ask(page, "Can I talk to a person?");
    expect(await offer.innerText()).toContain("Pass to the team");
    const passOn = page.getByRole("button", { name: "Pass to the team" });
    await passOn.click();
    const email = page.getByLabel("Your e-mail address");
    await email.waitFor();
    // The form takes the question box's place, with the cursor in its first field; Cancel brings the box back.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("site-assistant-email");
    expect(await page.getByLabel("Your question").isVisible()).toBe(false);
    await page.getByRole("button", { name: "Cancel" }).click();
    await email.waitFor({ state: "hidden" });
    expect(await page.getByLabel("Your question").isVisible()).toBe(true);
    expect(await passOn.evaluate((node) => node === document.activeElement)).toBe(true);
    await passOn.click();
    await email.waitFor();
    await email.fill("walk.in@example.com");
    await page.getByLabel("Anything to add? (optional)").fill("Could you bake a birthday cake for Saturday?");
    expect(await axeOn(page)).toEqual([]);
    await screenshots(page, "handoff", false);
    await page.getByRole("button", { name: "Send to the team" }).click();
    const done = page.locator(".site-assistant__done");
    await done.waitFor();
    const sent = await done.innerText();
    expect(sent).toMatch(/^Sent to the team as request #\d+\. They will answer you by e-mail\.$/);
    requestNumber = /#(\d+)/.exec(sent)![1]!;
    // The confirmation has focus (it is read out), the offer is gone, and more questions can be asked.
    expect(await done.evaluate((node) => node === document.activeElement)).toBe(true);
    expect(await passOn.count()).toBe(0);
    expect(await page.getByLabel("Your question").isVisible()).toBe(true);
    await screenshots(page, "handoff-sent", false);

    expect(problems).toEqual([]);
    await page.close();
  });

  it("works from the keyboard: the launcher is a tab stop, Escape closes the panel and focus returns to it", async () => {
    const page = await visitor.context.newPage();
    await page.setViewportSize(WIDTHS.wide);
    await page.goto(`${suite.server.url}/${SLUG}`);
    // While the panel is open the launcher is hidden (the panel's own close button stands in for it).
    const launcher = page.locator("button.site-assistant__launcher");
    await launcher.waitFor();

    // It is the page's last tab stop: Tab through the page until it has focus.
    let reached = false;
    for (let i = 0; i < 80 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = await launcher.evaluate((node) => node === document.activeElement);
    }
    expect(reached).toBe(true);
    expect(await launcher.evaluate((node) => node.matches(":focus-visible"))).toBe(true);

    await page.keyboard.press("Enter");
    const panel = page.getByRole("dialog", { name: "Ask Harbor Bakery" });
    await panel.waitFor();
    expect(await launcher.getAttribute("aria-expanded")).toBe("true");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("site-assistant-question");

    await page.keyboard.press("Escape");
    await panel.waitFor({ state: "hidden" });
    expect(await launcher.getAttribute("aria-expanded")).toBe("false");
    expect(await launcher.evaluate((node) => node === document.activeElement)).toBe(true);
    await page.close();
  });

  it("is a link to the contact page without JavaScript", async () => {
    const plain = await openBrowser({ javaScriptEnabled: false });
    try {
      const page = await plain.context.newPage();
      await page.setViewportSize(WIDTHS.narrow);
      await page.goto(`${suite.server.url}/${SLUG}`);
      const link = page.getByRole("link", { name: "Questions? Ask us" });
      expect(await link.isVisible()).toBe(true);
      expect(await link.getAttribute("href")).toBe(`/${SLUG}/contact`);
      expect(await page.getByRole("button", { name: "Questions? Ask us" }).count()).toBe(0);
      await screenshots(page, "no-javascript", false);
      await link.click();
      await page.waitForURL(`${suite.server.url}/${SLUG}/contact`);
    } finally {
      await plain.close();
    }
  });

  it("shows the operator the conversation, its sources and the request it became", async () => {
    const page = await suite.context.newPage();
    await page.setViewportSize(WIDTHS.wide);
    await page.goto(`${suite.server.url}/inbox/assistant`);
    const list = page.getByRole("list", { name: "Conversations with the site assistant, newest first" });
    const item = list.getByRole("link").filter({ hasText: "When are you open on Saturday?" });
    await item.waitFor();
    expect(await item.locator(".inbox-badge").innerText()).toBe("Passed to the team");
    expect(await item.innerText()).toContain("4 messages");
    expect(await axeOn(page)).toEqual([]);
    await screenshots(page, "inbox");

    await item.click();
    await page.getByRole("heading", { name: "When are you open on Saturday?", level: 1 }).waitFor();
    const thread = page.getByRole("list", { name: "Conversation, oldest first" });
    const messages = thread.locator(":scope > li");
    expect(await messages.count()).toBe(4);
    expect(await messages.nth(0).innerText()).toContain("When are you open on Saturday?");
    expect(await messages.nth(1).innerText()).toContain("Saturday: 8:00–12:30, 13:30–16:00");
    const source = messages.nth(1).getByRole("link", { name: "Visit Harbor Bakery" });
    expect(await source.getAttribute("href")).toBe(`${suite.server.url}/${SLUG}/contact`);
    expect(await messages.nth(2).innerText()).toContain("Can I talk to a person?");
    expect(await messages.nth(3).innerText()).toContain("Offered to pass it to the team");
    // Where it ended, under the title, and beside the transcript.
    const outcome = page.locator(".assistant-outcome");
    expect(await outcome.innerText()).toBe(`Passed to the team as support request #${requestNumber}`);
    const ticket = page.getByRole("link", { name: `#${requestNumber}`, exact: true });
    const href = await ticket.getAttribute("href");
    expect(href).toMatch(/^\/inbox\/tickets\/\w+$/);
    expect(await outcome.getByRole("link").getAttribute("href")).toBe(href);
    expect(await page.getByText("A visitor who was not signed in").isVisible()).toBe(true);
    expect(await axeOn(page)).toEqual([]);
    await screenshots(page, "conversation");

    // The ticket the visitor's hand-over opened quotes the conversation.
    await ticket.click();
    await page.getByText("Could you bake a birthday cake for Saturday?").first().waitFor();
    await page.close();
  });
});
