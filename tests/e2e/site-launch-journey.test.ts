/**
 * Issue 14's "done when", as one new user does it in Chromium: set a page's search title, a redirect and
 * llms.txt in Discovery; connect a domain (the local DNS server answers the app's real Resolver), read what is
 * wrong on the way and verify it; see the site at the domain's root with canonical URLs, sitemap, robots.txt,
 * llms.txt and the share image on that domain and the old path redirecting there; protect the site with a
 * password and unlock it on the domain. CI runs it on SQLite and on PostgreSQL.
 *
 * Chromium resolves the domain to this machine (`--host-resolver-rules`); the server serves it over plain
 * HTTP, as it does behind the TLS-terminating proxy of README "Custom domains and HTTPS".
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserSuite, signUpWithWorkspace } from "../helpers/browser";
import { uniqueEmail } from "../helpers/client";
import { startFakeDns, type FakeDns } from "../helpers/fake-dns";

const TARGET = "sites.atrium.test";
const DOMAIN = `www.launch-${process.pid}.example.com`;
const SLUG = `launch-${process.pid}`;
const PASSWORD = "a long enough password";
const SITE_PASSWORD = "open sesame, please";

// The DNS server starts before the suite's server, which reads DNS_SERVERS from this object.
const env: Record<string, string> = { DOMAIN_CNAME_TARGET: TARGET, DNS_TIMEOUT_MS: "500" };
let dns: FakeDns;
beforeAll(async () => {
  dns = await startFakeDns();
  dns.set(TARGET, { A: ["203.0.113.10"] });
  env.DNS_SERVERS = dns.server;
});
afterAll(() => dns.close());
const suite = browserSuite({ bypassCSP: true, env, args: [`--host-resolver-rules=MAP ${DOMAIN} 127.0.0.1`] });

let page: Page;
/** The site on its own domain, as Chromium reaches it here (plain HTTP, the test server's port). */
let onDomain: string;

