/**
 * `npm run bench`: load-tests the production build of Atrium with autocannon and writes bench/RESULTS.md.
 *
 * Every server runs in a child process, so autocannon (here) never shares an event loop with what it measures.
 * Each target gets a discarded warm-up pass, then a measured pass; targets run one after another. Two
 * baselines are measured in the same run, so each result can be read as a ratio (see bench/README.md).
 */
import { spawn, spawnSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";
import { ROOT, buildIsCurrent } from "../scripts/build-state.mjs";

/** The bare Remix baseline: a resource route that touches nothing, i.e. the cost of Express + Remix alone. */
const REMIX_BASELINE = { name: "bare Remix resource route", path: "/api/health/live" };

/**
 * The Atrium endpoints to measure, after the baseline (GET unless `method` says otherwise; `signed` makes each request
 * a freshly signed SOP trigger). One line per endpoint; `headers` is optional, either
 * an object or an async function of the running server ({ baseUrl, databaseUrl }), for a token that must be
 * obtained at run time.
 */
const TARGETS = [
  { name: "health (database check)", path: "/api/health" },
  { name: "public site page (SSR)", path: "/harbor-bakery" },
  {
    name: "token API (valid key, limiter on)",
    path: "/api/auth/me",
    headers: async (server) => ({ authorization: `Bearer ${benchKey(server)}` }),
  },
  {
    name: "token API (OAuth access token)",
    path: "/api/auth/me",
    headers: async (server) => ({ authorization: `Bearer ${await benchAccessToken(server)}` }),
  },
  {
    name: "SOP trigger (verify + replay check + enqueue)",
    path: "/api/sops/bench-sop/trigger",
    method: "POST",
    // Each request signs a different body: a repeated signature would (rightly) be refused as a replay.
    signed: async (server) => signer(await benchTriggerSecret(server)),
  },
];

/**
 * An OAuth access token of the demo operator (whose limits `benchKey` raised): an app registered in the console,
 * the authorization page approved, the code exchanged as the spec shows.
 */
async function benchAccessToken({ baseUrl }) {
  const session = await consoleSession(baseUrl);
  const registered = await (
    await session.post("/settings/integrations/oauth-apps", {
      intent: "register",
      name: "Bench app",
      clientType: "confidential",
      redirectUris: "https://bench.example.test/callback",
    })
  ).text();
  const clientId = /data-testid="client-id">([^<]+)</.exec(registered)?.[1];
  const clientSecret = /data-testid="client-secret">([^<]+)</.exec(registered)?.[1];
  if (!clientId || !clientSecret) throw new Error("could not register the bench OAuth app");
  const query = `?client_id=${clientId}&response_type=code&scope=read_profile`;
  const consent = await (
    await fetch(`${baseUrl}/oauth/authorize${query}`, { headers: { cookie: session.cookie() } })
  ).text();
  const ticket = /name="ticket" value="([^"]+)"/.exec(consent)?.[1];
  if (!ticket) throw new Error("no consent page for the bench OAuth app");
  const approved = await session.post(`/oauth/authorize${query}`, { query, ticket, decision: "approve" });
  const code = new URL(approved.headers.get("location") ?? "http://x").searchParams.get("code");
  if (!code) throw new Error(`the bench OAuth approval answered ${approved.status}`);
  const tokens = await (
    await fetch(`${baseUrl}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        client_id: clientId,
        client_secret: clientSecret,
      }),
    })
  ).json();
  if (!tokens.access_token) throw new Error(`the bench token exchange failed: ${JSON.stringify(tokens)}`);
  return tokens.access_token;
}

/** The demo operator signed in to the console, with Harbor Bakery open: `post` sends forms as a browser does. */
async function consoleSession(baseUrl) {
  let cookie = "";
  const post = async (path, fields) => {
    const response = await fetch(baseUrl + path, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { origin: baseUrl, "sec-fetch-site": "same-origin", cookie },
      redirect: "manual",
    });
    const set = response.headers.getSetCookie().map((c) => c.split(";")[0]);
    if (set.length) cookie = set.join("; ");
    return response;
  };
  await post("/login", { email: "demo@atrium.test", password: "atrium-demo-password" });
  const picker = await (await fetch(`${baseUrl}/`, { headers: { cookie } })).text();
  const workspaceId = /name="workspaceId" value="([^"]+)"/.exec(picker)?.[1];
  if (!workspaceId) throw new Error("the demo operator has no workspace to open");
  await post("/?index", { intent: "select", workspaceId });
  return { post, cookie: () => cookie };
}

/** A SOP with no steps and its trigger, made through the console as an operator would; returns the secret. */
async function benchTriggerSecret({ baseUrl }) {
  const session = await consoleSession(baseUrl);
  const created = await session.post("/settings/sops?index", { name: "Bench", slug: "bench-sop", description: "" });
  const id = /\/settings\/sops\/([0-9A-Z]{26})/.exec(created.headers.get("location") ?? "")?.[1];
  if (!id) throw new Error(`could not create the bench SOP: ${created.status} ${await created.text()}`);
  const page = await (await session.post(`/settings/sops/${id}`, { intent: "create-trigger" })).text();
  const secret = /data-testid="trigger-secret">([^<]+)</.exec(page)?.[1];
  if (!secret) throw new Error("no trigger secret on the SOP page");
  return secret;
}

function signer(secret) {
  let n = 0;
  return () => {
    const body = JSON.stringify({ input: { n: n++, at: Date.now() } });
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
    return {
      body,
      headers: {
        "content-type": "application/json",
        "x-sop-timestamp": String(timestamp),
        "x-sop-signature": `sha256=${signature}`,
      },
    };
  };
}

/**
 * An API key of the demo operator with limits far above what the load can reach, so the limiter counts every
 * request but never refuses one: made with the admin CLI, as a self-hoster would.
 */
function benchKey({ databaseUrl }) {
  const admin = (...args) => {
    const run = spawnSync(process.execPath, ["scripts/launch.mjs", "admin", ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl },
      encoding: "utf8",
    });
    if (run.status !== 0) throw new Error(`admin ${args[0]} failed:\n${run.stderr}`);
    return run.stdout.trim();
  };
  admin("users:set-tier", "demo@atrium.test", "enterprise");
  admin("users:set-limits", "demo@atrium.test", "--per-hour", "1000000000", "--burst", "1000000000");
  return admin("keys:create", "demo@atrium.test", "--name", "bench");
}

const NODE_HTTP = "node:http";
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;

/** A minimal node:http server answering what /api/health/live answers: the floor for any Node server here. */
const NODE_HTTP_SERVER = `
const body = JSON.stringify({ status: "ok" });
require("node:http")
  .createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  })
  .listen(Number(process.env.PORT), process.env.HOST);
