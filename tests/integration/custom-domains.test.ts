/**
 * Issue 14, part D2 (ADR 025): a verified custom domain serves its site at the domain's root. Verified rows of
 * `site_domains` are inserted directly (claiming and verification are the domains console's), then raw HTTP
 * requests carry `Host: shop.example.test`: the site's pages at `/`, links and files without the `/{slug}`
 * prefix, canonical URLs at the domain, the customer API resolved by the host, the console never answering
 * there, and the deployment's own `/{slug}/*` answering 301 to the domain while the switch is on.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isoNow } from "~/lib/clock.server";
import { newId } from "~/lib/ids.server";
import { type Client, PASSWORD, createWorkspace, mailedText, signUp } from "../helpers/client";
import { codeMailTo } from "../helpers/customers";
import { startServer, type TestServer } from "../helpers/server";

const DOMAIN = "shop.example.test";
const DEPLOYMENT = "https://atrium.example.test";
const OTHER_DOMAIN = "other.example.test";
const SLUG = `domain-${Math.random().toString(36).slice(2, 7)}`;
const OTHER_SLUG = `elsewhere-${Math.random().toString(36).slice(2, 7)}`;

let server: TestServer;
let filesDir: string;
let owner: Client;
let ownerEmail: string;
let workspaceId: string;
let otherWorkspaceId: string;
let logoUrl: string;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with the Host given (fetch will not send one of the test's choosing), and an optional body. */
function send(
  host: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: hostname, port, method, path, headers: { host, ...options.headers }, setHost: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString("latin1") }),
        );
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const onDomain = (path: string, options?: Parameters<typeof send>[3]) => send(DOMAIN, "GET", path, options);
const deploymentHost = () => new URL(server.url).host;
const onDeployment = (path: string) => send(deploymentHost(), "GET", path);
const registry = () => server.atrium.runtime.services.siteDomains;

