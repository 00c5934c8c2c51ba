/**
 * The generated share image (ADR 022) over real HTTP: /{site}/og-image is a 1200×630 PNG (read from its IHDR
 * chunk), different for another title, the same for titles equal once cut to 120 characters; ETag and 304;
 * cached for a year only at the address the page head gives it (`v=`), which changes with the brand; page
 * heads name it as og:image and twitter:image with its size and alt text; unknown sites 404, suspended 503.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createWorkspace, signUp } from "../helpers/client";
import { upload } from "../helpers/files";
import { startServer, type TestServer } from "../helpers/server";
import { IMMUTABLE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL } from "~/modules/cache/headers";

let server: TestServer;
let filesDir: string;
let owner: Client;
const SITE = `og-${Math.random().toString(36).slice(2, 7)}`;
const PUBLIC_URL = "https://atrium.example";

beforeAll(async () => {
  filesDir = mkdtempSync(join(tmpdir(), "atrium-og-"));
  server = await startServer({ FILES_DIR: filesDir, PUBLIC_URL });
  owner = (await signUp(server.url)).client;
  await createWorkspace(owner, "Harbor Bakery", SITE);
});
afterAll(async () => {
  await server.close();
  rmSync(filesDir, { recursive: true, force: true });
});

const visitor = () => new Client(server.url);
const origin = () => new URL(server.url).origin;

/** Width and height from a PNG's IHDR chunk (bytes 16–23), after checking the signature and chunk name. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  expect(bytes.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function image(path: string, headers: Record<string, string> = {}) {
  const res = await visitor().get(path, headers);
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

const api = (method: string, path: string, body?: unknown) =>
  owner.request(path, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { origin: origin(), ...(body === undefined ? {} : { "content-type": "application/json" }) },
  });

function metaContent(html: string, attribute: "property" | "name", key: string): string | undefined {
  const match = new RegExp(`<meta ${attribute}="${key}" content="([^"]*)"`).exec(html);
  return match?.[1]?.replace(/&amp;/g, "&");
}

describe("/{site}/og-image", () => {
  it("is a 1200×630 PNG of the title, different for another title", async () => {
    const a = await image(`/${SITE}/og-image?title=${encodeURIComponent("Sourdough classes on Saturdays")}`);
    expect(a.res.status).toBe(200);
    expect(a.res.headers.get("content-type")).toBe("image/png");
    expect(pngSize(a.bytes)).toEqual({ width: 1200, height: 630 });
    const b = await image(`/${SITE}/og-image?title=${encodeURIComponent("Opening hours over the holidays")}`);
    expect(pngSize(b.bytes)).toEqual({ width: 1200, height: 630 });
    expect(b.bytes.equals(a.bytes)).toBe(false);
    expect(b.res.headers.get("etag")).not.toBe(a.res.headers.get("etag"));
    // Without the page head's `v=`, a short cache: the brand may change under this address.
    expect(a.res.headers.get("cache-control")).toBe(PUBLIC_CACHE_CONTROL);
  });

  it("answers 304 to its ETag, and the same image again", async () => {
    const path = `/${SITE}/og-image?title=Etag`;
    const first = await image(path);
    const etag = first.res.headers.get("etag")!;
    expect(etag).toMatch(/^"og-[\w-]+"$/);
    const again = await visitor().get(path, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect((await image(path)).bytes.equals(first.bytes)).toBe(true);
  });

  it("cuts a title past 120 characters rather than refusing it", async () => {
    const long = "Word ".repeat(60);
    const a = await image(`/${SITE}/og-image?title=${encodeURIComponent(`${long}ending one`)}`);
    const b = await image(`/${SITE}/og-image?title=${encodeURIComponent(`${long}another ending`)}`);
    expect(a.res.status).toBe(200);
    expect(pngSize(a.bytes)).toEqual({ width: 1200, height: 630 });
    // Both cut to the same first 120 characters: the same image.
    expect(b.res.headers.get("etag")).toBe(a.res.headers.get("etag"));
    const empty = await image(`/${SITE}/og-image`);
    expect(empty.res.status).toBe(200);
    expect(pngSize(empty.bytes)).toEqual({ width: 1200, height: 630 });
  });

  it("is named by page heads at the site's address, cached for a year there, and changes with the brand", async () => {
    // The first page is the home page, at the site's own address; the second is at /sourdough.
    expect((await api("POST", "/api/editor/pages", { title: "Welcome", slug: "welcome" })).status).toBe(201);
    const created = await api("POST", "/api/editor/pages", { title: "Our sourdough", slug: "sourdough" });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await api("POST", `/api/editor/pages/${id}/publish`)).status).toBe(200);

    const html = await (await visitor().get(`/${SITE}/sourdough`)).text();
    const url = metaContent(html, "property", "og:image")!;
    expect(url).toMatch(new RegExp(`^${PUBLIC_URL}/${SITE}/og-image\\?title=Our\\+sourdough&v=[0-9a-f]{8}$`));
    expect(metaContent(html, "name", "twitter:image")).toBe(url);
    expect(metaContent(html, "property", "og:image:width")).toBe("1200");
    expect(metaContent(html, "property", "og:image:height")).toBe("630");
    expect(metaContent(html, "property", "og:image:alt")).toBe("Our sourdough · Harbor Bakery");
    expect(metaContent(html, "name", "twitter:card")).toBe("summary_large_image");

    const path = url.slice(PUBLIC_URL.length);
    const current = await image(path);
    expect(current.res.headers.get("cache-control")).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(pngSize(current.bytes)).toEqual({ width: 1200, height: 630 });

    // A logo and a new brand colour: a new `v`, and the old address is no longer cached for long.
    const logo = await sharp({ create: { width: 400, height: 160, channels: 4, background: "#f2c14e" } })
      .png()
      .toBuffer();
    const uploaded = await owner.request(`/api/editor/branding/media?filename=logo.png`, {
      method: "POST",
      body: new Uint8Array(logo),
      headers: { "content-type": "image/png", origin: origin() },
    });
    expect(uploaded.status).toBe(201);
    const { id: logoId } = (await uploaded.json()) as { id: string };
    const saved = await api("PUT", "/api/editor/branding", {
      logoId,
      faviconId: null,
      socialImageId: null,
      colors: { brand: "#7a2e0e", accent: "#f2c14e", background: "#fffaf3", text: "#2b1d14" },
      headingFont: "fraunces",
      bodyFont: "inter",
      corners: "soft",
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const after = await (await visitor().get(`/${SITE}/sourdough`)).text();
    const newUrl = metaContent(after, "property", "og:image")!;
    expect(newUrl).not.toBe(url);
    const branded = await image(newUrl.slice(PUBLIC_URL.length));
    expect(branded.res.headers.get("cache-control")).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(branded.bytes.equals(current.bytes)).toBe(false);
    expect(branded.res.headers.get("etag")).not.toBe(current.res.headers.get("etag"));
    const stale = await image(path);
    expect(stale.res.headers.get("cache-control")).toBe(PUBLIC_CACHE_CONTROL);
    expect(stale.bytes.equals(branded.bytes)).toBe(true);
  });

  it("is a 404 for an unknown site and a 503 while the site's owner is suspended", async () => {
    expect((await visitor().get(`/no-such-site-here/og-image?title=x`)).status).toBe(404);
    const other = await signUp(server.url);
    const slug = `${SITE}-sus`;
    await createWorkspace(other.client, "Suspended Bakery", slug);
    await server.db.updateTable("users").set({ status: "suspended" }).where("email", "=", other.email).execute();
    const res = await visitor().get(`/${slug}/og-image?title=x`);
    expect(res.status).toBe(503);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  // Never with a truly huge SVG: the guard is tested with sizes refused before anything draws them.
  it("refuses an SVG logo of absurd size at upload, and draws a wide one inside the logo's box", async () => {
    const svg = (attributes: string) =>
      new TextEncoder().encode(
        `<svg xmlns="http://www.w3.org/2000/svg" ${attributes}><rect width="100%" height="100%" fill="#900"/></svg>`,
      );
    const send = (bytes: Uint8Array) =>
      owner.request(`/api/editor/branding/media?filename=logo.svg`, {
        method: "POST",
        body: new Uint8Array(bytes),
        headers: { "content-type": "image/svg+xml", origin: origin() },
      });
    for (const attributes of ['width="4000000" height="10"', 'viewBox="0 0 4000000 10"', 'width="12000mm"']) {
      const refused = await send(svg(attributes));
      expect(refused.status, attributes).toBe(400);
      const body = (await refused.json()) as { issues: { field: string; message: string }[] };
      expect(body.issues[0]).toMatchObject({ field: "file", message: expect.stringMatching(/at most 10,000/) });
    }
    const narrow = await send(svg('width="6000" height="100"'));
    expect(narrow.status).toBe(400);
    expect(((await narrow.json()) as { message: string }).message).toMatch(/more than 50 times/);

    // The console's media library says it beside the file field.
    const page = await upload(owner, "/website/media", svg('width="4000000" height="10"'), "wide.svg", {
      intent: "upload",
    });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("This SVG declares a size of 4000000×10: its sides may be at most 10,000");

    const wide = await send(svg('viewBox="0 0 4000 100"'));
    expect(wide.status).toBe(201);
    const { id: logoId } = (await wide.json()) as { id: string };
    const saved = await api("PUT", "/api/editor/branding", {
      logoId,
      faviconId: null,
      socialImageId: null,
      colors: { brand: "#7a2e0e", accent: "#f2c14e", background: "#fffaf3", text: "#2b1d14" },
      headingFont: "fraunces",
      bodyFont: "inter",
      corners: "soft",
    });
    expect(saved.status).toBe(200);
    for (const title of ["Wide logo one", "Wide logo two"]) {
      const drawn = await image(`/${SITE}/og-image?title=${encodeURIComponent(title)}`);
      expect(drawn.res.status).toBe(200);
      expect(pngSize(drawn.bytes)).toEqual({ width: 1200, height: 630 });
    }
  });
});

describe("new renders per client address", () => {
  let limited: TestServer;
  afterAll(() => limited?.close());

  it("answers 429 with Retry-After past the address's new renders, while cached images stay free", async () => {
    limited = await startServer({ PUBLIC_URL, OG_RENDERS_PER_ADDRESS_PER_MINUTE: "3" });
    const { client } = await signUp(limited.url);
    const slug = `${SITE}-lim`;
    await createWorkspace(client, "Limited Bakery", slug);
    const get = (title: string) => new Client(limited.url).get(`/${slug}/og-image?title=${title}`);
    for (const title of ["one", "two", "three"]) expect((await get(title)).status).toBe(200);
    const refused = await get("four");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(await refused.text()).toMatch(/Too many new share images/);
    // Already drawn: served from the cache, not counted.
    for (const title of ["one", "two", "three", "one"]) expect((await get(title)).status).toBe(200);
  });
});
