/**
 * Deleting an account takes its workspaces' file rows in the same transaction (ON DELETE CASCADE) and their
 * bytes soon after (the sweep job), on the disk and in an S3 bucket alike — except bytes another
 * workspace's file still names.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, signUp } from "../helpers/client";
import { eventually, filesUnder, png, upload } from "../helpers/files";
import { startS3, type TestS3 } from "../helpers/s3";
import { startServer, type TestServer } from "../helpers/server";
import { tempDir, type TempDir } from "../helpers/temp";

describe.each(["disk", "s3"] as const)("deleting an account with files on %s", (kind) => {
  let server: TestServer;
  let s3: TestS3 | undefined;
  let dir: TempDir;

  const blobs = async (): Promise<string[]> => {
    if (s3) return s3.keys();
    return filesUnder(dir.path).map((path) => `${path.split("/")[0]}/${path.split("/").at(-1)}`);
  };

  beforeAll(async () => {
    dir = tempDir("files");
    if (kind === "s3") s3 = await startS3();
    server = await startServer({ FILES_DIR: dir.path, JOBS_POLL_MS: "50", ...(s3?.env ?? {}) });
  });
  afterAll(async () => {
    await server.close();
    await s3?.close();
    dir.remove();
  });

  it("removes the rows at once and the unshared blobs (originals and variants) by a job", async () => {
    const api = "/api/editor/branding/media";
    const leaving = await signUp(server.url);
    const slug = `leaving-${kind}`;
    await createWorkspace(leaving.client, "Leaving", slug);
    const neighbour = await signUp(server.url);
    await createWorkspace(neighbour.client, "Neighbour", `neighbour-${kind}`);

    const own = await png(1200, 700, [200, 10, 10]);
    const shared = await png(900, 500, [10, 10, 200]);
    const mine = (await (await upload(leaving.client, api, own, "own.png")).json()) as { id: string; sha256: string };
    const ours = (await (await upload(leaving.client, api, shared, "shared.png")).json()) as { sha256: string };
    const theirs = (await (await upload(neighbour.client, api, shared, "theirs.png")).json()) as { sha256: string };
    expect(theirs.sha256).toBe(ours.sha256);
    // A variant exists too: it must go with its original.
    expect((await fetch(`${server.url}/${slug}/media/${mine.sha256}-640.webp`)).status).toBe(200);
    expect(await blobs()).toEqual(
      expect.arrayContaining([
        `originals/${mine.sha256}`,
        `variants/${mine.sha256}-640.webp`,
        `originals/${ours.sha256}`,
      ]),
    );

    const deleted = await leaving.client.post("/settings/account", { confirmEmail: leaving.email });
    expect(deleted.status).toBeLessThan(400);

    const rows = await server.db.selectFrom("files").select(["sha256"]).execute();
    expect(rows.map((r) => r.sha256)).not.toContain(mine.sha256);
    expect(rows.map((r) => r.sha256)).toContain(ours.sha256);

    await eventually(async () => {
      const left = await blobs();
      return !left.includes(`originals/${mine.sha256}`) && !left.includes(`variants/${mine.sha256}-640.webp`);
    });
    // The neighbour's copy of the shared bytes is untouched, and still served on their site.
    expect(await blobs()).toContain(`originals/${ours.sha256}`);
    expect((await fetch(`${server.url}/neighbour-${kind}/media/${ours.sha256}.png`)).status).toBe(200);
    expect((await fetch(`${server.url}/${slug}/media/${mine.sha256}.png`)).status).toBe(404);
  });
});
