/**
 * Branding, the business profile and the public frame they make: saved through the console's forms and the
 * editor API (one implementation), checked for contrast and ownership, and visible on the very next public
 * request — the theme stylesheet's address changes with the branding, the footer with the profile.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, addMember, createWorkspace, signUp } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { UNSHARED_CACHE_CONTROL } from "~/modules/cache/front.server";

let server: TestServer;
let filesDir: string;
let owner: Client;
const SLUG = "brand-bakery";

beforeAll(async () => {
  filesDir = mkdtempSync(join(tmpdir(), "atrium-branding-"));
  server = await startServer({ FILES_DIR: filesDir });
  owner = (await signUp(server.url)).client;
  await createWorkspace(owner, "Brand Bakery", SLUG);
});
afterAll(async () => {
  await server.close();
  rmSync(filesDir, { recursive: true, force: true });
});

async function png(width: number, height: number, color: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: color } })
    .png()
    .toBuffer();
}

async function upload(
  client: Client,
  bytes: Buffer,
  filename: string,
  type = "image/png",
): Promise<{ id: string; url: string }> {
  const res = await client.request(`/api/editor/branding/media?filename=${encodeURIComponent(filename)}`, {
    method: "POST",
    body: new Uint8Array(bytes),
    headers: { "content-type": type, origin: new URL(server.url).origin },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string; url: string };
}

const put = (client: Client, path: string, body: unknown) =>
  client.request(path, {
    method: "PUT",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json", origin: new URL(server.url).origin },
  });

function themeHrefOf(html: string): string {
  const match = /<link rel="stylesheet" href="(\/[^"]+\/theme\.css\?v=[^"]+)"/.exec(html);
  expect(match, "the page links its theme stylesheet").not.toBeNull();
  return match![1]!.replace(/&amp;/g, "&");
}

const BRANDING_FORM = {
  intent: "save",
  logoId: "",
  faviconId: "",
  socialImageId: "",
  brand: "#7a2e0e",
  accent: "#f2c14e",
  background: "#fffaf3",
  text: "#2b1d14",
  headingFont: "playfair-display",
  bodyFont: "work-sans",
  corners: "round",
};

describe("the theme stylesheet", () => {
  it("is linked by every public page with the hash of its content, immutable at that address only", async () => {
    const page = await fetch(`${server.url}/${SLUG}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const href = themeHrefOf(html);
    expect(html).not.toMatch(/style="/);

    const css = await fetch(`${server.url}${href}`);
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toMatch(/^text\/css/);
    // This server has no PUBLIC_URL: pages name the request's origin, so no shared cache may keep them (ADR 026)
    // and the browser revalidates by ETag. What a visitor depends on: the linked address is kept here, and the
    // old or bare address always shows the current theme.
    expect(css.headers.get("cache-control")).toBe(UNSHARED_CACHE_CONTROL);
    expect(css.headers.get("etag")).toBeTruthy();
    const again = await fetch(`${server.url}${href}`);
    expect(again.headers.has("age"), "the current address is answered from the page cache").toBe(true);
    expect(await again.text()).toBe(await css.clone().text());
    const text = await css.text();
    for (const variable of [
      "--site-brand",
      "--site-on-brand",
      "--site-accent",
      "--site-on-accent",
      "--site-bg",
      "--site-surface",
      "--site-text",
      "--site-muted",
      "--site-border",
      "--site-font-body",
      "--site-font-heading",
      "--site-radius",
      "--site-width",
    ]) {
      expect(text).toContain(`${variable}:`);
    }
    expect(text).toMatch(/@font-face\{font-family:"Fraunces Variable"/);

    // The font files it names are served from our own origin.
    const font = /url\((\/assets\/[^)]+\.woff2)\)/.exec(text)![1]!;
    const fontRes = await fetch(`${server.url}${font}`);
    expect(fontRes.status).toBe(200);

    const stale = await fetch(`${server.url}/${SLUG}/theme.css?v=outdated`);
    expect(stale.headers.get("cache-control")).not.toMatch(/immutable|(^|[ ,])max-age=[1-9]/);
    expect(await stale.text()).toBe(text);
    const bare = await fetch(`${server.url}/${SLUG}/theme.css`);
    expect(bare.headers.get("cache-control")).not.toMatch(/immutable|(^|[ ,])max-age=[1-9]/);
    expect(await bare.text()).toBe(text);

    expect((await fetch(`${server.url}/no-such-site-here/theme.css`)).status).toBe(404);
  });
});

describe("a path no page serves", () => {
  it("is a 404 inside the site's own frame, and an unknown site stays the neutral page", async () => {
    const res = await fetch(`${server.url}/${SLUG}/no/such/page`);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("<h1>Page not found</h1>");
    expect(html).toContain("<title>Page not found · Brand Bakery</title>");
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).toContain('class="site-header"');
    expect(html).toContain(`href="/${SLUG}">Go to the home page</a>`);
    themeHrefOf(html);

    const unknown = await fetch(`${server.url}/no-such-site-at-all/page`);
    expect(unknown.status).toBe(404);
    const text = await unknown.text();
    expect(text).toContain("Site not found");
    expect(text).not.toContain('class="site-header"');
  });
});

describe("saving the branding", () => {
  it("shows at the next public request: new colours, fonts, logo and favicon", async () => {
    const before = themeHrefOf(await (await fetch(`${server.url}/${SLUG}`)).text());
    const logo = await upload(owner, await png(400, 120, "#7a2e0e"), "logo.png");
    const favicon = await upload(owner, await png(64, 64, "#f2c14e"), "favicon.png");
    const social = await upload(owner, await png(1200, 630, "#2b1d14"), "social.png");

    const saved = await owner.post("/website/branding", {
      ...BRANDING_FORM,
      logoId: logo.id,
      faviconId: favicon.id,
      socialImageId: social.id,
    });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Branding saved");

    const html = await (await fetch(`${server.url}/${SLUG}`)).text();
    const after = themeHrefOf(html);
    expect(after).not.toBe(before);
    const css = await (await fetch(`${server.url}${after}`)).text();
    expect(css).toContain("--site-brand: #7a2e0e;");
    expect(css).toContain("--site-on-brand: #ffffff;");
    expect(css).toContain('--site-font-heading: "Playfair Display Variable"');
    expect(css).toContain('--site-font-body: "Work Sans Variable"');
    expect(css).toContain("--site-radius: 1.25rem;");

    // The logo in the header, the favicon and the social image in the head.
    // A wide logo is a wordmark: shown alone, named by its alt text.
    expect(html).toMatch(/<img class="site-brand__logo"[^>]* alt="Brand Bakery"\/>/);
    expect(html).not.toContain('class="site-brand__name"');
    expect(html).toContain(`/${SLUG}/media/`);
    expect(html).toMatch(new RegExp(`<link rel="icon" href="${favicon.url}"`));
    expect(html).toMatch(new RegExp(`<meta property="og:image" content="[^"]*${social.url}"`));
    expect(html).toContain('<meta name="theme-color" content="#7a2e0e"/>');

    // The editor API reads the same branding.
    const api = (await (await owner.get("/api/editor/branding")).json()) as {
      colors: { brand: string };
      logoId: string;
      contrast: { passes: boolean }[];
      themeHref: string;
    };
    expect(api.colors.brand).toBe("#7a2e0e");
    expect(api.logoId).toBe(logo.id);
    expect(api.themeHref).toBe(after);
    expect(api.contrast.every((c) => c.passes)).toBe(true);
  });

  it("refuses body text under 4.5:1 next to the field, and changes nothing", async () => {
    const before = await (await owner.get("/api/editor/branding")).json();
    const res = await owner.post("/website/branding", { ...BRANDING_FORM, text: "#999999", background: "#aaaaaa" });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toMatch(/reads at 1\.\d:1; it needs at least 4\.5:1/);
    expect(html).toContain('id="color-text-error"');
    expect(await (await owner.get("/api/editor/branding")).json()).toEqual(before);
  });

  it("darkens links when the brand colour is too light to read on the background", async () => {
    const res = await put(owner, "/api/editor/branding", {
      colors: { brand: "#ffd84d", accent: "#1f3a5f", background: "#ffffff", text: "#1c2321" },
      headingFont: "fraunces",
      bodyFont: "inter",
      corners: "soft",
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      contrast: { label: string; passes: boolean; note?: string }[];
      themeHref: string;
    };
    const links = body.contrast.find((c) => c.label.startsWith("Links"))!;
    expect(links.passes).toBe(true);
    expect(links.note).toMatch(/links use the darker #/);
    const css = await (await fetch(`${server.url}${body.themeHref}`)).text();
    expect(css).toMatch(/--site-on-brand: #161412;/);
    expect(css).not.toContain("--site-link: #ffd84d;");
  });

  it("answers the error contract on the API for a colour that is not one and an unknown font", async () => {
    const res = await put(owner, "/api/editor/branding", {
      colors: { brand: "orange-ish", accent: "#1f3a5f", background: "#ffffff", text: "#1c2321" },
      headingFont: "comic-sans",
      bodyFont: "inter",
      corners: "soft",
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      error: string;
      statusCode: number;
      issues: { field: string; message: string }[];
    };
    expect(body.statusCode).toBe(400);
    expect(body.issues.map((i) => i.field).sort()).toEqual(["colors.brand", "headingFont"]);
    expect(body.issues.find((i) => i.field === "colors.brand")!.message).toMatch(/hex colour/);
  });

  it("refuses another workspace's file, and a file of the wrong kind, as images", async () => {
    const other = (await signUp(server.url)).client;
    await createWorkspace(other, "Other Shop", "other-shop-brand");
    const theirs = await upload(other, await png(100, 100, "#000000"), "theirs.png");
    const ico = await upload(
      owner,
      await sharp({ create: { width: 32, height: 32, channels: 3, background: "#fff" } })
        .gif()
        .toBuffer(),
      "anim.gif",
      "image/gif",
    );
    const res = await owner.post("/website/branding", { ...BRANDING_FORM, logoId: theirs.id, socialImageId: ico.id });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("That file is not in this workspace&#x27;s media library");
    expect(html).toContain("Social networks show PNG, JPEG or WebP images only");
  });

  it("lets viewers and editors read the branding but only admins change it", async () => {
    const editor = await signUp(server.url);
    const viewer = await signUp(server.url);
    await addMember(server.url, owner, editor, "editor");
    await addMember(server.url, owner, viewer, "viewer");
    for (const member of [editor, viewer]) {
      await member.client.post("/?index", { intent: "select", workspaceId: await workspaceId(SLUG) });
      expect((await member.client.get("/api/editor/branding")).status).toBe(200);
      expect((await member.client.get("/api/editor/branding/profile")).status).toBe(200);
      expect((await put(member.client, "/api/editor/branding", {})).status).toBe(403);
      expect((await put(member.client, "/api/editor/branding/profile", {})).status).toBe(403);
      expect((await member.client.postJson("/api/editor/branding/import", { url: "https://example.com" })).status).toBe(
        403,
      );
      expect((await member.client.get("/website/branding")).status).toBe(403);
      expect((await member.client.post("/website/branding", BRANDING_FORM)).status).toBe(403);
      expect((await member.client.get("/website/profile")).status).toBe(403);
    }
  });

  it("refuses signed-out callers", async () => {
    const anonymous = new Client(server.url);
    expect((await anonymous.get("/api/editor/branding")).status).toBe(401);
    expect((await anonymous.get("/website/branding")).status).toBe(302);
  });
});

async function workspaceId(slug: string): Promise<string> {
  return (await server.db.selectFrom("workspaces").select("id").where("slug", "=", slug).executeTakeFirstOrThrow()).id;
}

function isoDay(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

const PROFILE_FORM = {
  intent: "save",
  tagline: "Bread worth getting up for.",
  street: "1 Mill Lane",
  locality: "Porto",
  region: "",
  postalCode: "4000-001",
  country: "PT",
  phone: "+351 22 000 0000",
  email: "ola@brand-bakery.example",
  timeZone: "Europe/Lisbon",
  currency: "EUR",
  "mon.open1": "08:00",
  "mon.close1": "18:00",
  "tue.open1": "08:00",
  "tue.close1": "18:00",
  "wed.open1": "08:00",
  "wed.close1": "18:00",
  "thu.open1": "08:00",
  "thu.close1": "18:00",
  "fri.open1": "08:00",
  "fri.close1": "18:00",
  "sat.open1": "09:00",
  "sat.close1": "12:30",
  "sat.open2": "14:00",
  "sat.close2": "17:00",
};

describe("the business profile", () => {
  it("saves in the console and shows in the footer and the structured data at the next request", async () => {
    const saved = await owner.post("/website/profile", PROFILE_FORM);
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Business profile saved");
    const holiday = isoDay(3);
    const added = await owner.post("/website/profile", {
      intent: "add-exception",
      date: holiday,
      closed: "on",
      note: "Town festival",
    });
    expect(added.status).toBe(200);

    const html = await (await fetch(`${server.url}/${SLUG}`)).text();
    expect(html).toContain("1 Mill Lane");
    expect(html).toContain("Portugal");
    expect(html).toContain('href="tel:+351220000000"');
    expect(html).toContain("mailto:ola@brand-bakery.example");
    expect(html).toMatch(/Monday – Friday<\/dt><dd>8:00–18:00/);
    expect(html).toMatch(/Saturday<\/dt><dd>9:00–12:30, 14:00–17:00/);
    expect(html).toMatch(/Sunday<\/dt><dd>Closed/);
    expect(html).toContain("Town festival");

    const blocks = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map(
      (m) => JSON.parse(m[1]!) as Record<string, unknown>,
    );
    const business = blocks.find((b) => b["@type"] === "LocalBusiness")!;
    expect(business).toMatchObject({
      name: "Brand Bakery",
      telephone: "+351 22 000 0000",
      address: { streetAddress: "1 Mill Lane", addressLocality: "Porto", addressCountry: "PT" },
    });
    expect(business.openingHoursSpecification).toContainEqual({
      "@type": "OpeningHoursSpecification",
      dayOfWeek: "https://schema.org/Saturday",
      opens: "14:00",
      closes: "17:00",
    });
    expect(business.specialOpeningHoursSpecification).toContainEqual(
      expect.objectContaining({ validFrom: holiday, validThrough: holiday }),
    );
    expect(blocks.find((b) => b["@type"] === "WebSite")).toMatchObject({ name: "Brand Bakery" });

    const api = (await (await owner.get("/api/editor/branding/profile")).json()) as {
      timeZone: string;
      currency: string;
      exceptions: { date: string }[];
    };
    expect(api).toMatchObject({ timeZone: "Europe/Lisbon", currency: "EUR" });
    expect(api.exceptions.map((e) => e.date)).toEqual([holiday]);

    const removed = await owner.post("/website/profile", { intent: "remove-exception", date: holiday });
    expect(removed.status).toBe(200);
    expect(await (await fetch(`${server.url}/${SLUG}`)).text()).not.toContain("Town festival");
  });

  it.each([
    [{ timeZone: "Mars/Olympus_Mons" }, "Choose a time zone from the list"],
    [{ currency: "ABC" }, "Choose an ISO 4217 currency"],
    [{ "tue.close1": "07:00" }, "Closing time must be after opening time"],
    [{ "wed.open1": "25:00" }, "Use a 24-hour time such as 07:30"],
    [{ email: "not-an-address" }, "Give an e-mail address"],
    [{ country: "ZZ" }, "Choose a country from the list"],
  ])("refuses %j with a message next to the field, changing nothing", async (change, message) => {
    const before = await (await owner.get("/api/editor/branding/profile")).json();
    const res = await owner.post("/website/profile", { ...PROFILE_FORM, tagline: "Changed?", ...change });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(message);
    expect(await (await owner.get("/api/editor/branding/profile")).json()).toEqual(before);
  });

  it("refuses an exception on a date that does not exist", async () => {
    const res = await owner.post("/website/profile", { intent: "add-exception", date: "2026-02-30", closed: "on" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Give a date such as 2026-12-25");
  });

  it("saves through the editor API with the same rules", async () => {
    const res = await put(owner, "/api/editor/branding/profile", {
      timeZone: "America/New_York",
      currency: "usd",
      hours: { sun: [{ open: "10:00", close: "09:00" }] },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { issues: { field: string }[] };
    expect(body.issues.map((i) => i.field)).toEqual(["hours.sun.0.close"]);

    const ok = await put(owner, "/api/editor/branding/profile", {
      timeZone: "America/New_York",
      currency: "usd",
      hours: { sun: [{ open: "10:00", close: "14:00" }] },
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      currency: "USD",
      hours: { sun: [{ open: "10:00", close: "14:00" }], mon: [] },
    });
  });
});