beforeAll(async () => {
  onDomain = `http://${DOMAIN}:${new URL(suite.server.url).port}`;
  page = await suite.context.newPage();
  const email = uniqueEmail("launch-e2e");
  await signUpWithWorkspace(page, suite.server, { email, password: PASSWORD, name: "Launch Bakery", slug: SLUG });
  // Two published pages (the page editor has its own journey): the console's JSON API, as the editor uses it.
  for (const [title, slug] of [
    ["Welcome", "welcome"],
    ["About us", "about"],
  ]) {
    const created = await page.request.post(`${suite.server.url}/api/editor/pages`, {
      data: { title, slug, description: "", blocks: [{ type: "richText", markdown: `All about ${title}.` }] },
      headers: { origin: suite.server.url },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const published = await page.request.post(`${suite.server.url}/api/editor/pages/${id}/publish`, {
      data: {},
      headers: { origin: suite.server.url },
    });
    expect(published.status(), await published.text()).toBeLessThan(300);
  }
});

/** A request to the deployment's host that does not follow redirects. */
const peek = (url: string) => page.request.get(url, { maxRedirects: 0 });

/**
 * A file on the site's domain, fetched by the page itself (same origin): only Chromium's own network stack
 * knows the domain (`--host-resolver-rules`), not the test's request context. The PNG header's size fields
 * come back as numbers.
 */
function fetchOnDomain(from: Page, path: string) {
  return from.evaluate(async (url) => {
    const response = await fetch(url);
    const type = response.headers.get("content-type") ?? "";
    if (type.startsWith("image/")) {
      const view = new DataView(await response.arrayBuffer());
      return { status: response.status, type, text: "", size: [view.getUint32(16), view.getUint32(20)] };
    }
    return { status: response.status, type, text: await response.text(), size: [] as number[] };
  }, path);
}

describe("launching a site: discovery, a custom domain, a password", () => {
  it("sets a search title, a redirect and llms.txt in Discovery", async () => {
    await page.goto(`${suite.server.url}/discovery`);
    await page.getByRole("link", { name: "Edit search settings of About us" }).click();
    await page.getByLabel("Search title").fill("About Launch Bakery, bakers since 1990");
    await page.getByRole("button", { name: "Save search settings" }).click();
    await page.getByText("Saved: search engines see it").waitFor();

    await page.getByRole("navigation", { name: "Discovery" }).getByRole("link", { name: "Redirects" }).click();
    await page.getByLabel("Old address").fill("/our-story");
    await page.getByLabel("New address").fill("/about");
    await page.getByRole("button", { name: "Add redirect" }).click();
    await page.getByText("Redirect added.").waitFor();

    await page.getByRole("navigation", { name: "Discovery" }).getByRole("link", { name: "llms.txt" }).click();
    await page.getByLabel("Publish llms.txt").check();
    await page.getByLabel("Summary").fill("A bakery by the harbour: sourdough, pastries and coffee.");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved: your site publishes llms.txt.").waitFor();
  });

  it("verifies a domain, with what is wrong explained on the way", async () => {
    await page.goto(`${suite.server.url}/settings`);
    await page.getByRole("navigation").getByRole("link", { name: "Domains" }).click();
    await page.getByRole("textbox", { name: "Domain" }).fill(DOMAIN);
    await page.getByRole("button", { name: "Add domain" }).click();
    await page.getByText(`${DOMAIN} added`).waitFor();
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: DOMAIN }) });
    const token = (
      await card.getByRole("table").locator("tr", { hasText: "TXT" }).locator("td").nth(2).locator("code").innerText()
    ).trim();

    // Nothing at the DNS provider yet: the domain itself does not exist.
    await card.getByRole("button", { name: `Check now ${DOMAIN}` }).click();
    await page.getByText(`${DOMAIN} is not verified yet: see what to fix below.`).waitFor();
    await card.locator('[data-code="domain-not-found"]').waitFor();

    // The CNAME is there, the TXT record not yet.
    dns.set(DOMAIN, { CNAME: TARGET });
    await card.getByRole("button", { name: `Check now ${DOMAIN}` }).click();
    await card.locator('[data-code="txt-missing"]').waitFor();
    await card.locator('[data-code="pointing-ok"]').waitFor();

    dns.set(`_atrium.${DOMAIN}`, { TXT: [token] });
    await card.getByRole("button", { name: `Check now ${DOMAIN}` }).click();
    await page.getByText(`${DOMAIN} is verified and serves your site.`).waitFor();
    await card.getByText("Site address").waitFor();
  });

  it("serves the site at the domain's root, with its technical files there, and the old path redirects", async () => {
    await page.goto(`${onDomain}/`);
    await page.getByText("All about Welcome.").waitFor();
    expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toBe(`https://${DOMAIN}/`);

    await page.goto(`${onDomain}/about`);
    expect(await page.title()).toBe("About Launch Bakery, bakers since 1990 · Launch Bakery");
    expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toBe(`https://${DOMAIN}/about`);
    const ogImage = await page.locator('meta[property="og:image"]').getAttribute("content");
    expect(ogImage).toMatch(new RegExp(`^https://${DOMAIN.replace(/\./g, "\\.")}/og-image\\?`));

    // The operator's redirect, on the domain, without the slug.
    await page.goto(`${onDomain}/our-story`);
    expect(page.url()).toBe(`${onDomain}/about`);

    const sitemap = (await fetchOnDomain(page, "/sitemap.xml")).text;
    expect(sitemap).toContain(`<loc>https://${DOMAIN}/about</loc>`);
    expect(sitemap).not.toContain(`/${SLUG}`);
    const robots = (await fetchOnDomain(page, "/robots.txt")).text;
    expect(robots).toContain(`Sitemap: https://${DOMAIN}/sitemap.xml`);
    const llms = (await fetchOnDomain(page, "/llms.txt")).text;
    expect(llms).toContain("> A bakery by the harbour: sourdough, pastries and coffee.");
    expect(llms).toContain(`(https://${DOMAIN}/about)`);

    // The share image the page names, fetched on the domain: a 1200×630 PNG.
    const image = await fetchOnDomain(page, `${new URL(ogImage!).pathname}${new URL(ogImage!).search}`);
    expect(image).toMatchObject({ status: 200, type: "image/png", size: [1200, 630] });

    // The deployment's own address of the site now answers 301 to the domain, query and all.
    const moved = await peek(`${suite.server.url}/${SLUG}/about?utm_source=flyer`);
    expect(moved.status()).toBe(301);
    expect(moved.headers()["location"]).toBe(`https://${DOMAIN}/about?utm_source=flyer`);
  });

  it("protects the site with a password, and a visitor unlocks it on the domain", async () => {
    await page.goto(`${suite.server.url}/settings/site`);
    await page.getByLabel(/Protected with a password/).check();
    await page.getByLabel("Password", { exact: true }).fill(SITE_PASSWORD);
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Save visibility" }).click();
    await page.getByText("Your site is now protected.").waitFor();

    // A visitor on the domain: the operator's cookies belong to the deployment's host, so none is sent there.
    const guest = await suite.context.newPage();
    await guest.goto(`${onDomain}/about`);
    await guest.getByRole("heading", { name: "This site is private" }).waitFor();
    expect(new URL(guest.url()).pathname).toBe("/unlock");
    // Technical files stay open, and robots.txt now closes the whole site to crawlers.
    expect((await fetchOnDomain(guest, "/robots.txt")).text).toMatch(/Disallow: \/\s*$/m);

    await guest.getByLabel("Password").fill("not the password");
    await guest.getByRole("button", { name: "Continue" }).click();
    await guest.getByText("That password is not right").waitFor();
    await guest.getByLabel("Password").fill(SITE_PASSWORD);
    await guest.getByRole("button", { name: "Continue" }).click();
    await guest.waitForURL(`${onDomain}/about`);
    expect(await guest.title()).toBe("About Launch Bakery, bakers since 1990 · Launch Bakery");
    // The unlock cookie belongs to the domain's root path, this site only.
    const cookie = (await guest.context().cookies(onDomain)).find((c) => c.name === "atrium_site_unlock");
    expect(cookie).toMatchObject({ domain: DOMAIN, path: "/", httpOnly: true, sameSite: "Lax" });
    await guest.close();
  });
});
