import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";

/**
 * Builds dist/ once before any test file runs: the page, bundle and Electron tests read it, and a build per
 * file would delete it under another file's feet (vitest runs files in parallel).
 */
export default function setup(): void {
  const root = join(dirname(new URL(import.meta.url).pathname), "..");
  execFileSync(process.execPath, [join(root, "scripts/build.mjs")], { stdio: "inherit" });
}
