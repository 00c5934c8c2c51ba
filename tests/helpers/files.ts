/** Images made on the fly for upload tests, and an upload as the console's form or an API client sends it. */
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import sharp from "sharp";
import type { Client } from "./client";

/** A PNG of `width`×`height` in one colour (distinct colours give distinct bytes). */
export async function png(width = 800, height = 500, rgb: [number, number, number] = [200, 120, 40]) {
  const buffer = await sharp({
    create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } },
  })
    .png()
    .toBuffer();
  return new Uint8Array(buffer);
}

/** A JPEG carrying EXIF (camera, copyright), as phones write them. */
export async function jpegWithExif(width = 1200, height = 800) {
  const buffer = await sharp({ create: { width, height, channels: 3, background: { r: 90, g: 140, b: 200 } } })
    .jpeg()
    .withExif({ IFD0: { Make: "PhoneCo", Model: "Pocket 3", Copyright: "Somebody" } })
    .toBuffer();
  return new Uint8Array(buffer);
}

/** A multipart upload of `bytes` to `path` (the field `file`, plus `fields`). */
export function upload(
  client: Client,
  path: string,
  bytes: Uint8Array,
  filename: string,
  fields: Record<string, string> = {},
  method = "POST",
  type = "application/octet-stream",
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set("file", new Blob([new Uint8Array(bytes)], { type }), filename);
  return client.request(path, {
    method,
    body: form,
    headers: { origin: new URL(client.base).origin, "sec-fetch-site": "same-origin" },
  });
}

/** Every file under `root`, relative to it (the disk store's blobs). */
export function filesUnder(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.push(relative(root, path));
    }
  };
  walk(root);
  return found.sort();
}

/** Polls `probe` until it returns true (a job's effect), failing after `timeoutMs`. */
export async function eventually(probe: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error("the condition did not come true in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