async function insertDomain(
  workspace: string,
  hostname: string,
  fields: { status?: string; isPrimary?: boolean; redirectPath?: boolean } = {},
) {
  const now = isoNow();
  await server.db
    .insertInto("site_domains")
    .values({
      id: newId(),
      workspace_id: workspace,
      hostname,
      token: `atrium-verify-${newId()}`,
      status: fields.status ?? "verified",
      is_primary: fields.isPrimary === false ? 0 : 1,
      redirect_path: fields.redirectPath === false ? 0 : 1,
      diagnostics: "[]",
      last_checked_at: now,
      next_check_at: null,
      verified_at: fields.status === "pending" ? null : now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  registry().invalidate();
}

async function setRedirect(on: boolean) {
  await server.db
    .updateTable("site_domains")
    .set({ redirect_path: on ? 1 : 0 })
    .where("hostname", "=", DOMAIN)
    .execute();
  registry().invalidate();
}

const hrefsOf = (html: string) => [...html.matchAll(/\s(?:href|src|action)="([^"]*)"/g)].map((m) => m[1]!);
const canonicalOf = (html: string) => /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];

async function publishPage(client: Client, title: string, slug: string, heading: string) {
  const created = await client.post("/website/pages/new", { inNavigation: "on", title, slug });
  expect(created.status, await created.clone().text()).toBe(302);
  const id = /^\/website\/pages\/([^/?]+)\?created=1$/.exec(created.headers.get("location") ?? "")?.[1];
  const published = await client.post(`/website/pages/${id}`, {
    intent: "publish",
    title,
    slug,
    "blocks.0.type": "hero",
    "blocks.0.heading": heading,
    "blocks.0.text": "Fresh every morning.",
    "blocks.0.imageId": "",
    "blocks.0.ctaLabel": "",
    "blocks.0.ctaHref": "",
  });
  expect([200, 302], await published.clone().text()).toContain(published.status);
}

beforeAll(async () => {
  filesDir = mkdtempSync(join(tmpdir(), "atrium-domains-"));
  // Loopback still reaches the server; links to the deployment name this origin.
  server = await startServer({ FILES_DIR: filesDir, PUBLIC_URL: DEPLOYMENT });
  const signedUp = await signUp(server.url);
  owner = signedUp.client;
  ownerEmail = signedUp.email;
  await createWorkspace(owner, "Corner Shop", SLUG);
  // The first page published is the home page.
  await publishPage(owner, "Welcome", "welcome", "The corner shop of the harbour");
  await publishPage(owner, "About us", "about", "Since 1987 on the corner");

  // A logo, so the header shows one of the site's files.
  const bytes = await sharp({ create: { width: 400, height: 120, channels: 4, background: "#7a2e0e" } })
    .png()
    .toBuffer();
  const uploaded = await owner.request(`/api/editor/branding/media?filename=logo.png`, {
    method: "POST",
    body: new Uint8Array(bytes),
    headers: { "content-type": "image/png", origin: new URL(server.url).origin },
  });
  expect(uploaded.status).toBe(201);
  const logo = (await uploaded.json()) as { id: string; url: string };
  logoUrl = logo.url;
  const branded = await owner.post("/website/branding", {
    intent: "save",
    logoId: logo.id,
    faviconId: "",
    socialImageId: "",
    brand: "#7a2e0e",
    accent: "#f2c14e",
    background: "#fffaf3",
    text: "#2b1d14",
    headingFont: "playfair-display",
    bodyFont: "work-sans",
    corners: "round",
  });
  expect(branded.status).toBe(200);

  const other = (await signUp(server.url)).client;
  await createWorkspace(other, "Elsewhere Books", OTHER_SLUG);
  const ids = await server.db.selectFrom("workspaces").select(["id", "slug"]).execute();
  workspaceId = ids.find((w) => w.slug === SLUG)!.id;
  otherWorkspaceId = ids.find((w) => w.slug === OTHER_SLUG)!.id;

  await insertDomain(workspaceId, DOMAIN);
  await insertDomain(workspaceId, "pending.example.test", { status: "pending", isPrimary: false });
  await insertDomain(otherWorkspaceId, OTHER_DOMAIN);
});

afterAll(async () => {
  await server.close();
  rmSync(filesDir, { recursive: true, force: true });
});

describe("a verified custom domain", () => {
  it("serves the site's home page at its root, with links, theme and files without the slug", async () => {
    const home = await onDomain("/");
    expect(home.status).toBe(200);
    expect(home.body).toContain("Corner Shop");
    const hrefs = hrefsOf(home.body);
    expect(hrefs).toContain("/about");
    expect(hrefs.filter((h) => h === `/${SLUG}` || h.startsWith(`/${SLUG}/`))).toEqual([]);
    expect(home.body).toMatch(/class="site-brand[^"]*" href="\/"/);

    const theme = /<link rel="stylesheet" href="(\/theme\.css\?v=[^"]+)"/.exec(home.body)?.[1];
    expect(theme, "the theme stylesheet at the domain's root").toBeTruthy();
    const css = await onDomain(theme!);
    expect(css.status).toBe(200);
    expect(css.headers["content-type"]).toMatch(/^text\/css/);
    expect(css.body).toContain("--site-brand: #7a2e0e;");

    const logo = /<img class="site-brand__logo"[^>]* src="(\/media\/[^"]+)"/.exec(home.body)?.[1];
    expect(logo, "the logo at the domain's root").toBeTruthy();
    const image = await onDomain(logo!);
    expect(image.status).toBe(200);
    expect(image.headers["content-type"]).toMatch(/^image\//);
    // The original's address on the domain too.
    expect((await onDomain(logoUrl.replace(`/${SLUG}`, ""))).status).toBe(200);
  });

  it("serves a page at /{page} with its canonical and Open Graph URLs on the domain", async () => {
    const about = await onDomain("/about");
    expect(about.status).toBe(200);
    expect(about.body).toContain("Since 1987 on the corner");
    expect(canonicalOf(about.body)).toBe(`https://${DOMAIN}/about`);
    expect(about.body).toContain(`<meta property="og:url" content="https://${DOMAIN}/about"/>`);
    expect(about.body).not.toContain(`/${SLUG}/`);
    expect(canonicalOf((await onDomain("/")).body)).toBe(`https://${DOMAIN}/`);
    expect(canonicalOf((await onDomain("/contact")).body)).toBe(`https://${DOMAIN}/contact`);
    // The site's 404 links home on the domain.
    const missing = await onDomain("/no/such/page");
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('<a class="site-button" href="/">');
  });

  it("answers 301 to the path without the slug for an old link that carries it", async () => {
    const about = await onDomain(`/${SLUG}/about?utm_source=flyer`);
    expect(about.status).toBe(301);
    expect(about.headers.location).toBe("/about?utm_source=flyer");
    const home = await onDomain(`/${SLUG}`);
    expect(home.status).toBe(301);
    expect(home.headers.location).toBe("/");
  });

  it("is never the console: /login and /settings are the site's own paths, the console API is not there", async () => {
    // /login on the domain is the site's own customer sign-in (ADR 029), never the console's.
    const login = await onDomain("/login");
    expect(login.status).toBe(200);
    expect(login.body).toContain('class="site-header"');
    expect(login.body).toContain("E-mail me a code");
    expect(login.body).not.toContain('action="/login"');
    for (const path of ["/settings", "/website/pages/new", "/signup"]) {
      const answer = await onDomain(path);
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).toContain('class="site-header"');
      expect(answer.body, path).not.toMatch(/name="password"/);
    }
    expect((await onDomain("/api/auth/me")).status).toBe(404);
    expect((await onDomain("/api/auth/me")).body).not.toContain(ownerEmail);
  });

  it("keeps operator cookies host-only, so they never reach a custom domain", async () => {
    const res = await fetch(`${server.url}/login`, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({ email: ownerEmail, password: PASSWORD }),
      headers: { origin: server.url, "sec-fetch-site": "same-origin" },
    });
    const cookies = res.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie).not.toMatch(/;\s*domain=/i);
  });

  it("signs a customer in on the domain with a host-only cookie of its own, which no other host accepts", async () => {
    const email = `domain-customer-${Math.random().toString(36).slice(2, 7)}@example.test`;
    const form = (fields: Record<string, string>) => ({
      headers: { "content-type": "application/x-www-form-urlencoded", origin: `http://${DOMAIN}` },
      body: new URLSearchParams(fields).toString(),
    });
    const asked = await send(DOMAIN, "POST", "/login", form({ intent: "send", email }));
    expect(asked.status, asked.body).toBe(200);
    const challenge = /name="challenge" value="([^"]+)"/.exec(asked.body)![1]!;
    const { code, link } = codeMailTo(server.url, email);
    // The e-mail's link is on the domain, where the cookie must be set.
    expect(mailedText(server.url, email)).toContain(`http://${DOMAIN}/auth/callback?token=`);
    const signedIn = await send(DOMAIN, "POST", "/login", form({ intent: "code", challenge, code, email }));
    expect(signedIn.status, signedIn.body).toBe(303);
    expect(signedIn.headers.location).toBe("/account");
    const cookie = String(signedIn.headers["set-cookie"]);
    expect(cookie).toMatch(/^atrium_customer=[\w-]{43}; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);
    const value = cookie.split(";")[0]!.split("=")[1]!;
    expect((await onDomain("/account", { headers: { cookie: `atrium_customer=${value}` } })).status).toBe(200);
    // The same secret names no one on the deployment's host (under the site's cookie there) or on another domain.
    const onHost = await onDeployment(`/${SLUG}/account`);
    expect(onHost.status).not.toBe(200);
    const elsewhere = await send(OTHER_DOMAIN, "GET", "/account", { headers: { cookie: `atrium_customer=${value}` } });
    expect(elsewhere.status).toBe(302);
    // A link of this site's challenge does not sign in on another site's domain.
    await send(DOMAIN, "POST", "/login", form({ intent: "send", email }));
    const fresh = codeMailTo(server.url, email).link;
    expect(fresh).not.toBe(link);
    expect((await send(OTHER_DOMAIN, "GET", fresh)).body).toContain("This link no longer works");
  });

  it("resolves /api/v1/* by the host: the contact form reaches this site, whatever the request names", async () => {
    const before = await server.db
      .selectFrom("contact_messages")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .execute();
    const json = await send(DOMAIN, "POST", "/api/v1/contact", {
      headers: { "content-type": "application/json", "x-atrium-site": OTHER_SLUG },
      body: JSON.stringify({ name: "Ada", email: "ada@example.com", message: "Do you bake on Sundays?" }),
    });
    expect(json.status, json.body).toBe(201);
    const form = await send(DOMAIN, "POST", "/api/v1/contact", {
      headers: { "content-type": "application/x-www-form-urlencoded", origin: `http://${DOMAIN}` },
      body: new URLSearchParams({ name: "Bo", email: "bo@example.com", message: "Open on Monday?" }).toString(),
    });
    expect(form.status, form.body).toBe(303);
    expect(form.headers.location).toBe("/contact?sent=1#contact-form");
    const after = await server.db
      .selectFrom("contact_messages")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .execute();
    expect(after.length).toBe(before.length + 2);
    const theirs = await server.db
      .selectFrom("contact_messages")
      .select("id")
      .where("workspace_id", "=", otherWorkspaceId)
      .execute();
    expect(theirs).toEqual([]);

    // The owner's notification links to the inbox on the deployment, not on the customer's domain.
    const mails = () =>
      server.db
        .selectFrom("mail_messages")
        .select("body")
        .where("workspace_id", "=", workspaceId)
        .where("subject", "=", "New message from Ada")
        .execute();
    await expect.poll(async () => (await mails()).length, { timeout: 10_000 }).toBe(1);
    const [mail] = await mails();
    expect(mail!.body).toContain(`${DEPLOYMENT}/inbox/`);
    expect(mail!.body).not.toContain(DOMAIN);

    const routing = JSON.parse((await onDomain("/api/routing-test?path=/about")).body) as Record<string, unknown>;
    expect(routing).toMatchObject({
      host: DOMAIN,
      kind: "custom-domain",
      rewrittenPath: `/${SLUG}/about`,
      redirect: null,
      site: { slug: SLUG, via: "host" },
    });
    const api = JSON.parse((await onDomain("/api/routing-test?path=/api/v1/contact")).body) as Record<string, unknown>;
    expect(api).toMatchObject({ rewrittenPath: "/api/v1/contact", site: { slug: SLUG, via: "host" } });
  });

  it("refuses a pending or unknown host with 421", async () => {
    for (const host of ["pending.example.test", "unknown.example.test"]) {
      const answer = await send(host, "GET", "/");
      expect(answer.status, host).toBe(421);
    }
  });

  it("never shows this site on another workspace's domain", async () => {
    const theirs = await send(OTHER_DOMAIN, "GET", "/");
    expect(theirs.status).toBe(200);
    expect(theirs.body).toContain("Elsewhere Books");
    expect(theirs.body).not.toContain("Corner Shop");
    const about = await send(OTHER_DOMAIN, "GET", "/about");
    expect(about.status).toBe(404);
    expect(about.body).not.toContain("Since 1987");
    // This site's slug on their domain is their path, not a way into this site.
    const slugged = await send(OTHER_DOMAIN, "GET", `/${SLUG}/about`);
    expect(slugged.status).toBe(404);
    expect(slugged.body).not.toContain("Since 1987");
  });
});

