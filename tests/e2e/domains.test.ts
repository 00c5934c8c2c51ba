/**
 * Connecting a custom domain in Chromium (issue 14, ADR 024): an admin adds a domain, sees the two records to
 * create, checks, reads what is wrong, fixes DNS (the local DNS server the app's Resolver asks), checks again
 * and sees it verified and made the site's address; removing asks first. axe on every state of the page, at
 * 1280 and 390 wide, with screenshots.
 */
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../helpers/axe";
import { browserSuite, signUpWithWorkspace } from "../helpers/browser";
import { uniqueEmail } from "../helpers/client";
import { startFakeDns, type FakeDns } from "../helpers/fake-dns";

const TARGET = "sites.atrium.test";
// Screenshots for review go where SHOTS_DIR names (outside the repository), when it is set.
const SHOTS = process.env.SHOTS_DIR;
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const PASSWORD = "a long enough password";
const WIDTHS = { wide: { width: 1280, height: 900 }, narrow: { width: 390, height: 844 } } as const;

// The DNS server starts before the suite's server, which reads DNS_SERVERS from this object.
const env: Record<string, string> = { DOMAIN_CNAME_TARGET: TARGET, DNS_TIMEOUT_MS: "300" };
let dns: FakeDns;
beforeAll(async () => {
  dns = await startFakeDns();
  dns.set(TARGET, { A: ["203.0.113.10"] });
  env.DNS_SERVERS = dns.server;
});
afterAll(() => dns.close());
const suite = browserSuite({ bypassCSP: true, env });

let page: Page;
const host = `www.crumb-${process.pid}.example.com`;

beforeAll(async () => {
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  page = await suite.context.newPage();
  const email = uniqueEmail("domains-e2e");
  await signUpWithWorkspace(page, suite.server, {
    email,
    password: PASSWORD,
    name: "Crumb & Co",
    slug: `crumb-${process.pid}`,
  });
});

/** axe at both widths, and a screenshot of each for review. */
async function audit(name: string) {
  for (const [label, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    expect(await seriousViolations(page, AXE), `${name} (${label})`).toEqual([]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/domains-${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize(WIDTHS.wide);
}

describe("the Domains page", () => {
  it("is in Settings, and explains custom domains before there is one", async () => {
    await page.goto(`${suite.server.url}/settings`);
    await page.getByRole("navigation").getByRole("link", { name: "Domains" }).click();
    await page.getByRole("heading", { name: "Domains", level: 1 }).waitFor();
    await page.getByRole("heading", { name: "No domain connected yet" }).waitFor();
    await page.getByText("Custom domains and HTTPS").waitFor();
    await audit("empty");
  });

  it("refuses a name that is not a host name beside the field", async () => {
    await page.getByRole("textbox", { name: "Domain" }).fill("not a domain");
    await page.getByRole("button", { name: "Add domain" }).click();
    await page.getByText("Enter only the domain, such as shop.example.com").waitFor();
    expect(await page.getByRole("textbox", { name: "Domain" }).getAttribute("aria-invalid")).toBe("true");
    await audit("invalid");
  });

  it("adds a domain, shows its records, checks, explains what is wrong, then verifies once DNS is fixed", async () => {
    await page.getByRole("textbox", { name: "Domain" }).fill(host.toUpperCase());
    await page.getByRole("button", { name: "Add domain" }).click();
    await page.getByText(`${host} added`).waitFor();
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: host }) });
    await card.getByText("Pending").waitFor();
    const records = card.getByRole("table");
    await records.getByRole("cell", { name: `_atrium.${host}` }).waitFor();
    const token = (
      await records.locator("tr", { hasText: "TXT" }).locator("td").nth(2).locator("code").innerText()
    ).trim();
    expect(token).toMatch(/^atrium-verify=[0-9a-f]{32}$/);
    await records.getByRole("cell", { name: TARGET }).waitFor();
    await audit("pending");

    // The copy buttons put the value on the clipboard.
    await suite.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: suite.server.url });
    await card.getByRole("button", { name: "Copy TXT value" }).click();
    await card.getByRole("button", { name: "Copied TXT value" }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

    // First try: the name points elsewhere and the TXT record holds a typo.
    dns.set(host, { CNAME: "old-host.example.net" });
    dns.set("old-host.example.net", { A: ["198.51.100.20"] });
    dns.set(`_atrium.${host}`, { TXT: ["atrium-verify=typo"] });
    await card.getByRole("button", { name: `Check now ${host}` }).click();
    await page.getByText(`${host} is not verified yet: see what to fix below.`).waitFor();
    await card.locator('[data-code="txt-mismatch"]').getByText("atrium-verify=typo").waitFor();
    await card.locator('[data-code="not-pointing"]').getByText("Its CNAME names old-host.example.net").waitFor();
    await card.getByText(/Last checked/).waitFor();
    await audit("diagnostics");

    // Fixed at the DNS provider.
    dns.set(host, { CNAME: TARGET });
    dns.set(`_atrium.${host}`, { TXT: [token] });
    await card.getByRole("button", { name: `Check now ${host}` }).click();
    await page.getByText(`${host} is verified and serves your site.`).waitFor();
    await card.getByText("Verified", { exact: true }).waitFor();
    await card.getByText("Site address").waitFor();
    await card.locator('[data-code="txt-ok"]').waitFor();
    expect(await card.getByRole("table").count()).toBe(0);
    await card.getByText("Old address redirects here.").waitFor();
    await audit("verified");
  });

  it("switches the redirect of the old address off and on", async () => {
    await page.getByRole("button", { name: "Stop redirecting" }).click();
    await page.getByText("Old address does not redirect.").waitFor();
    await page.getByRole("button", { name: "Redirect to this domain" }).click();
    await page.getByText("Old address redirects here.").waitFor();
  });

  it("asks before removing, and keeps the domain when the operator says no", async () => {
    page.once("dialog", (dialog) => void dialog.dismiss());
    await page.getByRole("button", { name: `Remove ${host}` }).click();
    await page.getByRole("heading", { name: host }).waitFor();
    let asked = "";
    page.once("dialog", (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await page.getByRole("button", { name: `Remove ${host}` }).click();
    await page.getByText(`${host} removed`).waitFor();
    expect(asked).toContain("It stops showing your site at once.");
    await page.getByRole("heading", { name: "No domain connected yet" }).waitFor();
  });
});