`;

function numberFromEnv(name, fallback, { allowZero = false } = {}) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (value === 0 && !allowZero)) {
    throw new Error(`${name} must be a ${allowZero ? "non-negative" : "positive"} number, got "${raw}"`);
  }
  return value;
}

// ---------------------------------------------------------------------------------------------------------------
// Child processes and temp dirs, cleaned up whatever happens (including Ctrl-C).

const children = new Set();
const tempDirs = new Set();
/** The autocannon run in progress, stopped on Ctrl-C so the server is not draining a load while it shuts down. */
let currentLoad;
let interrupted = false;

function removeTempDirs() {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

/** Last resort when the process exits without having stopped its children: they must not outlive it. */
process.once("exit", () => {
  for (const child of children) child.kill("SIGKILL");
  removeTempDirs();
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`\n${signal}: stopping servers and cleaning up`);
    currentLoad?.stop();
    Promise.allSettled([...children].map(stopChild)).finally(() => {
      removeTempDirs();
      process.exit(130);
    });
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node ...args` from the repo root with exactly `env` (plus PATH): the shell's own Atrium settings must
 * not change what is measured. Output is kept (last 64 kB) to explain a crash or a failed start.
 */
function startChild(args, env) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk) => {
    output = (output + chunk).slice(-65_536);
  };
  child.stdout.setEncoding("utf8").on("data", keep);
  child.stderr.setEncoding("utf8").on("data", keep);
  child.output = () => output.trim();
  child.exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  children.add(child);
  child.exited.then(() => children.delete(child));
  return child;
}

/** SIGTERM (Atrium drains and closes its database), then SIGKILL if it has not exited in time. */
async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
  await child.exited;
  clearTimeout(timer);
}

/** Polls `url` until it answers 200; fails if the child exits first or READY_TIMEOUT_MS passes. */
async function waitUntilReady(child, url, label) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = "no answer yet";
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${label} exited before it was ready (code ${child.exitCode}):\n${child.output()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error.cause?.code ?? error.message;
    }
    await sleep(100);
  }
  throw new Error(`${label} was not ready after ${READY_TIMEOUT_MS / 1000} s (${url}: ${last}):\n${child.output()}`);
}

