/**
 * The demo bakery's images (db/demo-assets, drawn by its generate.mjs), stored through the same upload path
 * as an operator's files: sniffed, hashed, kept on the disk or in S3 as configured. The demo's composer
 * (app/modules/onboarding/demo.server.ts) hands the result to the pages and branding seeds by name.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Db } from "~db/client";
import { parseEnv, type Env } from "~/lib/env.server";
import { filesOf } from "./files.server";
import type { MediaItem } from "./media.server";
import { blobStoreFor, type BlobStore } from "./storage.server";

export const DEMO_MEDIA = {
  hero: {
    file: "hero.jpg",
    alt: "Fresh sourdough loaves and rolls on a wooden counter, the harbour beyond the windows",
  },
  loaves: { file: "loaves.jpg", alt: "Scored country loaves and rolls cooling on a bread board" },
  pastries: { file: "pastries.jpg", alt: "Butter croissants and cinnamon buns on white plates, with a cup of coffee" },
  cafe: { file: "cafe.jpg", alt: "The café: tables by a big window looking out on sailing boats" },
  team: { file: "team.jpg", alt: "Our three bakers in aprons, loaves on the shelf behind them" },
  logo: { file: "logo.svg", alt: "Harbor Bakery" },
  favicon: { file: "favicon.png", alt: "" },
  social: { file: "social.jpg", alt: "Harbor Bakery — bread baked at dawn by the water" },
} as const;

export type DemoMediaName = keyof typeof DEMO_MEDIA;

/** Where the assets are: beside the repository's db/ folder, from the source tree or from build/server. */
export function demoAssetsDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [
    resolve(here, "../../../db/demo-assets"), // app/modules/files (source, tests)
    resolve(here, "../../db/demo-assets"), // build/server
    resolve(process.cwd(), "db/demo-assets"),
  ];
  const found = candidates.find((dir) => existsSync(join(dir, "hero.jpg")));
  if (!found) throw new Error(`the demo's images are missing (looked in ${candidates.join(", ")})`);
  return found;
}

type Target = Db | { db: Db; env?: Env; fileStore?: BlobStore };

/**
 * Uploads the demo images into `workspaceId` and returns them by name (hero, loaves, pastries, cafe, team,
 * logo, favicon, social). Given only a database, files go where the environment says (FILES_DIR or S3).
 */
export async function seedDemoMedia(target: Target, workspaceId: string): Promise<Record<DemoMediaName, MediaItem>> {
  const given = "selectFrom" in target ? { db: target } : target;
  const env = given.env ?? parseEnv(process.env);
  const services = { db: given.db, env, fileStore: given.fileStore ?? blobStoreFor(env) };
  const files = filesOf(services, workspaceId);
  const dir = demoAssetsDir();
  const seeded = {} as Record<DemoMediaName, MediaItem>;
  for (const [name, { file, alt }] of Object.entries(DEMO_MEDIA) as [DemoMediaName, { file: string; alt: string }][]) {
    const item = await files.upload({ bytes: new Uint8Array(await readFile(join(dir, file))), filename: file });
    seeded[name] = alt ? await files.setAlt(item.id, alt) : item;
  }
  return seeded;
}
