/**
 * One temporary folder per test run (a vitest global setup, shared by the desktop package: Node's own
 * modules only). Its path is TMPDIR for the whole run, so every `os.tmpdir()` — ours, Chromium's,
 * Electron's, a library's — lands inside it, and ATRIUM_TEST_TMP names it for the helpers. Each test
 * removes what it made; at the end the run fails if anything is still in the folder (a test that does not
 * clean up), then removes the folder, so a run leaves nothing in the system's temp folder either way.
 * (Vitest's own cache folder is made before this runs, outside the folder; vitest removes it at exit.)
 * Checking the folder we own, not /tmp by name, keeps the check honest while other processes use /tmp.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): (() => void) | undefined {
  // Several projects of one run (unit, integration, e2e) share the folder the first one made.
  if (process.env.ATRIUM_TEST_TMP) return undefined;
  const previous = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), "atrium-test-run-"));
  // Set before vitest starts its workers, which inherit them.
  process.env.ATRIUM_TEST_TMP = root;
  process.env.TMPDIR = root;
  return () => {
    const left = readdirSync(root);
    rmSync(root, { recursive: true, force: true });
    delete process.env.ATRIUM_TEST_TMP;
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (left.length > 0) {
      // Not a throw: that would stop vitest's own clean-up (its projects' caches, the other teardowns).
      console.error(
        `\nFAIL  tests left ${left.length} entries in the run's temp folder (each test removes what it makes): ${left.join(", ")}\n`,
      );
      process.exitCode = 1;
    }
  };
}
