/**
 * `npm start`, `npm run db:migrate`, `npm run db:seed`, `npm run admin -- …`: builds first when build/ is
 * missing or older than the sources (so `npm ci && npm start` works on a fresh clone), then runs the
 * compiled server or the CLI in the server build.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, buildIsCurrent } from "./build-state.mjs";

async function ensureBuild() {
  if (buildIsCurrent()) return;
  const started = Date.now();
  // One line while it builds, one when done (on stderr: stdout carries only log records, JSON in production).
  console.error("Building the app (first start or changed sources, ~10 s)…");
  let buildAll;
  try {
    ({ buildAll } = await import("./build.mjs"));
  } catch {
    throw new Error(
      "The build is missing or stale and the build tools are not installed: run `npm ci && npm run build`.",
    );
  }
  await buildAll({ quiet: true });
  console.error(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

// A .env beside package.json fills in what the real environment does not set.
if (existsSync(join(ROOT, ".env"))) process.loadEnvFile(join(ROOT, ".env"));

const [command, ...args] = process.argv.slice(2);
try {
  await ensureBuild();
  if (command === "server") {
    const server = await import(pathToFileURL(join(ROOT, "build/server.js")).href);
    await server.main();
  } else if (command === "build") {
    // ensureBuild did it.
  } else {
    const build = await import(pathToFileURL(join(ROOT, "build/server/index.js")).href);
    process.exitCode = await build.entry.module.runCli([command, ...args]);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
