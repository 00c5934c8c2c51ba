/**
 * The files service's write side (DESIGN "Shared services: files"; ADR 016): uploading, replacing, describing
 * and deleting a workspace's files. The media library, the editor API and the brand import all call
 * `filesOf(services, workspaceId)`; nothing else writes the `files` table or the blob store.
 *
 * A file's bytes are stored once per content (by SHA-256), its row once per workspace. Blobs are written
 * before the row that names them, and removed only by the sweep job after the last row naming them is gone,
 * so a row never points at missing bytes (a sweep racing an upload of the very same bytes puts them back:
 * `sweepUnnamed`). Bytes stored for an upload whose row is then refused (quota) are swept too.
 */
import { sql } from "kysely";
import { z } from "zod";
import type { Db } from "~db/client";
import type { AppServices } from "~/lib/context";
import { isoNow } from "~/lib/clock.server";
import { invalid, notFound, validate } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { writeAndPurge } from "~/modules/cache/purge.server";
import { cacheTags } from "~/modules/cache/tags";
import { enqueueJob } from "~/modules/jobs/jobs.server";
import { inspectUpload } from "./inspect.server";
import { IMAGE_WIDTHS, mediaOf, toMediaItem, type MediaItem } from "./media.server";
import { originalKey, sha256Of, variantKey, type BlobStore } from "./storage.server";
import { findFileUses, type FileUse } from "./usage.server";

export const SWEEP_BLOBS_JOB = "files.sweep-blobs";

export interface FileActor {
  actorUserId?: string | null;
  ip?: string | null;
}

export interface UploadInput extends FileActor {
  bytes: Uint8Array;
  filename: string;
  /** The description to store with it; checked before anything is stored. */
  alt?: string;
}

export const AltText = z.string().trim().max(300, "Keep the description under 300 characters");

/** What a stored file name may be: the uploaded name's last segment, printable, at most 200 characters. */
export function cleanFilename(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? "")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>"]/g, "")
    .trim()
    .slice(0, 200);
  return base || "upload";
}

export interface MediaPage {
  items: MediaItem[];
  total: number;
}

type FilesServices = Pick<AppServices, "db" | "env" | "fileStore"> & Partial<Pick<AppServices, "jobRunner">>;

/**
 * Queues the removal of the blobs (original and variants) of `sha256s`, to happen once no `files` row names
 * them; written in the transaction that removed the rows, so the sweep is never lost. The job belongs to no
 * workspace: the workspace may be gone by the time it runs.
 */
export async function queueBlobSweep(trx: Db, sha256s: readonly string[]): Promise<void> {
  const unique = [...new Set(sha256s)];
  if (unique.length === 0) return;
  await enqueueJob(trx, { kind: SWEEP_BLOBS_JOB, payload: { sha256s: unique }, workspaceId: null, maxAttempts: 10 });
}

/**
 * For deleting an account: queues the sweep of every blob its workspaces' files name, inside the deleting
 * transaction and before the rows go (ON DELETE CASCADE takes them with the workspaces).
 */
export async function queueBlobSweepForOwner(trx: Db, ownerUserId: string): Promise<void> {
  const rows = await trx
    .selectFrom("files")
    .innerJoin("workspaces", "workspaces.id", "files.workspace_id")
    .select("files.sha256")
    .distinct()
    .where("workspaces.owner_user_id", "=", ownerUserId)
    .execute();
  await queueBlobSweep(
    trx,
    rows.map((r) => r.sha256),
  );
}

/** The sweep: removes each blob no row names any more. Idempotent (a retry removes what is left). */
export function sweepBlobs(db: Db, store: BlobStore, sha256s: readonly string[]): Promise<number> {
  const named = async (sha256: string) =>
    (await db.selectFrom("files").select("content_type").where("sha256", "=", sha256).limit(1).executeTakeFirst())
      ?.content_type;
  return sweepUnnamed(named, store, sha256s);
}

/**
 * The sweep's steps, given how to ask whether a row names a hash. An upload of the same bytes may commit its
 * row between our look and our delete, after it saw the blob still there (`ensureStored`): so the original is
 * read before it is deleted, and put back if a row names it once it is gone. Whatever the interleaving, an
 * upload that commits after our second look finds the blob missing and stores it itself.
 */
