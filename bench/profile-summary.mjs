/**
 * `node bench/profile-summary.mjs [file.cpuprofile | dir] [top=25]`: where a server's CPU time went, from the V8 CPU
 * profile `node --cpu-prof` writes (the chat section writes one with BENCH_CPU_PROF=dir; bench/README.md). Prints
 * the time by package (what node_modules, Node's internals and the app's own bundle each took, self time), the
 * functions with the most self time, and the functions with the most inclusive time (everything they called), in
 * milliseconds and as shares of the busy time (idle excluded). A directory means its newest profile. When the
 * profile's directory holds the bench's `chat-window.json` (the chat section's measured passes, on the same
 * monotonic clock as the profile), only the samples inside one pass count: `--pass=question` (the default),
 * `--pass=greeting` or `--pass=floor` (the token API alone); `--all` counts the whole profile.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";

const args = process.argv.slice(2);
const all = args.includes("--all");
const pass = args.find((arg) => arg.startsWith("--pass="))?.slice("--pass=".length) ?? "question";
const [target = ".", topArg = "25"] = args.filter((arg) => !arg.startsWith("--"));
const top = Number(topArg);
const file = statSync(target).isDirectory()
  ? readdirSync(target)
      .filter((name) => name.endsWith(".cpuprofile"))
      .map((name) => join(target, name))
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]
  : target;
if (!file) throw new Error(`no .cpuprofile in ${target}`);

const profile = JSON.parse(readFileSync(file, "utf8"));
const windowFile = join(dirname(file), "chat-window.json");
const window = !all && existsSync(windowFile) ? JSON.parse(readFileSync(windowFile, "utf8"))[pass] : null;
if (!all && existsSync(windowFile) && !window) throw new Error(`${windowFile} has no pass "${pass}"`);
if (window && (window.fromUs < profile.startTime || window.toUs > profile.endTime)) {
  throw new Error(`${windowFile} is not inside this profile (another run's?): pass --all, or the right profile`);
}
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

/** Where a frame's code lives: a package, Node itself, the app's bundle, or V8's own pseudo-frames. */
function packageOf({ url, functionName }) {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node: internals";
  const modules = url.lastIndexOf("/node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "/node_modules/".length).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.includes("/build/server/")) return "app (build/server)";
  return url.replace(/^file:\/\//, "");
}

const label = ({ functionName, url, lineNumber }) =>
  `${functionName || "(anonymous)"} ${packageOf({ url, functionName })}${url && !url.startsWith("node:") ? `:${lineNumber + 1}` : ""}`;

const self = new Map();
const inclusive = new Map();
const byPackage = new Map();
let busy = 0;
let idle = 0;
const add = (map, key, ms) => map.set(key, (map.get(key) ?? 0) + ms);

let at = profile.startTime;
profile.samples.forEach((id, i) => {
  const ms = (profile.timeDeltas[i] ?? 0) / 1000;
  at += profile.timeDeltas[i] ?? 0;
  if (window && (at < window.fromUs || at > window.toUs)) return;
  const node = nodes.get(id);
  if (node.callFrame.functionName === "(idle)") {
    idle += ms;
    return;
  }
  busy += ms;
  add(self, label(node.callFrame), ms);
  add(byPackage, packageOf(node.callFrame), ms);
  const seen = new Set();
  for (let up = id; up !== undefined; up = parent.get(up)) {
    const key = label(nodes.get(up).callFrame);
    if (key.startsWith("(root)") || seen.has(key)) continue;
    seen.add(key);
    add(inclusive, key, ms);
  }
});

const print = (title, map, count) => {
  console.log(`\n${title}`);
  for (const [key, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) {
    console.log(`${ms.toFixed(0).padStart(8)} ms ${((100 * ms) / busy).toFixed(1).padStart(5)} %  ${key}`);
  }
};

console.log(
  `${file}${window ? ` (the ${pass} pass: ${((window.toUs - window.fromUs) / 1e6).toFixed(1)} s)` : " (whole profile)"}`,
);
console.log(`busy ${busy.toFixed(0)} ms, idle ${idle.toFixed(0)} ms`);
print("Self time by package", byPackage, top);
print("Self time by function", self, top);
print("Inclusive time by function", inclusive, top);
