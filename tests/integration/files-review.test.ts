/**
 * The files service under attack and under load, through real HTTP: concurrent uploads cannot pass the quota
 * together, a refused upload leaves no bytes behind, concurrent replaces leave no unswept bytes, a bad
 * description refuses the upload before anything is stored, and the public media route answers only for a
 * well-formed site and address.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { type Client, createWorkspace, signUp } from "../helpers/client";
import { eventually, filesUnder, png, upload } from "../helpers/files";
import { startServer, type TestServer } from "../helpers/server";
import { tempDir, type TempDir } from "../helpers/temp";

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const api = "/api/editor/branding/media";

let server: TestServer;
let dir: TempDir;

beforeAll(async () => {
  dir = tempDir("files-review");
  server = await startServer({
    FILES_DIR: dir.path,
    FILES_MAX_BYTES: String(400 * 1024),
    FILES_QUOTA_MB: "1",
    JOBS_POLL_MS: "50",
  });
});
afterAll(async () => {
  await server.close();
  dir.remove();
});

/** The originals the disk store holds, by hash. */
const originals = () =>
  filesUnder(dir.path)
    .filter((path) => path.startsWith("originals/") && !path.endsWith(".tmp"))
    .map((path) => path.split("/").at(-1)!);

/** Noise does not compress: about 300 KB each, under the 400 KB limit; three fit the 1 MB quota, four do not. */
const noisy = async (seed: number) =>
  new Uint8Array(
    await sharp(Buffer.from(Array.from({ length: 320 * 320 * 3 }, (_, i) => (i * 7919 * seed + seed) % 251)), {
      raw: { width: 320, height: 320, channels: 3 },
    })
      .png({ compressionLevel: 0 })
      .toBuffer(),
  );

async function freshWorkspace(): Promise<{ client: Client; slug: string }> {
  const { client } = await signUp(server.url);
  const slug = `review-${Math.random().toString(36).slice(2, 8)}`;
  await createWorkspace(client, "Review Bakery", slug);
  return { client, slug };
}

