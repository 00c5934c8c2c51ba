/** The demo's images go in through the upload path: every one accepted, measured, described and stored. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "~/lib/env.server";
import { seedDemoMedia } from "~/modules/files/demo.server";
import { mediaOf } from "~/modules/files/media.server";
import { diskStore, originalKey } from "~/modules/files/storage.server";
import { tempDir, type TempDir } from "../helpers/temp";
import { twoTenants, type Fixture } from "./isolation/fixture";

let f: Fixture;
let dir: TempDir;
beforeAll(async () => {
  f = await twoTenants();
  dir = tempDir("demo-media");
});
afterAll(async () => {
  await f.close();
  dir.remove();
});

describe("seedDemoMedia", () => {
  it("stores every demo image in the workspace, by name, with its description", async () => {
    const store = diskStore(dir.path);
    const media = await seedDemoMedia(
      { db: f.db, env: parseEnv({ FILES_DIR: dir.path }), fileStore: store },
      f.a.workspace.id,
    );
    expect(Object.keys(media).sort()).toEqual(
      ["cafe", "favicon", "hero", "logo", "loaves", "pastries", "social", "team"].sort(),
    );
    expect(media.hero).toMatchObject({ contentType: "image/jpeg", width: 1920, height: 1080 });
    expect(media.hero.alt).toMatch(/sourdough/i);
    expect(media.logo.contentType).toBe("image/svg+xml");
    expect(media.favicon).toMatchObject({ contentType: "image/png", width: 512, height: 512 });
    for (const item of Object.values(media)) expect(await store.has(originalKey(item.sha256))).toBe(true);
    expect((await mediaOf(f.db, f.a.workspace.id).byIds(Object.values(media).map((m) => m.id))).size).toBe(8);
    expect((await mediaOf(f.db, f.b.workspace.id).byIds(Object.values(media).map((m) => m.id))).size).toBe(0);
  });
});