async function startNodeHttpBaseline() {
  const port = await freePort();
  const child = startChild(["-e", NODE_HTTP_SERVER], { PORT: String(port), HOST: "127.0.0.1" });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilReady(child, `${baseUrl}/`, "the node:http baseline");
  return { child, baseUrl };
}

async function startAtrium() {
  const port = await freePort();
  const dir = mkdtempSync(join(os.tmpdir(), "atrium-bench-"));
  tempDirs.add(dir);
  const databaseUrl = `file:${join(dir, "atrium.db")}`;
  const child = startChild(["build/server.js"], {
    PORT: String(port),
    HOST: "127.0.0.1",
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    SEED_DEMO: "true",
    LOG_LEVEL: "silent",
    COOKIE_SECURE: "false",
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilReady(child, `${baseUrl}/api/health`, "Atrium");
  return { child, baseUrl, databaseUrl };
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring.

/** One request before the load, so a broken endpoint fails with its status and body, not just a count. */
async function preflight(url, headers, sign) {
  const signed = sign?.();
  const response = await fetch(url, {
    method: signed ? "POST" : "GET",
    headers: signed ? signed.headers : headers,
    body: signed?.body,
    redirect: "manual",
  });
  const body = await response.text();
  if (response.status < 200 || response.status > 299) {
    throw new Error(`${url} answered ${response.status} before the load:\n${body.slice(0, 500)}`);
  }
}

async function load(url, headers, duration, connections, sign) {
  if (interrupted) throw new Error("interrupted");
  const requests = sign ? [{ method: "POST", setupRequest: (request) => ({ ...request, ...sign() }) }] : undefined;
  currentLoad = autocannon({ url, method: "GET", headers, duration, connections, requests });
  let result;
  try {
    result = await currentLoad;
  } finally {
    currentLoad = undefined;
  }
  // A load cut short by Ctrl-C must not be reported as a result.
  if (interrupted) throw new Error("interrupted");
  return result;
}

/** Measures one target on a running server: preflight, warm-up (discarded), measured pass. */
async function measure(target, server, options) {
  const { baseUrl, child } = server;
  const url = baseUrl + target.path;
  const headers = typeof target.headers === "function" ? await target.headers(server) : target.headers;
  const sign = target.signed ? await target.signed(server) : undefined;
  process.stdout.write(`${target.name} (${target.method ?? "GET"} ${target.path}): `);
  await preflight(url, headers, sign);
  if (options.warmup > 0) {
    process.stdout.write("warm-up… ");
    await load(url, headers, options.warmup, options.connections, sign);
  }
  process.stdout.write("measuring… ");
  const result = await load(url, headers, options.duration, options.connections, sign);
  console.log(`${Math.round(result.requests.mean)} req/s`);

  const problems = [];
  if (result.non2xx > 0) {
    const codes = Object.entries(result.statusCodeStats).map(([code, { count }]) => `${count} × ${code}`);
    problems.push(`${result.non2xx} non-2xx responses (${codes.join(", ")})`);
  }
  if (result.errors > 0) problems.push(`${result.errors} errors`);
  if (result.timeouts > 0) problems.push(`${result.timeouts} timeouts`);
  if (result["2xx"] === 0) problems.push("no 2xx response at all");
  if (child.exitCode !== null || child.signalCode !== null) problems.push(`the server exited:\n${child.output()}`);

  return {
    name: target.name,
    path: target.path,
    rps: result.requests.mean,
    p50: result.latency.p50,
    p99: result.latency.p99,
    problems,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Reporting.

/** How busy all cores are over `ms` (the load average would still show a build that just finished). */
async function cpuBusyPercent(ms) {
  const totals = () =>
    os.cpus().reduce(
      (acc, { times }) => {
        const all = times.user + times.nice + times.sys + times.idle + times.irq;
        return { all: acc.all + all, idle: acc.idle + times.idle };
      },
      { all: 0, idle: 0 },
    );
  const before = totals();
  await sleep(ms);
  const after = totals();
  const all = after.all - before.all;
  return all > 0 ? (100 * (all - (after.idle - before.idle))) / all : 0;
}

/** A markdown table with padded columns (numbers right-aligned), readable as plain text too. */
function markdownTable(header, rows, rightAligned) {
  const widths = header.map((cell, i) => Math.max(3, cell.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    `| ${cells.map((cell, i) => (rightAligned[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join(" | ")} |`;
  const rule = `| ${widths.map((w, i) => (rightAligned[i] ? `${"-".repeat(w - 1)}:` : "-".repeat(w))).join(" | ")} |`;
  return [line(header), rule, ...rows.map(line)].join("\n");
}

function resultsTable(results) {
  const nodeHttp = results.find((r) => r.name === NODE_HTTP).rps;
  const remix = results.find((r) => r.name === REMIX_BASELINE.name).rps;
  const ms = (value) => (Number.isInteger(value) ? String(value) : value.toFixed(2));
  const header = [
    "target",
    "path",
    "requests/s (mean)",
    "latency p50 ms",
    "p99 ms",
    "ratio vs node:http",
    "ratio vs bare Remix route",
  ];
  const rows = results.map((r) => [
    r.name,
    `\`${r.path}\``,
    Math.round(r.rps).toString(),
    ms(r.p50),
    ms(r.p99),
    (r.rps / nodeHttp).toFixed(2),
    (r.rps / remix).toFixed(2),
  ]);
  return markdownTable(header, rows, [false, false, true, true, true, true, true]);
}

function resultsDocument(table, options) {
  const cpus = os.cpus();
  const machine = [
    `${cpus.length} cores`,
    cpus[0]?.model.trim() ?? "unknown CPU",
    `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM`,
    `${os.type()} ${os.release()}`,
    `Node ${process.version}`,
  ].join(", ");
  const { connections, duration, warmup } = options;
  const load = `${connections} connections, ${duration} s per target after a ${warmup} s warm-up`;
  return `# Atrium load benchmark

- Date: ${new Date().toISOString()}
- Machine: ${machine}
- CPU busy just before the run: ${options.busyBefore.toFixed(0)} % (other work on the machine skews every number)
- Load: autocannon, ${load}; GET except the SOP trigger, which POSTs a freshly signed body each time

${table}

Ratios, not absolute numbers, are what to compare across machines and runs: requests/s depends on the CPU, the
load generator sharing that CPU, and whatever else the machine is doing, while each ratio divides by a baseline
measured moments earlier under the same conditions. "ratio vs node:http" is the share of a bare Node server's
throughput that an endpoint keeps; "ratio vs bare Remix route" isolates what the endpoint's own work costs on top of
Express and Remix. Latencies are whole milliseconds (autocannon's histogram resolution; 0 means under 1 ms).
Regenerate with \`npm run bench\`.
`;
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  const options = {
    duration: numberFromEnv("BENCH_DURATION", 10),
    connections: numberFromEnv("BENCH_CONNECTIONS", 10),
    warmup: numberFromEnv("BENCH_WARMUP", 2, { allowZero: true }),
  };
  if (!Number.isInteger(options.connections)) throw new Error("BENCH_CONNECTIONS must be a whole number");

  if (!buildIsCurrent()) {
    console.log("Building Atrium (the build is missing or older than the sources)…");
    const { buildAll } = await import("../scripts/build.mjs");
    await buildAll({ quiet: true });
  }

  options.busyBefore = await cpuBusyPercent(1_000);
  console.log(`${options.connections} connections, ${options.warmup} s warm-up + ${options.duration} s per target\n`);
  const results = [];

  const baseline = await startNodeHttpBaseline();
  try {
    results.push(await measure({ name: NODE_HTTP, path: "/" }, baseline, options));
  } finally {
    await stopChild(baseline.child);
  }

  const atrium = await startAtrium();
  try {
    for (const target of [REMIX_BASELINE, ...TARGETS]) results.push(await measure(target, atrium, options));
  } finally {
    await stopChild(atrium.child);
  }

  const table = resultsTable(results);
  console.log(`\n${table}\n`);

  const failed = results.filter((r) => r.problems.length > 0);
  if (failed.length > 0) {
    const details = failed.map((r) => `- ${r.name} (${r.path}): ${r.problems.join("; ")}`).join("\n");
    throw new Error(`The measured pass was not clean, so bench/RESULTS.md was not written:\n${details}`);
  }

  writeFileSync(join(ROOT, "bench", "RESULTS.md"), resultsDocument(table, options));
  console.log("Wrote bench/RESULTS.md");
}

try {
  await main();
} catch (error) {
  // After Ctrl-C, what fails next (a stopped load, a server going away) is a consequence, not news.
  if (!interrupted) console.error(`\nBenchmark failed: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
} finally {
  await Promise.allSettled([...children].map(stopChild));
  removeTempDirs();
}