describe("the files service under attack", () => {
  it("lets concurrent uploads fill the quota but never pass it, and refused uploads leave no bytes", async () => {
    const { client } = await freshWorkspace();
    const files = await Promise.all([11, 12, 13, 14, 15, 16, 17, 18].map(noisy));
    const answers = await Promise.all(files.map((bytes, i) => upload(client, api, bytes, `noise-${i}.png`)));
    const accepted = answers.filter((res) => res.status === 201).length;
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThanOrEqual(3);
    for (const res of answers.filter((r) => r.status !== 201)) {
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(/of its 1 MB for files/);
    }
    const listed = (await (await client.get(api)).json()) as { usedBytes: number; quotaBytes: number; total: number };
    expect(listed.total).toBe(accepted);
    expect(listed.usedBytes).toBeLessThanOrEqual(listed.quotaBytes);

    // The refused files' bytes were written before the quota said no: the sweep takes them away.
    const kept = new Set(
      ((await (await client.get(api)).json()) as { items: { sha256: string }[] }).items.map((i) => i.sha256),
    );
    const refused = files.map(sha).filter((hash) => !kept.has(hash));
    expect(refused.length).toBe(files.length - accepted);
    await eventually(() => refused.every((hash) => !originals().includes(hash)));
    expect(originals()).toEqual(expect.arrayContaining([...kept]));
  });

  it("sweeps every replaced version when two replaces of one file race", async () => {
    const { client } = await freshWorkspace();
    const first = await png(400, 300, [31, 32, 33]);
    const item = (await (await upload(client, api, first, "first.png")).json()) as { id: string };
    const versions = await Promise.all([1, 2, 3, 4].map((n) => png(400, 300, [40 + n, 50, 60])));
    const answers = await Promise.all(
      versions.map((bytes, n) => upload(client, `${api}/${item.id}`, bytes, `v${n}.png`, {}, "PUT")),
    );
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200]);
    const now = (await (await client.get(`${api}/${item.id}`)).json()) as { sha256: string };
    const gone = [first, ...versions].map(sha).filter((hash) => hash !== now.sha256);
    await eventually(() => gone.every((hash) => !originals().includes(hash)));
    expect(originals()).toContain(now.sha256);
  });

  it("refuses an over-long description before storing anything", async () => {
    const { client } = await freshWorkspace();
    const bytes = await png(300, 300, [70, 71, 72]);
    const res = await upload(client, api, bytes, "described.png", { alt: "x".repeat(301) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { issues?: { field?: string; path?: string }[] }).issues?.[0]).toBeTruthy();
    expect(((await (await client.get(api)).json()) as { total: number }).total).toBe(0);
    expect(originals()).not.toContain(sha(bytes));

    const page = await upload(client, "/website/media", bytes, "described.png", {
      intent: "upload",
      alt: "x".repeat(301),
    });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("Keep the description under 300 characters");
    expect(((await (await client.get(api)).json()) as { total: number }).total).toBe(0);
    expect(originals()).not.toContain(sha(bytes));

    const described = await upload(client, api, bytes, "described.png", { alt: "  Rye, sliced " });
    expect(described.status).toBe(201);
    expect(((await described.json()) as { alt: string }).alt).toBe("Rye, sliced");
  });

  it("answers a damaged multipart body or a form without a file with the error contract", async () => {
    const { client } = await freshWorkspace();
    const headers = { origin: new URL(server.url).origin };
    const damaged = await client.request(api, {
      method: "POST",
      body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG',
      headers: { ...headers, "content-type": "multipart/form-data; boundary=xyz" },
    });
    expect(damaged.status).toBe(400);
    expect(await damaged.json()).toMatchObject({ statusCode: 400, message: "The form could not be read" });
    const noBoundary = await client.request(api, {
      method: "POST",
      body: "file=abc",
      headers: { ...headers, "content-type": "multipart/form-data" },
    });
    expect(noBoundary.status).toBe(400);
    const empty = await client.request(api, {
      method: "POST",
      body: new Uint8Array(0),
      headers: { ...headers, "content-type": "image/png" },
    });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { issues: { field: string }[] }).issues[0]?.field).toBe("file");
    const text = await client.request(api, {
      method: "POST",
      body: "hello",
      headers: { ...headers, "content-type": "text/plain" },
    });
    expect(text.status).toBe(415);
    expect(((await (await client.get(api)).json()) as { total: number }).total).toBe(0);
  });

  it("refuses SVGs that hide a handler or an external reference from a naive check", async () => {
    const { client } = await freshWorkspace();
    const ns = 'xmlns="http://www.w3.org/2000/svg"';
    for (const svg of [
      `<svg ${ns}/onload="alert(1)"><rect width="10" height="10"/></svg>`,
      `<svg ${ns}><style>rect{fill:u\\rl(https://tracker.example/p.svg#x)}</style><rect width="10" height="10"/></svg>`,
      `<svg ${ns}><style><![CDATA[rect{fill:u\\rl(https://tracker.example/p)}]]></style><rect width="9" height="9"/></svg>`,
      `<svg ${ns}><rect style="fill:u\\rl(https://tracker.example/p)" width="10" height="10"/></svg>`,
    ]) {
      const res = await upload(client, api, new TextEncoder().encode(svg), "logo.svg");
      expect(res.status, svg).toBe(400);
    }
    const clean = `<svg ${ns} viewBox="0 0 10 10"><style>rect{fill:#c60}</style><rect width="10" height="10"/></svg>`;
    expect((await upload(client, api, new TextEncoder().encode(clean), "logo.svg")).status).toBe(201);
  });

  it("answers the media route only for a well-formed site and address of that site", async () => {
    const { client, slug } = await freshWorkspace();
    const bytes = await png(700, 500, [90, 91, 92]);
    const item = (await (await upload(client, api, bytes, "shop.png")).json()) as { sha256: string };
    const get = (path: string) => fetch(`${server.url}${path}`);
    const served = await get(`/${slug}/media/${item.sha256}.png`);
    expect(served.status).toBe(200);
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    // One policy, the route's own (not joined with another), and nothing a browser would sniff or run.
    expect(served.headers.get("content-security-policy")).toBe(
      "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox",
    );
    expect(served.headers.get("content-type")).toBe("image/png");
    for (const path of [
      `/${slug.toUpperCase()}/media/${item.sha256}.png`,
      `/${slug}/media/${item.sha256}.PNG`,
      `/${slug}/media/${item.sha256}.jpg`,
      `/${slug}/media/${item.sha256}-500.webp`,
      `/${slug}/media/${item.sha256}%2F..%2F..png`,
      `/${slug}/media/..%2F..%2Fpackage.json`,
      `/no-such-site/media/${item.sha256}.png`,
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toMatch(/originals|\/tmp|data\/files/);
    }
  });
});
