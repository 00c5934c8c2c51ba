/**
 * Protected sites after the issue-14 security review (ADR 023): the console's own images of a protected site
 * (media library, page preview, branding preview) load for the workspace's members and no one else; the
 * unlock cookie is `Secure` whenever the visitor reached the deployment over https (a trusted proxy's
 * X-Forwarded-Proto, or an https PUBLIC_URL in production); and guesses on one site from every address
 * together are capped a minute (429, never a lasting lock-out).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isoNow } from "~/lib/clock.server";
import { newId } from "~/lib/ids.server";
import { Client, addMember, createWorkspace, signUp } from "../helpers/client";
import { png } from "../helpers/files";
import { raw } from "../helpers/raw-request";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
let filesDir: string;
beforeAll(async () => {
  filesDir = mkdtempSync(join(tmpdir(), "atrium-protected-review-"));
  // Loopback is the trusted proxy: tests name the visitor's address and scheme with X-Forwarded-*.
  server = await startServer({ FILES_DIR: filesDir, TRUST_PROXY: "loopback" });
});
afterAll(async () => {
  await server.close();
  rmSync(filesDir, { recursive: true, force: true });
});

const PASSWORD = "open sesame 42";

let sites = 0;
async function protectedSite() {
  sites += 1;
  const slug = `review-${process.pid}-${sites}`;
  const { client: owner } = await signUp(server.url);
  await createWorkspace(owner, `Review Bakery ${sites}`, slug);
  expect((await owner.post("/settings/site", { visibility: "protected", password: PASSWORD })).status).toBe(200);
  return { owner, slug };
}

const visitor = () => new Client(server.url);
const from = (ip: string) => ({ "x-forwarded-for": ip });

async function upload(owner: Client, bytes: Uint8Array, filename: string) {
  const res = await owner.request(`/api/editor/branding/media?filename=${filename}`, {
    method: "POST",
    body: new Uint8Array(bytes),
    headers: { "content-type": "image/png", origin: new URL(server.url).origin },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; url: string };
}

/** Every `/{slug}/media/…` address a page's HTML names (src, srcset, href). */
function mediaPaths(html: string, slug: string): string[] {
  const found = html.match(new RegExp(`/${slug}/media/[a-f0-9]{64}(?:-\\d+\\.webp|\\.[a-z]+)`, "g")) ?? [];
  return [...new Set(found)];
}

