/**
 * The files service through real HTTP, once with the disk store and once with S3 (s3rver in-process):
 * uploads through the editor API, the type read from the bytes, the size limit and the quota, hostile SVG,
 * EXIF stripped, the public addresses (immutable, variants made once and kept, only on the owning site),
 * replacing and deleting (the blob swept unless another workspace shares it), roles and other workspaces.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { Client, addMember, createWorkspace, signUp, uniqueEmail } from "../helpers/client";
import { eventually, filesUnder, jpegWithExif, png, upload } from "../helpers/files";
import { startS3, type TestS3 } from "../helpers/s3";
import { startServer, type TestServer } from "../helpers/server";
import { tempDir, type TempDir } from "../helpers/temp";

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

interface Item {
  id: string;
  sha256: string;
  url: string;
  srcset: string | null;
  width: number;
  height: number;
  contentType: string;
  byteSize: number;
  alt: string;
  filename: string;
}

describe.each(["disk", "s3"] as const)("files on %s", (kind) => {
  let server: TestServer;
  let s3: TestS3 | undefined;
  let dir: TempDir;
  let owner: Client;
  let slug: string;

  /** The blobs the store holds, as `originals/{sha}` and `variants/{sha}-{w}.webp`. */
  const blobs = async (): Promise<string[]> => {
    if (s3) return s3.keys();
    return filesUnder(dir.path).map((path) => {
      const parts = path.split("/");
      return `${parts[0]}/${parts.at(-1)}`;
    });
  };

  beforeAll(async () => {
    dir = tempDir("files");
    if (kind === "s3") s3 = await startS3();
    server = await startServer({
      FILES_DIR: dir.path,
      FILES_MAX_BYTES: String(400 * 1024),
      FILES_QUOTA_MB: "2",
      JOBS_POLL_MS: "50",
      ...(s3?.env ?? {}),
    });
    ({ client: owner } = await signUp(server.url));
    slug = `bakery-${kind}-${Math.random().toString(36).slice(2, 7)}`;
    await createWorkspace(owner, "Bakery", slug);
  });
  afterAll(async () => {
    await server.close();
    await s3?.close();
    dir.remove();
  });

  const api = "/api/editor/branding/media";

  it("warns at start only when Postgres keeps files on this machine's disk", () => {
    const warned = server.logs.some((l) => String(l.msg).startsWith("files are stored on this machine's disk"));
    expect(warned).toBe(kind === "disk" && server.database.dialect === "postgres");
  });

  it("stores an upload by its content and serves it on the site, immutable", async () => {
    const bytes = await png(1000, 600);
    const res = await upload(owner, api, bytes, "loaf.png", { alt: "A loaf on the counter" });
    expect(res.status).toBe(201);
    const item = (await res.json()) as Item;
    expect(item).toMatchObject({ contentType: "image/png", width: 1000, height: 600, alt: "A loaf on the counter" });
    expect(item.sha256).toBe(sha(bytes));
    expect(item.url).toBe(`/${slug}/media/${item.sha256}.png`);
    expect(await blobs()).toContain(`originals/${item.sha256}`);

    const served = await fetch(`${server.url}${item.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
    const again = await fetch(`${server.url}${item.url}`, {
      headers: { "if-none-match": served.headers.get("etag")! },
    });
    expect(again.status).toBe(304);

    const head = await fetch(`${server.url}${item.url}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(bytes.byteLength));

    // The listing shows it, newest first.
    const list = (await (await owner.get(api)).json()) as { items: Item[]; total: number; usedBytes: number };
    expect(list.items[0]?.id).toBe(item.id);
    expect(list.usedBytes).toBeGreaterThanOrEqual(bytes.byteLength);
  });

  it("takes the file as the raw body too, named by ?filename=", async () => {
    const bytes = await png(300, 300, [77, 66, 55]);
    const res = await owner.request(`${api}?filename=${encodeURIComponent("raw upload.png")}`, {
      method: "POST",
      body: bytes,
      headers: { "content-type": "image/png", origin: new URL(server.url).origin },
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ filename: "raw upload.png", width: 300, sha256: sha(bytes) });
    const wrongType = await owner.request(api, {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json", origin: new URL(server.url).origin },
    });
    expect(wrongType.status).toBe(415);
  });

  it("makes a WebP variant once, keeps it, and serves only the widths pages ask for", async () => {
    const item = (await (await upload(owner, api, await png(1500, 900, [10, 200, 90]), "wide.png")).json()) as Item;
    expect(item.srcset).toContain(`${item.sha256}-640.webp 640w`);
    const variant = await fetch(`${server.url}/${slug}/media/${item.sha256}-640.webp`);
    expect(variant.status).toBe(200);
    expect(variant.headers.get("content-type")).toBe("image/webp");
    expect(variant.headers.get("cache-control")).toContain("immutable");
    const meta = await sharp(Buffer.from(await variant.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 640 });
    expect(await blobs()).toContain(`variants/${item.sha256}-640.webp`);
    // A width no page asks for, an extension that is not the file's, a malformed name: 404.
    for (const name of [`${item.sha256}-641.webp`, `${item.sha256}.jpg`, `${item.sha256}-2000.webp`, "x.png"]) {
      expect((await fetch(`${server.url}/${slug}/media/${name}`)).status, name).toBe(404);
    }
  });

  it("drops EXIF from photos", async () => {
    const original = await jpegWithExif();
    expect((await sharp(Buffer.from(original)).metadata()).exif).toBeDefined();
    const item = (await (await upload(owner, api, original, "IMG_0001.JPG")).json()) as Item;
    expect(item.contentType).toBe("image/jpeg");
    const served = Buffer.from(await (await fetch(`${server.url}${item.url}`)).arrayBuffer());
    expect((await sharp(served).metadata()).exif).toBeUndefined();
    expect(served.includes(Buffer.from("PhoneCo"))).toBe(false);
  });

  it("refuses a file that lies about its type, one too large and a hostile SVG, and changes nothing", async () => {
    const before = ((await (await owner.get(api)).json()) as { total: number }).total;
    const blobsBefore = await blobs();

    const lie = await upload(
      owner,
      api,
      new TextEncoder().encode("#!/bin/sh\necho hi\n"),
      "photo.png",
      {},
      "POST",
      "image/png",
    );
    expect(lie.status).toBe(400);
    const lieBody = (await lie.json()) as { issues: { field: string; message: string }[] };
    expect(lieBody.issues[0]).toMatchObject({ field: "file" });
    expect(lieBody.issues[0]?.message).toMatch(/not an image we can show/);

    const big = new Uint8Array(401 * 1024).fill(7);
    const tooLarge = await upload(owner, api, big, "big.png");
    expect(tooLarge.status).toBe(400);
    expect(((await tooLarge.json()) as { message: string }).message).toMatch(
      /This file is 401 KB; files may be at most 400 KB/,
    );

    for (const svg of [
      `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="javascript:alert(1)"><rect width="5" height="5"/></a></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><iframe src="https://evil.example"/></foreignObject></svg>`,
      `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg"><image href="https://tracker.example/p.png"/></svg>`,
    ]) {
      const res = await upload(owner, api, new TextEncoder().encode(svg), "logo.svg", {}, "POST", "image/svg+xml");
      expect(res.status, svg).toBe(400);
    }
    expect(((await (await owner.get(api)).json()) as { total: number }).total).toBe(before);
    expect(await blobs()).toEqual(blobsBefore);
  });

  it("keeps a clean SVG, served so that it can never run", async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 40"><defs><linearGradient id="g"><stop offset="0" stop-color="#c60"/></linearGradient></defs><rect width="120" height="40" fill="url(#g)"/></svg>`;
    const res = await upload(owner, api, new TextEncoder().encode(svg), "logo.svg");
    expect(res.status).toBe(201);
    const item = (await res.json()) as Item;
    expect(item).toMatchObject({ contentType: "image/svg+xml", width: 120, height: 40 });
    const served = await fetch(`${server.url}${item.url}`);
    expect(served.headers.get("content-type")).toBe("image/svg+xml");
    expect(served.headers.get("content-security-policy")).toContain("sandbox");
    expect(await served.text()).toContain("linearGradient");
  });

  it("refuses an upload past the workspace's quota with a clear message", async () => {
    const { client } = await signUp(server.url);
    await createWorkspace(client, "Quota", `quota-${kind}-${Math.random().toString(36).slice(2, 7)}`);
    // Noise does not compress: each of these is about 300 KB, under the 400 KB limit; the quota is 2 MB.
    const noisy = async (seed: number) =>
      new Uint8Array(
        await sharp(Buffer.from(Array.from({ length: 320 * 320 * 3 }, (_, i) => (i * 7919 * seed) % 251)), {
          raw: { width: 320, height: 320, channels: 3 },
        })
          .png({ compressionLevel: 0 })
          .toBuffer(),
      );
    let refused: Response | undefined;
    for (let seed = 1; seed <= 10 && !refused; seed++) {
      const res = await upload(client, api, await noisy(seed), `noise-${seed}.png`);
      if (res.status !== 201) refused = res;
    }
    expect(refused?.status).toBe(400);
    expect(((await refused!.json()) as { message: string }).message).toMatch(/of its 2 MB for files/);
  });

  it("describes, replaces and deletes; the old bytes are swept, shared bytes are kept", async () => {
    const first = await png(700, 400, [1, 2, 3]);
    const item = (await (await upload(owner, api, first, "one.png")).json()) as Item;

    // Another workspace uploads the very same bytes: one blob, two rows.
    const { client: other } = await signUp(server.url);
    const otherSlug = `other-${kind}-${Math.random().toString(36).slice(2, 7)}`;
    await createWorkspace(other, "Other", otherSlug);
    const twin = (await (await upload(other, api, first, "same.png")).json()) as Item;
    expect(twin.sha256).toBe(item.sha256);
    expect(twin.id).not.toBe(item.id);

    const described = await owner.request(`${api}/${item.id}`, {
      method: "PATCH",
      body: JSON.stringify({ alt: "Sourdough, sliced" }),
      headers: { "content-type": "application/json", origin: new URL(server.url).origin },
    });
    expect(described.status).toBe(200);
    expect(((await described.json()) as Item).alt).toBe("Sourdough, sliced");

    const second = await png(700, 400, [4, 5, 6]);
    const replaced = await upload(owner, `${api}/${item.id}`, second, "two.png", {}, "PUT");
    expect(replaced.status).toBe(200);
    const after = (await replaced.json()) as Item;
    expect(after).toMatchObject({ id: item.id, sha256: sha(second), alt: "Sourdough, sliced", filename: "two.png" });
    // The old bytes stay: the other workspace's file still names them.
    await new Promise((r) => setTimeout(r, 300));
    expect(await blobs()).toContain(`originals/${item.sha256}`);
    expect((await fetch(`${server.url}/${slug}/media/${item.sha256}.png`)).status).toBe(404);
    expect((await fetch(`${server.url}/${otherSlug}/media/${item.sha256}.png`)).status).toBe(200);

    // Deleting the other workspace's copy frees the bytes: the sweep removes them.
    const deleted = await other.request(`${api}/${twin.id}`, {
      method: "DELETE",
      headers: { origin: new URL(server.url).origin },
    });
    expect(deleted.status).toBe(204);
    await eventually(async () => !(await blobs()).includes(`originals/${item.sha256}`));

    // And deleting the replaced file sweeps its new bytes too.
    expect(
      (await owner.request(`${api}/${item.id}`, { method: "DELETE", headers: { origin: new URL(server.url).origin } }))
        .status,
    ).toBe(204);
    await eventually(async () => !(await blobs()).includes(`originals/${after.sha256}`));
    expect((await owner.get(`${api}/${item.id}`)).status).toBe(404);
  });

  it("lets viewers read but not write, and hides other workspaces' files", async () => {
    const item = (await (await upload(owner, api, await png(320, 200, [9, 9, 9]), "mine.png")).json()) as Item;
    const viewer = await signUp(server.url, uniqueEmail("viewer"));
    await addMember(server.url, owner, viewer, "viewer");
    expect((await viewer.client.get(api)).status).toBe(200);
    expect((await viewer.client.get(`${api}/${item.id}`)).status).toBe(200);
    expect((await upload(viewer.client, api, await png(10, 10), "x.png")).status).toBe(403);

    const { client: stranger } = await signUp(server.url);
    const strangerSlug = `stranger-${kind}-${Math.random().toString(36).slice(2, 7)}`;
    await createWorkspace(stranger, "Stranger", strangerSlug);
    const origin = { origin: new URL(server.url).origin };
    expect((await stranger.get(`${api}/${item.id}`)).status).toBe(404);
    expect(
      (
        await stranger.request(`${api}/${item.id}`, {
          method: "PATCH",
          body: JSON.stringify({ alt: "mine now" }),
          headers: { "content-type": "application/json", ...origin },
        })
      ).status,
    ).toBe(404);
    expect((await upload(stranger, `${api}/${item.id}`, await png(10, 10), "x.png", {}, "PUT")).status).toBe(404);
    expect((await stranger.request(`${api}/${item.id}`, { method: "DELETE", headers: origin })).status).toBe(404);
    expect(((await (await stranger.get(api)).json()) as { total: number }).total).toBe(0);
    // The bytes are not reachable through another site's address either.
    expect((await fetch(`${server.url}/${strangerSlug}/media/${item.sha256}.png`)).status).toBe(404);
    expect((await owner.get(`${api}/${item.id}`)).status).toBe(200);
    expect(((await (await owner.get(`${api}/${item.id}`)).json()) as Item).alt).toBe("");
    // Signed out: 401.
    expect((await new Client(server.url).get(api)).status).toBe(401);
  });
});