describe("the deployment's own host", () => {
  it("answers /{slug}/* with 301 to the primary domain, keeping the path and query", async () => {
    const about = await onDeployment(`/${SLUG}/about?utm_source=flyer`);
    expect(about.status).toBe(301);
    expect(about.headers.location).toBe(`https://${DOMAIN}/about?utm_source=flyer`);
    expect((await onDeployment(`/${SLUG}`)).headers.location).toBe(`https://${DOMAIN}/`);
    // The site's files stay: the console shows them from its own origin.
    expect((await onDeployment(logoUrl)).status).toBe(200);
    // Each site to its own domain.
    expect((await onDeployment(`/${OTHER_SLUG}/contact`)).headers.location).toBe(`https://${OTHER_DOMAIN}/contact`);
    const routing = JSON.parse((await onDeployment(`/api/routing-test?path=/${SLUG}/about`)).body) as Record<
      string,
      unknown
    >;
    expect(routing).toMatchObject({ kind: "deployment", redirect: `https://${DOMAIN}/about`, rewrittenPath: null });
  });

  it("serves the path when the switch is off, with the canonical URL still at the domain", async () => {
    await setRedirect(false);
    try {
      const about = await onDeployment(`/${SLUG}/about`);
      expect(about.status).toBe(200);
      expect(canonicalOf(about.body)).toBe(`https://${DOMAIN}/about`);
      // Links keep the visitor on the host they used.
      expect(hrefsOf(about.body)).toContain(`/${SLUG}/about`);
    } finally {
      await setRedirect(true);
    }
  });

  it("does not redirect to a failing domain (it may not resolve), which still serves the site", async () => {
    await server.db.updateTable("site_domains").set({ status: "failing" }).where("hostname", "=", DOMAIN).execute();
    registry().invalidate();
    try {
      expect((await onDeployment(`/${SLUG}/about`)).status).toBe(200);
      expect((await onDomain("/about")).status).toBe(200);
    } finally {
      await server.db.updateTable("site_domains").set({ status: "verified" }).where("hostname", "=", DOMAIN).execute();
      registry().invalidate();
    }
  });
});

