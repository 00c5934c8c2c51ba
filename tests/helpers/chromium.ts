/**
 * How every browser test in the repository starts Chromium: Debian's, never a download, and none of its
 * background connections (this machine's closed network refuses them). Imports only Node's own modules, so
 * the desktop package's tests can share it without the server's dependencies.
 */
import { existsSync } from "node:fs";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Fail, never skip: a missing browser is a broken test machine, and .ci/run installs it. */
export function assertChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install chromium`);
}
