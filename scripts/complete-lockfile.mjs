/**
 * `node scripts/complete-lockfile.mjs` — run after `npm install` when the registry you installed from has
 * no binaries for other platforms (as on our CI machines). npm then leaves those optional packages out of
 * package-lock.json, and `npm ci` refuses the lockfile as incomplete. This adds each missing optional
 * platform package as a platform-tagged optional entry, as a lockfile made against the full registry has;
 * npm skips them on non-matching platforms without fetching anything.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

// The server's lockfile by default; `node scripts/complete-lockfile.mjs desktop/package-lock.json` for the shell's.
const path = process.argv[2]
  ? resolve(process.argv[2])
  : fileURLToPath(new URL("../package-lock.json", import.meta.url));
const lock = JSON.parse(readFileSync(path, "utf8"));
const PLATFORM =
  /-(android|darwin|freebsd|linux|openbsd|openharmony|win32)-(arm64|arm|x64|ia32|loong64|ppc64|riscv64|s390x)(?:-(gnu|gnueabihf|musl|musleabihf|msvc|eabi))?$/;

let added = 0;
for (const [location, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location ? `${location}/` : ""}node_modules/${name}`;
    if (lock.packages[nested] || lock.packages[`node_modules/${name}`]) continue;
    const match = PLATFORM.exec(name);
    if (!match) continue;
    const [, os, cpu, abi] = match;
    lock.packages[`node_modules/${name}`] = {
      version,
      cpu: [cpu],
      dev: entry.dev || undefined,
      license: entry.license,
      ...(abi?.startsWith("musl") ? { libc: ["musl"] } : abi?.startsWith("gnu") ? { libc: ["glibc"] } : {}),
      optional: true,
      os: [os],
    };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : 1)),
);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(
  added ? `Added ${added} optional platform packages to package-lock.json.` : "package-lock.json is complete.",
);
