/**
 * A site on its own domain in Chromium (issue 14, ADR 025): Chromium resolves `shop.example.test` to this
 * machine (`--host-resolver-rules`, this file only), a visitor browses `http://shop.example.test:<port>/` by
 * clicking links and sending the contact form, and the address bar stays on the domain without the site's
 * slug; axe finds nothing serious on the pages; screenshots at 1280 and 390 pixels.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isoNow } from "~/lib/clock.server";
import { newId } from "~/lib/ids.server";
import { seriousViolations } from "../helpers/axe";
import { openBrowser } from "../helpers/browser";
import { assertChromium } from "../helpers/chromium";
import { type Client, createWorkspace, signUp } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const WIDTHS = { wide: { width: 1280, height: 800 }, narrow: { width: 390, height: 844 } } as const;
// Screenshots for review go where SHOTS_DIR names (outside the repository), when it is set.
const SHOTS = process.env.SHOTS_DIR;
const DOMAIN = "shop.example.test";
const SLUG = "corner-shop";

let server: TestServer;
let filesDir: string;
let browser: { context: BrowserContext; close(): Promise<void> };
let page: Page;
let origin: string;

async function publishPage(client: Client, title: string, slug: string, heading: string) {
  const created = await client.post("/website/pages/new", { inNavigation: "on", title, slug });
  expect(created.status).toBe(302);
  const id = /^\/website\/pages\/([^/?]+)\?created=1$/.exec(created.headers.get("location") ?? "")?.[1];
  const published = await client.post(`/website/pages/${id}`, {
    intent: "publish",
    title,
    slug,
    "blocks.0.type": "hero",
    "blocks.0.heading": heading,
    "blocks.0.text": "Bread, coffee and the morning paper, since 1987.",
    "blocks.0.imageId": "",
    "blocks.0.ctaLabel": "Write to us",
    "blocks.0.ctaHref": `/${SLUG}/contact`,
  });
  expect([200, 302]).toContain(published.status);
}

beforeAll(async () => {
  assertChromium();
  filesDir = mkdtempSync(join(tmpdir(), "atrium-domain-e2e-"));
  server = await startServer({ FILES_DIR: filesDir });
  const owner = (await signUp(server.url)).client;
  await createWorkspace(owner, "Corner Shop", SLUG);
  await publishPage(owner, "Welcome", "welcome", "The corner shop of the harbour");
  await publishPage(owner, "About us", "about", "Since 1987 on the corner");
  const { id } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", SLUG)
    .executeTakeFirstOrThrow();
  const now = isoNow();
  await server.db
    .insertInto("site_domains")
    .values({
      id: newId(),
      workspace_id: id,
      hostname: DOMAIN,
      token: newId(),
      status: "verified",
      is_primary: 1,
      redirect_path: 1,
      diagnostics: "[]",
      last_checked_at: now,
      next_check_at: null,
      verified_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  server.atrium.runtime.services.siteDomains.invalidate();

  origin = `http://${DOMAIN}:${new URL(server.url).port}`;
  browser = await openBrowser({ bypassCSP: true, args: [`--host-resolver-rules=MAP ${DOMAIN} 127.0.0.1`] });
  page = await browser.context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

const path = () => new URL(page.url()).pathname + new URL(page.url()).search;

async function checkPage(name: string) {
  for (const [width, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    expect(await seriousViolations(page, AXE), `${name} at ${width}`).toEqual([]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/custom-domain-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(WIDTHS.wide);
}

describe("a visitor on the site's own domain", () => {
  it("browses by clicking links and stays on the domain, without the site's slug", async () => {
    await page.goto(`${origin}/`);
    await page.getByRole("heading", { level: 1, name: "The corner shop of the harbour" }).waitFor();
    expect(new URL(page.url()).host).toBe(new URL(origin).host);
    expect(path()).toBe("/");
    await checkPage("home");

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About us" }).first().click();
    await page.getByRole("heading", { level: 1, name: "Since 1987 on the corner" }).waitFor();
    expect(page.url()).toBe(`${origin}/about`);
    expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toBe(`https://${DOMAIN}/about`);
    await checkPage("about");

    // A link in the content still carries the slug (written before the domain): one 301 takes it off.
    await page.getByRole("link", { name: "Write to us" }).click();
    await page.getByRole("heading", { level: 1, name: "Contact Corner Shop" }).waitFor();
    expect(page.url()).toBe(`${origin}/contact`);

    await page.getByLabel("Your name").fill("Ada");
    await page.getByLabel("E-mail address").fill("ada@example.com");
    await page.getByLabel("Your message").fill("Do you bake on Sundays?");
    await page.getByRole("button", { name: "Send message" }).click();
    await page.waitForURL(`${origin}/contact?sent=1#contact-form`);
    await checkPage("contact-sent");

    await page.locator("a.site-brand").click();
    await page.getByRole("heading", { level: 1, name: "The corner shop of the harbour" }).waitFor();
    expect(page.url()).toBe(`${origin}/`);
  });

  it("sees the site's 404 on a console path: the console never answers on a customer's domain", async () => {
    const answer = await page.goto(`${origin}/settings`);
    expect(answer?.status()).toBe(404);
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
    expect(await page.locator('input[type="password"]').count()).toBe(0);
    await checkPage("console-path-404");
    // `/login` there is the site's own customer sign-in (ADR 029), in the site's frame, not the console's.
    const login = await page.goto(`${origin}/login`);
    expect(login?.status()).toBe(200);
    await page.getByRole("button", { name: "E-mail me a code" }).waitFor();
    expect(await page.locator('form[action="/login"]').count()).toBe(0);
  });
});
