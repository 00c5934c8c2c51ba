/**
 * `npm run build`: the Remix app (client assets + server build) with Vite, then server.ts with esbuild,
 * so `npm start` runs plain JavaScript on Node 20.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { ROOT, STAMP } from "./build-state.mjs";

export async function buildAll({ quiet = false } = {}) {
  const started = Date.now();
  const vite = spawnSync(process.execPath, [join(ROOT, "node_modules/@remix-run/dev/dist/cli.js"), "vite:build"], {
    cwd: ROOT,
    stdio: quiet ? ["ignore", "ignore", "inherit"] : "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (vite.status !== 0) throw new Error("vite build failed");
  await build({
    entryPoints: [join(ROOT, "server.ts")],
    outfile: join(ROOT, "build/server.js"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: true,
    logLevel: quiet ? "warning" : "info",
  });
  mkdirSync(join(ROOT, "build"), { recursive: true });
  writeFileSync(STAMP, new Date().toISOString());
  if (!quiet) console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildAll().catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}