describe("changes", () => {
  it("follows a slug change at once", async () => {
    const renamed = `${SLUG}-new`;
    const saved = await owner.post("/settings", { intent: "workspace", name: "Corner Shop", slug: renamed });
    expect(saved.status, await saved.clone().text()).toBe(200);
    try {
      const about = await onDomain("/about");
      expect(about.status).toBe(200);
      expect(about.body).toContain("Since 1987 on the corner");
      expect(hrefsOf(about.body).filter((h) => h.startsWith(`/${renamed}`))).toEqual([]);
      expect((await onDomain(`/${renamed}/about`)).headers.location).toBe("/about");
      expect((await onDeployment(`/${renamed}/about`)).headers.location).toBe(`https://${DOMAIN}/about`);
    } finally {
      const back = await owner.post("/settings", { intent: "workspace", name: "Corner Shop", slug: SLUG });
      expect(back.status).toBe(200);
    }
  });

  it("takes a domain changed in the database after invalidate()", async () => {
    const renamed = "shop2.example.test";
    await server.db.updateTable("site_domains").set({ hostname: renamed }).where("hostname", "=", DOMAIN).execute();
    try {
      registry().invalidate();
      expect((await onDomain("/")).status).toBe(421);
      expect((await send(renamed, "GET", "/about")).status).toBe(200);
    } finally {
      await server.db.updateTable("site_domains").set({ hostname: DOMAIN }).where("hostname", "=", renamed).execute();
      registry().invalidate();
    }
    expect((await onDomain("/")).status).toBe(200);
  });
});
