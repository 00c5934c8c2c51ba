/**
 * The brand import against a little website served from this test: its home page names a logo, a favicon, a
 * theme colour and an og:image (and one lying "image" that is HTML). The import runs as a job, reports its
 * progress, stores what it found in the media library through the files service, and applies it to the
 * branding — and the next public page shows it. A server that keeps the outbound guard's default refuses the
 * same local site.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, createWorkspace, signUp } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let site: Server;
let siteUrl: string;
const requested: string[] = [];

async function image(width: number, height: number, color: string, format: "png" | "jpeg" = "png") {
  const base = sharp({ create: { width, height, channels: 3, background: color } });
  return format === "png" ? base.png().toBuffer() : base.jpeg().toBuffer();
}

beforeAll(async () => {
  const files: Record<string, { type: string; body: Buffer | string }> = {
    "/": {
      type: "text/html; charset=utf-8",
      body: `<!doctype html><html><head>
        <title>Old Mill Bakery — since 1921</title>
        <meta name="theme-color" content="#8B4513">
        <meta property="og:image" content="/static/share.jpg">
        <link rel="icon" href="/static/icon-32.png" sizes="32x32">
        <link rel="icon" href="/static/icon-192.png" sizes="192x192">
        </head><body>
        <header><a href="/"><img class="site-logo" src="static/logo.png" alt="Old Mill Bakery"></a></header>
        <main><img src="/static/not-an-image.png" alt="Loaves"></main>
        </body></html>`,
    },
    "/plain": {
      type: "text/html; charset=utf-8",
      body: `<!doctype html><html><head><title>Plain</title><meta name="theme-color" content="#204060"></head>
        <body><p>No pictures here.</p></body></html>`,
    },
    "/slow": {
      type: "text/html; charset=utf-8",
      body: `<!doctype html><html><head><title>Slow</title>
        ${[1, 2, 3, 4].map((n) => `<link rel="icon" href="/hang/icon-${n}.png" sizes="${n}x${n}">`).join("")}
        <meta property="og:image" content="/hang/share.jpg"></head>
        <body><header>${[1, 2, 3, 4].map((n) => `<img class="logo" src="/hang/logo-${n}.png" alt="">`).join("")}</header>
        </body></html>`,
    },
    "/static/logo.png": { type: "image/png", body: await image(480, 160, "#8b4513") },
    "/static/icon-192.png": { type: "image/png", body: await image(192, 192, "#f5deb3") },
    "/static/icon-32.png": { type: "image/png", body: await image(32, 32, "#f5deb3") },
    "/static/share.jpg": { type: "image/jpeg", body: await image(1200, 630, "#deb887", "jpeg") },
    "/static/not-an-image.png": { type: "image/png", body: "<html>surprise</html>" },
  };
  site = createServer((req, res) => {
    requested.push(req.url ?? "");
    // Never answers: an old site that hangs on every image.
    if (req.url?.startsWith("/hang/")) return;
    const file = files[req.url ?? ""];
    if (!file) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": file.type }).end(file.body);
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      site.closeAllConnections();
      site.close(() => resolve());
    }),
);

interface ImportState {
  status: string;
  progress: number;
  step: string | null;
  error: string | null;
  found: {
    logoId: string | null;
    faviconId: string | null;
    socialImageId: string | null;
    themeColor: string | null;
    skipped: string[];
  } | null;
}

async function waitForImport(client: Client): Promise<ImportState> {
  for (let i = 0; i < 200; i++) {
    const state = (await (await client.get("/api/editor/branding/import")).json()) as ImportState;
    if (state.status === "done" || state.status === "failed") return state;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the import did not finish");
}

describe("importing the brand from the business's current website", () => {
  let server: TestServer;
  let filesDir: string;
  let owner: Client;

  beforeAll(async () => {
    filesDir = mkdtempSync(join(tmpdir(), "atrium-brand-import-"));
    // The test's website is on loopback, which the outbound guard refuses unless told otherwise (tests only).
    server = await startServer({ FILES_DIR: filesDir, OUTBOUND_ALLOW_PRIVATE: "true", JOBS_POLL_MS: "50" });
    owner = (await signUp(server.url)).client;
    await createWorkspace(owner, "Old Mill", "old-mill");
  });
  afterAll(async () => {
    await server.close();
    rmSync(filesDir, { recursive: true, force: true });
  });

  it("finds the logo, favicon, theme colour and social image, stores them and applies them", async () => {
    const started = await owner.postJson("/api/editor/branding/import", { url: siteUrl });
    expect(started.status).toBe(202);
    expect(await started.json()).toMatchObject({ status: "queued", progress: 0, url: `${siteUrl}/` });

    const state = await waitForImport(owner);
    expect(state.status, state.error ?? "").toBe("done");
    expect(state.progress).toBe(100);
    expect(state.step).toBe("Imported your logo, favicon, brand colour and social image");
    expect(state.found).toMatchObject({ themeColor: "#8b4513" });

    const media = (await (await owner.get("/api/editor/branding/media")).json()) as {
      items: { id: string; filename: string; width: number; contentType: string }[];
    };
    const byId = new Map(media.items.map((m) => [m.id, m]));
    expect(byId.get(state.found!.logoId!)).toMatchObject({ filename: "logo.png", width: 480 });
    // The largest icon wins.
    expect(byId.get(state.found!.faviconId!)).toMatchObject({ filename: "icon-192.png", width: 192 });
    expect(byId.get(state.found!.socialImageId!)).toMatchObject({ filename: "share.jpg", contentType: "image/jpeg" });
    // The lying "image" was never stored.
    expect(media.items.some((m) => m.filename === "not-an-image.png")).toBe(false);

    const branding = (await (await owner.get("/api/editor/branding")).json()) as {
      logoId: string;
      faviconId: string;
      socialImageId: string;
      colors: { brand: string };
    };
    expect(branding).toMatchObject({
      logoId: state.found!.logoId,
      faviconId: state.found!.faviconId,
      socialImageId: state.found!.socialImageId,
      colors: { brand: "#8b4513" },
    });

    const page = await (await fetch(`${server.url}/old-mill`)).text();
    expect(page).toContain('class="site-brand__logo"');
    expect(page).toContain('<meta name="theme-color" content="#8b4513"/>');

    // The console shows the finished import.
    const consolePage = await (await owner.get("/website/branding")).text();
    expect(consolePage).toContain("Import finished");
    expect(consolePage).toContain("Imported your logo, favicon, brand colour and social image");
  });

  it("runs again to the same state without storing the same files twice", async () => {
    const before = (await (await owner.get("/api/editor/branding/media")).json()) as { total: number };
    expect((await owner.postJson("/api/editor/branding/import", { url: siteUrl })).status).toBe(202);
    expect((await waitForImport(owner)).status).toBe("done");
    const after = (await (await owner.get("/api/editor/branding/media")).json()) as { total: number };
    expect(after.total).toBe(before.total);
  });

  it("reports a site that cannot be read as a failed import, in words", async () => {
    expect((await owner.postJson("/api/editor/branding/import", { url: `${siteUrl}/gone` })).status).toBe(202);
    const state = await waitForImport(owner);
    expect(state.status).toBe("failed");
    expect(state.error).toBe(`${siteUrl}/gone answered with HTTP 404`);
  });

  it("shows an import under way with its progress, and refuses a second one until it ends", async () => {
    const id = (
      await server.db.selectFrom("workspaces").select("id").where("slug", "=", "old-mill").executeTakeFirstOrThrow()
    ).id;
    await server.db
      .updateTable("site_branding")
      .set({
        import_status: "running",
        import_progress: 40,
        import_step: "Downloading your logo",
        import_updated_at: new Date().toISOString(),
      })
      .where("workspace_id", "=", id)
      .execute();
    try {
      const html = await (await owner.get("/website/branding")).text();
      expect(html).toContain("Importing");
      expect(html).toMatch(/<progress max="100" value="40"/);
      expect(html).toContain("Downloading your logo");
      expect(html).toContain("refresh it");

      const again = await owner.postJson("/api/editor/branding/import", { url: siteUrl });
      expect(again.status).toBe(409);
      expect(await again.json()).toMatchObject({ message: "An import is already under way; wait for it to finish" });
    } finally {
      await server.db
        .updateTable("site_branding")
        .set({ import_status: "done" })
        .where("workspace_id", "=", id)
        .execute();
    }
  });

  it("starts one import, not several, when the button is pressed several times at once", async () => {
    const jobs = async () =>
      (await server.db.selectFrom("jobs").select("id").where("kind", "=", "sites.brand-import").execute()).length;
    const before = await jobs();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => owner.postJson("/api/editor/branding/import", { url: `${siteUrl}/plain` })),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([202, 409, 409, 409, 409, 409]);
    expect(await jobs()).toBe(before + 1);
    expect((await waitForImport(owner)).status).toBe("done");
  });

  it("keeps no image that no longer fits its place: a social image replaced by a GIF since is dropped, not fatal", async () => {
    const before = (await (await owner.get("/api/editor/branding")).json()) as { socialImageId: string | null };
    expect(before.socialImageId).not.toBeNull();
    const gif = await sharp({ create: { width: 40, height: 40, channels: 3, background: "#123456" } })
      .gif()
      .toBuffer();
    const replaced = await owner.request(
      `/api/editor/branding/media/${before.socialImageId}?filename=${encodeURIComponent("share.gif")}`,
      {
        method: "PUT",
        body: new Uint8Array(gif),
        headers: { "content-type": "image/gif", origin: new URL(server.url).origin },
      },
    );
    expect(replaced.status, await replaced.clone().text()).toBe(200);

    expect((await owner.postJson("/api/editor/branding/import", { url: `${siteUrl}/plain` })).status).toBe(202);
    const state = await waitForImport(owner);
    expect(state.status, state.error ?? "").toBe("done");
    const after = (await (await owner.get("/api/editor/branding")).json()) as {
      socialImageId: string | null;
      colors: { brand: string };
    };
    expect(after.socialImageId).toBeNull();
    expect(after.colors.brand).toBe("#204060");
  });

  it.each([
    ["ftp://example.com/", "Only http: and https: URLs are allowed"],
    ["https://user:secret@example.com/", "URLs may not contain a user name or password"],
    ["", "Give the address of your current website"],
  ])("refuses %j next to the field, queueing nothing", async (url, message) => {
    const jobs = async () =>
      (await server.db.selectFrom("jobs").select("id").where("kind", "=", "sites.brand-import").execute()).length;
    const count = await jobs();
    const res = await owner.post("/website/branding", { intent: "import", url });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain(message);
    expect(html).toContain('id="import-url-error"');
    expect(await jobs()).toBe(count);
    const api = await owner.postJson("/api/editor/branding/import", { url });
    expect(api.status).toBe(400);
    expect(((await api.json()) as { issues: { field: string }[] }).issues[0]!.field).toBe("url");
  });
});

describe("an old site that never answers for its images", () => {
  it("gives up on the images after the import's time is spent, not after a timeout for each of them", async () => {
    const filesDir = mkdtempSync(join(tmpdir(), "atrium-brand-import-slow-"));
    // 4 timeouts in all: the page (quick here), then about 3 image requests that hang until their time is up.
    const slow = await startServer({
      FILES_DIR: filesDir,
      OUTBOUND_ALLOW_PRIVATE: "true",
      OUTBOUND_TIMEOUT_MS: "300",
      JOBS_POLL_MS: "50",
    });
    try {
      const client = (await signUp(slow.url)).client;
      await createWorkspace(client, "Slow", "slow-import");
      const count = requested.length;
      expect((await client.postJson("/api/editor/branding/import", { url: `${siteUrl}/slow` })).status).toBe(202);
      const state = await waitForImport(client);
      expect(state.status, state.error ?? "").toBe("done");
      const hung = requested.slice(count).filter((u) => u.startsWith("/hang/"));
      // 9 candidates (4 logos, 4 icons, 1 social image) would each have had a full timeout without the budget.
      expect(hung.length).toBeGreaterThan(0);
      expect(hung.length).toBeLessThanOrEqual(4);
      expect(state.found?.skipped).toContain(
        "The social image was not imported: your current website took too long to answer",
      );
    } finally {
      await slow.close();
      rmSync(filesDir, { recursive: true, force: true });
    }
  });
});

describe("the outbound guard", () => {
  it("refuses the same local site when private networks are not allowed (the default)", async () => {
    const filesDir = mkdtempSync(join(tmpdir(), "atrium-brand-import-strict-"));
    const strict = await startServer({ FILES_DIR: filesDir, JOBS_POLL_MS: "50" });
    try {
      const client = (await signUp(strict.url)).client;
      await createWorkspace(client, "Strict", "strict-import");
      const count = requested.length;
      expect((await client.postJson("/api/editor/branding/import", { url: siteUrl })).status).toBe(202);
      const state = await waitForImport(client);
      expect(state.status).toBe("failed");
      expect(state.error).toMatch(/cannot be fetched: .*(private|reserved|refused)/i);
      expect(requested.length).toBe(count);
      const media = (await (await client.get("/api/editor/branding/media")).json()) as { total: number };
      expect(media.total).toBe(0);

      // A public host, but not on a web port: refused before any connection (no DNS is needed to see it).
      const url = "https://example.com:8443/";
      expect((await client.postJson("/api/editor/branding/import", { url })).status).toBe(202);
      const other = await waitForImport(client);
      expect(other.status).toBe("failed");
      expect(other.error).toBe(
        `${url} cannot be fetched: Refused to connect to port 8443: only ports 80, 443 are allowed`,
      );
    } finally {
      await strict.close();
      rmSync(filesDir, { recursive: true, force: true });
    }
  });
});
