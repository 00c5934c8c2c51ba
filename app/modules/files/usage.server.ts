/**
 * Where a file is used: pages, branding and later products point at files by id, and the media library
 * asks them all before a file is replaced or deleted. The files module cannot know those modules (they
 * depend on it, not the other way), so each registers a finder here when it is loaded:
 *
 *   registerFileUsage("pages", async (db, workspaceId, fileId) => [{ label: "Page “About”", href: "/website/pages/…" }]);
 *
 * A finder reads only the given workspace's rows.
 */
import type { Db } from "~db/client";

export interface FileUse {
  /** What uses the file, in the operator's words ("Page “About” (hero)", "Logo"). */
  label: string;
  /** The console page where it can be changed. */
  href: string;
}

export type FileUsageFinder = (db: Db, workspaceId: string, fileId: string) => Promise<FileUse[]>;

const finders = new Map<string, FileUsageFinder>();

/** Registers (or, under the same name, replaces) a finder. */
export function registerFileUsage(name: string, finder: FileUsageFinder): void {
  finders.set(name, finder);
}

/** Every registered finder's uses of a file, in registration order. */
export async function findFileUses(db: Db, workspaceId: string, fileId: string): Promise<FileUse[]> {
  const found = await Promise.all([...finders.values()].map((find) => find(db, workspaceId, fileId)));
  return found.flat();
}
