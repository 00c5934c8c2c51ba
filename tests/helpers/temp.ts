/**
 * A fresh folder inside the run's temp folder (tests/helpers/temp-root.ts); the caller removes it. Node's
 * own modules only: the desktop package's tests use it too.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TempDir {
  path: string;
  remove(): void;
}

export function tempDir(prefix: string): TempDir {
  const path = mkdtempSync(join(process.env.ATRIUM_TEST_TMP ?? tmpdir(), `${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
