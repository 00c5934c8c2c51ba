/**
 * Where the files service keeps bytes (DESIGN "Shared services: files"): a blob store addressed by key, on the
 * local disk by default (`FILES_DIR`, ./data/files) or in an S3-compatible bucket when `S3_BUCKET` is set
 * (the official @aws-sdk/client-s3, so AWS, R2, MinIO, Backblaze… all work). Keys are content addresses:
 * `originals/{sha256}` for what was uploaded and `variants/{sha256}-{width}.webp` for resized copies, so a
 * blob never changes once written and two workspaces that upload the same bytes share one blob.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type * as S3Sdk from "@aws-sdk/client-s3";
import type { Env } from "~/lib/env.server";
import { newId } from "~/lib/ids.server";

export interface BlobStore {
  /** "disk" or "s3": where the bytes live (the start-up warning and the README's backups section care). */
  readonly kind: "disk" | "s3";
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The bytes, or null when there is no blob under that key. */
  get(key: string): Promise<Buffer | null>;
  has(key: string): Promise<boolean>;
  /** Removes the blob; removing one that is not there is not an error (sweeps are retried). */
  delete(key: string): Promise<void>;
}

export const originalKey = (sha256: string) => `originals/${sha256}`;
export const variantKey = (sha256: string, width: number) => `variants/${sha256}-${width}.webp`;

export const sha256Of = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

const SAFE_KEY = /^(originals|variants)\/[a-f0-9]{64}(-\d{1,5}\.webp)?$/;

function assertKey(key: string) {
  // Keys are built here from hashes; anything else is a bug, never a path to follow.
  if (!SAFE_KEY.test(key)) throw new Error(`not a blob key: ${key}`);
}

/**
 * Blobs as files under `root`, fanned out by the hash's first two pairs of hex digits (`originals/ab/cd/abcd…`)
 * so no directory holds millions of entries. Written to a temporary name and renamed, so a reader never sees
 * half a file and a crash leaves no blob that lies about its content.
 */
export function diskStore(root: string): BlobStore {
  const base = resolve(root);
  const pathOf = (key: string) => {
    assertKey(key);
    const [folder, name] = key.split("/") as [string, string];
    return join(base, folder, name.slice(0, 2), name.slice(2, 4), name);
  };
  return {
    kind: "disk",
    async put(key, bytes) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${newId()}.tmp`;
      await writeFile(temporary, bytes);
      await rename(temporary, path);
    },
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async has(key) {
      try {
        return (await stat(pathOf(key))).isFile();
      } catch {
        return false;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

export interface S3Settings {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** Prepended to every key, so one bucket can hold several deployments' files. */
  prefix: string;
}

/** Blobs as objects in an S3-compatible bucket. The SDK is loaded on first use: disk installs never pay for it. */
export function s3Store(settings: S3Settings): BlobStore {
  let loaded: Promise<{ sdk: typeof S3Sdk; client: S3Sdk.S3Client }> | undefined;
  const s3 = () =>
    (loaded ??= import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: settings.region,
        endpoint: settings.endpoint,
        forcePathStyle: settings.forcePathStyle,
        credentials:
          settings.accessKeyId && settings.secretAccessKey
            ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
            : undefined,
      }),
    })));
  const objectKey = (key: string) => {
    assertKey(key);
    return settings.prefix + key;
  };
  const missing = (error: unknown) => {
    const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    return e.name === "NoSuchKey" || e.name === "NotFound" || e.$metadata?.httpStatusCode === 404;
  };
  return {
    kind: "s3",
    async put(key, bytes, contentType) {
      const { sdk, client } = await s3();
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: settings.bucket,
          Key: objectKey(key),
          Body: bytes,
          ContentType: contentType,
          ContentLength: bytes.byteLength,
        }),
      );
    },
    async get(key) {
      const { sdk, client } = await s3();
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: settings.bucket, Key: objectKey(key) }));
        if (!object.Body) return null;
        return Buffer.from(await object.Body.transformToByteArray());
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async has(key) {
      const { sdk, client } = await s3();
      try {
        await client.send(new sdk.HeadObjectCommand({ Bucket: settings.bucket, Key: objectKey(key) }));
        return true;
      } catch (error) {
        if (missing(error)) return false;
        throw error;
      }
    },
    async delete(key) {
      const { sdk, client } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: settings.bucket, Key: objectKey(key) }));
    },
  };
}

/** The store the environment asks for: S3 when `S3_BUCKET` is set, else the disk under `FILES_DIR`. */
export function blobStoreFor(env: Env): BlobStore {
  if (!env.S3_BUCKET) return diskStore(env.FILES_DIR);
  return s3Store({
    bucket: env.S3_BUCKET,
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    prefix: env.S3_PREFIX,
  });
}
