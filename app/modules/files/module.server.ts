import { defineModule } from "~/lib/module";
import { mediaEvents } from "./events.server";
import { SWEEP_BLOBS_JOB, sweepBlobs } from "./files.server";
import { blobStoreFor, type BlobStore } from "./storage.server";

declare module "~/lib/context" {
  interface AppServices {
    /** Where uploaded files' bytes live: the disk (FILES_DIR) or an S3 bucket (S3_BUCKET). */
    fileStore: BlobStore;
  }
}

export const filesModule = defineModule({
  name: "files",
  services: ({ env }) => ({ fileStore: blobStoreFor(env) }),
  contributes: ({ db, fileStore }) => ({
    jobs: {
      [SWEEP_BLOBS_JOB]: async (job) => {
        const { sha256s } = JSON.parse(job.payload) as { sha256s: string[] };
        await sweepBlobs(db, fileStore, sha256s);
      },
    },
    eventFamilies: [mediaEvents],
  }),
  start: ({ dialect, fileStore, logger, env }) => {
    // Another node cannot read this node's disk: on Postgres (the many-nodes setup) files belong in S3.
    if (dialect === "postgres" && fileStore.kind === "disk") {
      logger.warn(
        { filesDir: env.FILES_DIR },
        "files are stored on this machine's disk (FILES_DIR) while the database is Postgres: other nodes " +
          "cannot serve them. With more than one node, set S3_BUCKET (and S3_ENDPOINT for a non-AWS store)",
      );
    }
  },
});
