// Builds the shell with esbuild into dist/: a sandboxed preload cannot require sibling files, so each entry is
// bundled into one file. `electron` stays external (the runtime provides it); so do the packaging tools, which
// electron-builder loads from node_modules on the packaging machine.
import { cp, mkdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
/** @type {import("esbuild").BuildOptions} */
const node = { platform: "node", format: "cjs", target: "node22", bundle: true, sourcemap: true, logLevel: "warning" };

await rm(dist, { recursive: true, force: true });
await Promise.all([
  build({
    ...node,
    entryPoints: [join(root, "src/main/main.ts")],
    outfile: join(dist, "main/main.js"),
    external: ["electron"],
  }),
  build({
    ...node,
    entryPoints: [join(root, "src/preload/preload.ts")],
    outfile: join(dist, "preload/preload.js"),
    external: ["electron"],
  }),
  build({
    ...node,
    entryPoints: [join(root, "src/packaging/builder-config.ts")],
    outfile: join(dist, "packaging/builder-config.js"),
    packages: "external",
  }),
  build({
    platform: "browser",
    format: "esm",
    target: "chrome130",
    bundle: true,
    sourcemap: true,
    logLevel: "warning",
    entryPoints: [join(root, "src/renderer/picker.ts"), join(root, "src/renderer/offline.ts")],
    outdir: join(dist, "renderer"),
  }),
]);
await mkdir(join(dist, "renderer"), { recursive: true });
for (const file of ["picker.html", "offline.html", "shell.css"]) {
  await cp(join(root, "src/renderer", file), join(dist, "renderer", file));
}
console.log("built desktop/dist");