export async function sweepUnnamed(
  /** The content type of a row naming the hash, or undefined when none does. */
  named: (sha256: string) => Promise<string | undefined>,
  store: BlobStore,
  sha256s: readonly string[],
): Promise<number> {
  let removed = 0;
  for (const sha256 of sha256s) {
    if (await named(sha256)) continue;
    const original = await store.get(originalKey(sha256));
    await Promise.all([
      store.delete(originalKey(sha256)),
      ...IMAGE_WIDTHS.map((width) => store.delete(variantKey(sha256, width))),
    ]);
    const namedNow = await named(sha256);
    if (namedNow) {
      if (original) await store.put(originalKey(sha256), original, namedNow);
      continue;
    }
    removed += 1;
  }
  return removed;
}

export function filesOf(services: FilesServices, workspaceId: string) {
  const { db, env, fileStore } = services;
  const media = mediaOf(db, workspaceId);
  const rows = () => db.selectFrom("files").where("workspace_id", "=", workspaceId);
  const quotaBytes = env.FILES_QUOTA_MB * 1_048_576;

  /** Checks, cleans and stores the bytes; the row is the caller's to write. */
  async function store(bytes: Uint8Array) {
    const inspected = await inspectUpload(bytes, env.FILES_MAX_BYTES);
    const sha256 = sha256Of(inspected.bytes);
    const key = originalKey(sha256);
    if (!(await fileStore.has(key))) await fileStore.put(key, inspected.bytes, inspected.contentType);
    return { ...inspected, sha256 };
  }

  /** A sweep that ran between our `has` and our insert may have taken the blob we rely on: put it back. */
  async function ensureStored(stored: Awaited<ReturnType<typeof store>>) {
    const key = originalKey(stored.sha256);
    if (!(await fileStore.has(key))) await fileStore.put(key, stored.bytes, stored.contentType);
  }

  /**
   * Refuses `adding` bytes past the quota. Counted after a write to the workspace's row, which locks it on
   * Postgres (and takes SQLite's write lock), so concurrent uploads wait for each other instead of all passing
   * the same sum.
   */
  async function assertQuota(trx: Db, adding: number, exceptId?: string) {
    await trx
      .updateTable("workspaces")
      .set((eb) => ({ updated_at: eb.ref("updated_at") }))
      .where("id", "=", workspaceId)
      .execute();
    let query = trx
      .selectFrom("files")
      .select(sql<string | number | null>`sum(byte_size)`.as("used"))
      .where("workspace_id", "=", workspaceId);
    if (exceptId) query = query.where("id", "!=", exceptId);
    const used = Number((await query.executeTakeFirst())?.used ?? 0);
    if (used + adding > quotaBytes) {
      const message =
        `This workspace has used ${(used / 1_048_576).toFixed(1)} MB of its ${env.FILES_QUOTA_MB} MB for files. ` +
        "Delete files you no longer use, then upload again";
      throw invalid(message, [{ field: "file", message }]);
    }
  }

  const wake = () => services.jobRunner?.wake();

  /**
   * What a change to a file purges (ADR 026): every public answer that shows the workspace's media (pages, the
   * frame's logo) and any tagged with that file. A new upload purges nothing: nothing shows it yet.
   */
  const mediaTags = (id: string) => [cacheTags.media(workspaceId), cacheTags.media(workspaceId, id)];

  /**
   * Writes the row(s) naming a stored blob; when that fails (quota, a deleted file, the database) the blob may
   * be named by nothing, so its sweep is queued — it removes the bytes only if no row names them.
   */
  async function naming<T>(
    stored: Awaited<ReturnType<typeof store>>,
    write: (trx: Db, purge: (...tags: string[]) => void) => Promise<T>,
  ): Promise<T> {
    try {
      return await writeAndPurge(db, write);
    } catch (error) {
      try {
        await queueBlobSweep(db, [stored.sha256]);
        wake();
      } catch {
        // The refusal matters more than the clean-up; an unswept blob costs only disk.
      }
      throw error;
    }
  }

  return {
    ...media,

    async list(page: { size: number; offset: number }): Promise<MediaPage> {
      const [items, count] = await Promise.all([
        rows()
          .selectAll()
          .orderBy("created_at", "desc")
          .orderBy("id", "desc")
          .limit(page.size)
          .offset(page.offset)
          .execute(),
        rows()
          .select((eb) => eb.fn.countAll<string | number>().as("n"))
          .executeTakeFirst(),
      ]);
      return { items: items.map(toMediaItem), total: Number(count?.n ?? 0) };
    },

    /** Bytes this workspace's files take, against its quota. */
    async usage(): Promise<{ usedBytes: number; quotaBytes: number; maxFileBytes: number }> {
      const row = await rows()
        .select(sql<string | number | null>`sum(byte_size)`.as("used"))
        .executeTakeFirst();
      return { usedBytes: Number(row?.used ?? 0), quotaBytes, maxFileBytes: env.FILES_MAX_BYTES };
    },

    async upload({ bytes, filename, alt = "", actorUserId = null, ip = null }: UploadInput): Promise<MediaItem> {
      const text = validate(AltText, alt, "alt");
      const stored = await store(bytes);
      const at = isoNow();
      const row = {
        id: newId(),
        workspace_id: workspaceId,
        sha256: stored.sha256,
        content_type: stored.contentType,
        byte_size: stored.bytes.byteLength,
        width: stored.width,
        height: stored.height,
        filename: cleanFilename(filename),
        alt: text,
        created_at: at,
        updated_at: at,
      };
      await naming(stored, async (trx) => {
        await assertQuota(trx, row.byte_size);
        await trx.insertInto("files").values(row).execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "file.uploaded",
          actorUserId,
          detail: { fileId: row.id, filename: row.filename, bytes: row.byte_size },
          ip,
        });
      });
      await ensureStored(stored);
      return toMediaItem(row);
    },

    /** New bytes under the same id: every page showing the file shows the new image (at a new address). */
    async replace(
      id: string,
      bytes: Uint8Array,
      filename: string,
      { actorUserId = null, ip = null }: FileActor = {},
    ): Promise<MediaItem> {
      const before = await media.byId(id);
      if (!before) throw notFound("No such file in this workspace");
      const stored = await store(bytes);
      const changes = {
        sha256: stored.sha256,
        content_type: stored.contentType,
        byte_size: stored.bytes.byteLength,
        width: stored.width,
        height: stored.height,
        filename: cleanFilename(filename),
        updated_at: isoNow(),
      };
      await naming(stored, async (trx, purge) => {
        purge(...mediaTags(id));
        await assertQuota(trx, changes.byte_size, id);
        // The bytes being replaced, read under the lock assertQuota took: a concurrent replace's are swept too.
        const current = await trx
          .selectFrom("files")
          .select("sha256")
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", id)
          .executeTakeFirst();
        if (!current) throw notFound("No such file in this workspace");
        await trx
          .updateTable("files")
          .set(changes)
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", id)
          .execute();
        if (current.sha256 !== stored.sha256) await queueBlobSweep(trx, [current.sha256]);
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "file.replaced",
          actorUserId,
          detail: { fileId: id, filename: changes.filename, bytes: changes.byte_size },
          ip,
        });
      });
      await ensureStored(stored);
      wake();
      return { ...before, ...toMediaItem({ ...changes, id, alt: before.alt, created_at: before.createdAt }) };
    },

    async setAlt(id: string, alt: string, { actorUserId = null, ip = null }: FileActor = {}): Promise<MediaItem> {
      const text = validate(AltText, alt, "alt");
      const updated = await writeAndPurge(db, async (trx, purge) => {
        purge(...mediaTags(id));
        const result = await trx
          .updateTable("files")
          .set({ alt: text, updated_at: isoNow() })
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", id)
          .executeTakeFirst();
        if (!Number(result.numUpdatedRows)) throw notFound("No such file in this workspace");
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "file.described",
          actorUserId,
          detail: { fileId: id },
          ip,
        });
        return mediaOf(trx, workspaceId).byId(id);
      });
      return updated!;
    },

    /** Deletes the row now and the bytes soon (the sweep job), unless another file still names them. */
    async remove(id: string, { actorUserId = null, ip = null }: FileActor = {}): Promise<void> {
      await writeAndPurge(db, async (trx, purge) => {
        purge(...mediaTags(id));
        const row = await trx
          .selectFrom("files")
          .select(["sha256", "filename"])
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", id)
          .executeTakeFirst();
        if (!row) throw notFound("No such file in this workspace");
        await trx.deleteFrom("files").where("workspace_id", "=", workspaceId).where("id", "=", id).execute();
        await queueBlobSweep(trx, [row.sha256]);
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "file.deleted",
          actorUserId,
          detail: { fileId: id, filename: row.filename },
          ip,
        });
      });
      wake();
    },

    /** Where the file is used (pages, branding…), as the registered finders report it. */
    async whereUsed(id: string): Promise<FileUse[]> {
      if (!(await media.byId(id))) throw notFound("No such file in this workspace");
      return findFileUses(db, workspaceId, id);
    },
  };
}

export type FilesRepo = ReturnType<typeof filesOf>;
