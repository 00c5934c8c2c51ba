/**
 * Upload paths take bodies larger than MAX_BODY_BYTES (the default 1 MB): a 2 MB photo is accepted, one over
 * FILES_MAX_BYTES is refused with a message that names the limit, and a body far beyond it is cut off early
 * with 413 and the error contract — while every other path keeps MAX_BODY_BYTES.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import type { Client } from "../helpers/client";
import { createWorkspace, signUp } from "../helpers/client";
import { upload } from "../helpers/files";
import { startServer, type TestServer } from "../helpers/server";
import { tempDir, type TempDir } from "../helpers/temp";

let server: TestServer;
let dir: TempDir;
let owner: Client;

beforeAll(async () => {
  dir = tempDir("limits");
  server = await startServer({ FILES_DIR: dir.path });
  ({ client: owner } = await signUp(server.url));
  await createWorkspace(owner, "Limits", "limits-bakery");
});
afterAll(async () => {
  await server.close();
  dir.remove();
});

/** An uncompressed PNG of about `megabytes` MB (noise does not compress). */
async function bigPng(megabytes: number) {
  const width = 1000;
  const height = Math.ceil((megabytes * 1_048_576) / (width * 3));
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
  return new Uint8Array(
    await sharp(pixels, { raw: { width, height, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer(),
  );
}

describe("upload size limits", () => {
  it("accepts a 2 MB photo although forms and JSON stop at 1 MB", async () => {
    const res = await upload(owner, "/api/editor/branding/media", await bigPng(2), "big-photo.png");
    expect(res.status).toBe(201);
    // Other routes keep MAX_BODY_BYTES.
    const json = await owner.postJson("/api/editor/session", { workspaceId: "x".repeat(1_100_000) });
    expect(json.status).toBe(413);
  });

  it("refuses a file over FILES_MAX_BYTES beside the field, naming the limit", async () => {
    const res = await upload(owner, "/website/media", await bigPng(6), "huge.png", { intent: "upload" });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/This file is 6(\.\d)? MB; files may be at most 5 MB/);
  });

  it("cuts off a body far beyond the limit with 413 and the error contract", async () => {
    const res = await upload(owner, "/api/editor/branding/media", new Uint8Array(12 * 1_048_576), "enormous.png");
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: "Payload Too Large", statusCode: 413 });
  });
});
