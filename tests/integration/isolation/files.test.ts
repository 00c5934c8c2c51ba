/**
 * DESIGN rule 2 for the files module: `filesOf` and `mediaOf`, built for workspace A, find none of B's
 * files and change none of them (B's rows compared before and after every attempt), even when A holds the
 * very same bytes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "~/lib/env.server";
import { filesOf } from "~/modules/files/files.server";
import { mediaOf, type MediaItem } from "~/modules/files/media.server";
import { diskStore } from "~/modules/files/storage.server";
import { png } from "../../helpers/files";
import { tempDir, type TempDir } from "../../helpers/temp";
import { twoTenants, type Fixture } from "./fixture";

let f: Fixture;
let dir: TempDir;
let fileB: MediaItem;
const notFound = { kind: "not-found" };

const servicesOf = () => ({ db: f.db, env: parseEnv({ FILES_DIR: dir.path }), fileStore: diskStore(dir.path) });
const snapshotOfB = async () => ({
  files: await f.rowsOf("files", "workspace_id", f.b.workspace.id),
  audit: await f.rowsOf("audit_events", "workspace_id", f.b.workspace.id),
});

beforeAll(async () => {
  f = await twoTenants();
  dir = tempDir("files-isolation");
  const bytes = await png(400, 300);
  fileB = await filesOf(servicesOf(), f.b.workspace.id).upload({ bytes, filename: "b.png", actorUserId: f.b.user.id });
  // A uploads the same bytes: one blob, but A's row is not B's.
  await filesOf(servicesOf(), f.a.workspace.id).upload({ bytes, filename: "a.png", actorUserId: f.a.user.id });
});
afterAll(async () => {
  await f.close();
  dir.remove();
});

describe("files isolation", () => {
  it("reads none of B's files from A", async () => {
    const files = filesOf(servicesOf(), f.a.workspace.id);
    expect(await files.byId(fileB.id)).toBeUndefined();
    expect((await mediaOf(f.db, f.a.workspace.id).byIds([fileB.id])).size).toBe(0);
    const { items, total } = await files.list({ size: 50, offset: 0 });
    expect(total).toBe(1);
    expect(items.map((i) => i.id)).not.toContain(fileB.id);
    await expect(files.whereUsed(fileB.id)).rejects.toMatchObject(notFound);
  });

  it("changes none of B's files from A", async () => {
    const before = await snapshotOfB();
    const files = filesOf(servicesOf(), f.a.workspace.id);
    await expect(files.setAlt(fileB.id, "taken")).rejects.toMatchObject(notFound);
    await expect(files.replace(fileB.id, await png(20, 20, [1, 1, 1]), "x.png")).rejects.toMatchObject(notFound);
    await expect(files.remove(fileB.id)).rejects.toMatchObject(notFound);
    expect(await snapshotOfB()).toEqual(before);
    expect(await filesOf(servicesOf(), f.b.workspace.id).byId(fileB.id)).toMatchObject({ id: fileB.id, alt: "" });
  });
});