describe("a protected site's images in the console", () => {
  it("load for every member of its workspace, and stay closed to other operators and visitors", async () => {
    const { owner, slug } = await protectedSite();
    const photo = await upload(owner, await png(600, 400, [20, 90, 160]), "photo.png");
    const path = new URL(photo.url, server.url).pathname;

    const open = await owner.get(path);
    expect(open.status).toBe(200);
    expect(open.headers.get("content-type")).toBe("image/png");
    // Still never kept by a shared cache: the site is protected.
    expect(open.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    const variant = await owner.get(path.replace(/\.png$/, "-320.webp"));
    expect(variant.status).toBe(200);

    // Any role, and whichever workspace the console has selected.
    const viewer = await signUp(server.url);
    await addMember(server.url, owner, viewer, "viewer");
    await createWorkspace(viewer.client, "Viewer's own", `own-${process.pid}-${sites}`);
    expect((await viewer.client.get(path)).status).toBe(200);

    const stranger = await signUp(server.url);
    const refused = await stranger.client.get(path);
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe(`/${slug}/unlock?next=${encodeURIComponent(path)}`);
    expect((await visitor().get(path)).status).toBe(302);
  });

  it("shows the images of the page preview, the branding preview and the media library", async () => {
    const { owner, slug } = await protectedSite();
    const logo = await upload(owner, await png(400, 120, [120, 40, 20]), "logo.png");
    const photo = await upload(owner, await png(1200, 800, [20, 90, 160]), "hero.png");
    const saved = await owner.post("/website/branding", {
      intent: "save",
      logoId: logo.id,
      faviconId: "",
      socialImageId: photo.id,
      brand: "#7a2e0e",
      accent: "#f2c14e",
      background: "#fffaf3",
      text: "#2b1d14",
      headingFont: "playfair-display",
      bodyFont: "work-sans",
      corners: "round",
    });
    expect(saved.status).toBe(200);
    const created = await owner.postJson("/api/editor/pages", {
      title: "Look",
      slug: "look",
      blocks: [{ type: "hero", heading: "Fresh bread", imageId: photo.id }],
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };

    const preview = await owner.get(`/website/pages/${id}/preview`);
    expect(preview.status).toBe(200);
    const previewImages = mediaPaths(await preview.text(), slug);
    const photoSha = /[a-f0-9]{64}/.exec(photo.url)![0];
    expect(previewImages.some((p) => p.includes(photoSha))).toBe(true);

    const branding = await owner.get("/website/branding");
    expect(branding.status).toBe(200);
    const brandingImages = mediaPaths(await branding.text(), slug);
    expect(brandingImages.some((p) => p.includes(photoSha))).toBe(true);

    const library = await owner.get("/website/media");
    expect(library.status).toBe(200);
    const libraryImages = mediaPaths(await library.text(), slug);
    expect(libraryImages.some((p) => p.includes(photoSha))).toBe(true);

    for (const image of [...previewImages, ...brandingImages, ...libraryImages]) {
      const res = await owner.get(image);
      expect(res.status, image).toBe(200);
      expect(res.headers.get("content-type"), image).toMatch(/^image\//);
    }
    // The same addresses, without the console's session: the hero photo is closed (the logo stays open).
    expect((await visitor().get(previewImages.find((p) => p.includes(photoSha))!)).status).toBe(302);
  });
});

describe("the unlock cookie's Secure flag", () => {
  const unlockCookie = async (base: string, headers: Record<string, string> = {}) => {
    const res = await new Client(base).post(`/${slug}/unlock`, { password: PASSWORD, next: `/${slug}` }, headers);
    expect(res.status).toBe(303);
    return res.headers.get("set-cookie") ?? "";
  };
  let slug = "";
  let production: TestServer;
  beforeAll(async () => {
    slug = (await protectedSite()).slug;
    // The same database, served as in production behind a TLS proxy that sends no X-Forwarded-Proto.
    production = await startServer(
      { NODE_ENV: "production", PUBLIC_URL: "https://atrium.example.test", FILES_DIR: filesDir },
      server.database,
    );
  });
  afterAll(() => production.close());

  it("is set when a trusted proxy says the request came over https, and not over plain http", async () => {
    expect(await unlockCookie(server.url, { "x-forwarded-proto": "https" })).toMatch(/;\s*Secure/i);
    expect(await unlockCookie(server.url)).not.toMatch(/;\s*Secure/i);
  });

  it("is set in production when PUBLIC_URL is https, even when no proxy names the scheme", async () => {
    expect(await unlockCookie(production.url)).toMatch(/;\s*Secure/i);
  });
});

describe("guesses on one site from every address together", () => {
  it("are capped at 60 a minute: then 429 with a short Retry-After, while an unlocked visitor reads on", async () => {
    const { slug } = await protectedSite();
    const reader = visitor();
    expect((await reader.post(`/${slug}/unlock`, { password: PASSWORD }, from("198.51.100.200"))).status).toBe(303);

    // 12 addresses × 5 wrong guesses: each within its own allowance, 60 for the site.
    for (let address = 1; address <= 12; address += 1) {
      for (let guess = 0; guess < 5; guess += 1) {
        const res = await visitor().post(`/${slug}/unlock`, { password: `wrong ${guess}` }, from(`192.0.2.${address}`));
        expect(res.status).toBe(403);
      }
    }
    const slowed = await visitor().post(`/${slug}/unlock`, { password: PASSWORD }, from("203.0.113.9"));
    expect(slowed.status).toBe(429);
    const retryAfter = Number(slowed.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(slowed.headers.get("set-cookie")).toBeNull();
    expect(await slowed.text()).toContain("Too many password attempts on this site. Try again in 1 minute.");

    // Nothing else is closed: the visitor who unlocked before reads on, and another site is untouched.
    expect((await reader.get(`/${slug}`)).status).toBe(200);
    const other = await protectedSite();
    expect((await visitor().post(`/${other.slug}/unlock`, { password: PASSWORD }, from("192.0.2.1"))).status).toBe(303);
  });
});

describe("the on-demand TLS ask endpoint (ADR 024)", () => {
  it("answers from the served-host registry, so it always agrees with the host check", async () => {
    const { slug } = await protectedSite();
    const { id } = await server.db
      .selectFrom("workspaces")
      .select("id")
      .where("slug", "=", slug)
      .executeTakeFirstOrThrow();
    const hostname = `shop-${process.pid}.example.test`;
    const at = isoNow();
    // Verified behind the registry's back (as another node would): neither knows it before the registry reloads.
    await server.db
      .insertInto("site_domains")
      .values({
        id: newId(),
        workspace_id: id,
        hostname,
        token: newId(),
        status: "verified",
        is_primary: 1,
        redirect_path: 1,
        diagnostics: "[]",
        last_checked_at: null,
        next_check_at: null,
        verified_at: at,
        created_at: at,
        updated_at: at,
      })
      .execute();
    const ask = (name: string) => fetch(`${server.url}/api/internal/domains/ask?domain=${encodeURIComponent(name)}`);
    expect((await raw(server, "GET", "/", { host: hostname })).status).toBe(421);
    expect((await ask(hostname)).status).toBe(404);

    server.atrium.runtime.services.siteDomains.invalidate();
    expect((await raw(server, "GET", "/unlock", { host: hostname })).status).toBe(200);
    expect((await ask(hostname)).status).toBe(200);
    expect((await ask(`${hostname.toUpperCase()}.`)).status).toBe(200);
  });
});
