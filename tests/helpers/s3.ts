/**
 * An S3-compatible server in this process (s3rver), so the files service's S3 path runs for real in tests:
 * the official SDK signs and sends every request, s3rver checks the signature and keeps the objects in a
 * temp folder.
 */
import { DeleteObjectsCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { tempDir } from "./temp";

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The variables that point a test server at this bucket. */
  env: Record<string, string>;
  /** Every key in the bucket. */
  keys(): Promise<string[]>;
  /** Empties the bucket. */
  clear(): Promise<void>;
  close(): Promise<void>;
}

export async function startS3(bucket = "atrium-files"): Promise<TestS3> {
  const dir = tempDir("s3rver");
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: dir.path,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const address = (await server.run()) as { address: string; port: number };
  const endpoint = `http://127.0.0.1:${address.port}`;
  const client = new S3Client({
    region: "us-east-1",
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
  const keys = async () => {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
    return (listed.Contents ?? []).map((o) => o.Key ?? "").sort();
  };
  return {
    endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
    },
    keys,
    async clear() {
      const all = await keys();
      if (all.length) {
        await client.send(
          new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: all.map((Key) => ({ Key })) } }),
        );
      }
    },
    async close() {
      client.destroy();
      await server.close();
      dir.remove();
    },
  };
}
