/**
 * Whether build/ reflects the sources: `npm start` and the test setup build only when it does not.
 * Compares the newest source file with the stamp the last successful build wrote.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const STAMP = join(ROOT, "build", ".stamp");
const SOURCES = ["app", "db", "public", "server.ts", "vite.config.ts", "package-lock.json", "tsconfig.json"];

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const name of readdirSync(path)) {
    if (name.endsWith(".test.ts")) continue;
    latest = Math.max(latest, newest(join(path, name)));
  }
  return latest;
}

export function buildIsCurrent() {
  if (!existsSync(STAMP) || !existsSync(join(ROOT, "build", "server.js"))) return false;
  const built = statSync(STAMP).mtimeMs;
  return SOURCES.every((source) => !existsSync(join(ROOT, source)) || newest(join(ROOT, source)) <= built);
}
