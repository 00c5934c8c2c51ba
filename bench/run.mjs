/**
 * `npm run bench`: load-tests the production build of Atrium with autocannon and writes bench/RESULTS.md.
 *
 * Every server runs in a child process, so autocannon (here) never shares an event loop with what it measures.
 * Each target gets a discarded warm-up pass, then a measured pass; targets run one after another. The baselines
 * are the shared reference servers in ../shared/perf (plain node:http, and a bare Remix + Express app), measured in
 * the same run, so each result can be read as a ratio (see bench/README.md). Atrium's own routes are never a
 * baseline: they carry Atrium's middleware and bootstrap, which is part of what is being measured.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer } from "node:net";
import os from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { ROOT, STAMP, buildIsCurrent } from "../scripts/build-state.mjs";

/** The shared reference servers, beside the repository (CI clones the repo with shared/ next to it). */
const REFERENCE = resolve(ROOT, "..", "shared", "perf");

/**
 * What each ratio divides by, all served by the reference. `node:http` is the limit for one Node process (a fixed
 * 5 KB page); the two bare Remix baselines are Express + @remix-run/express with no middleware, one per kind of
 * Atrium target: a resource route, and a server-rendered page of 20 items.
 */
const BASELINES = {
  nodeHttp: { name: "node:http", path: "/", server: "reference node-http.mjs" },
  route: { name: "bare Remix resource route", path: "/api/live", server: "reference server.mjs", like: "route" },
  page: { name: "bare Remix SSR page", path: "/demo", server: "reference server.mjs", like: "page" },
  // The cached page's own answer (headers and bytes, as recorded from Atrium in the run) from plain node:http.
  replay: { name: "node:http replaying the cached page's answer", path: "/", server: "bench/replay-server.mjs" },
  // The same bytes with only the headers that describe them: splits the answer's cost into its body and its headers.
  replayBody: {
    name: "node:http sending the cached page's body alone",
    path: "/",
    server: "bench/replay-server.mjs (REPLAY_HEADERS=body)",
  },
};

/**
 * The Atrium endpoints to measure, after the baselines (GET unless `method` says otherwise; `signed` makes each
 * request a freshly signed SOP trigger). One line per endpoint; `like` names the bare Remix baseline it is compared
 * with (`route` or `page`); `headers` is optional, either an object or an async function of the running server
 * ({ baseUrl, databaseUrl }), for a token that must be obtained at run time.
 */
/** The demo site's custom domain in the custom-domain target (made verified by `benchDomain`). */
const BENCH_DOMAIN = "harbor.bench.test";

/**
 * How the SSR targets skip the page cache (issue 15): a query parameter the page does not declare
 * (`Atrium-Cache-Vary-Query`, the contract's app/modules/cache/headers.ts) makes the request bypass the cache, so
 * these rows measure rendering, as they did before the cache existed. The page ignores the parameter.
 */
const BYPASS = "?bench=uncached";

/**
 * Issue 17's targets: the demo shop's product page rendered (variants, stock, JSON-LD; goal 0.8× the bare Remix
 * page) and `POST /api/v1/cart/validate` of a 5-line cart with a coupon, an address and a delivery rate (every
 * price, stock level, coupon, tax rate and rate read from the database and the totals recomputed per request;
 * goal 0.5× the bare Remix route). The customer API's limiter stays on, its per-address allowance raised for the
 * run (every request comes from 127.0.0.1).
 */
const SHOP_TARGETS = [
  {
    name: "product page, uncached (SSR, demo shop)",
    path: `/harbor-bakery/shop/lemon-drizzle-cake${BYPASS}`,
    like: "page",
    goal: { like: "page", ratio: 0.8 },
    expect: [/"@type":"Product"/, /name="variant"/, /srcset="/i],
  },
  // The same page as a visitor gets it from the second request on: the page cache's hit (labelled by what
  // answered, as the home page's row is). No goal of its own: issue 17's goal is the rendered row's.
  {
    name: "product page, cached (demo shop)",
    path: "/harbor-bakery/shop/lemon-drizzle-cake",
    like: "page",
    headers: { "accept-encoding": "gzip, deflate, br" },
    cacheProbe: true,
    expect: [/"@type":"Product"/],
  },
  {
    name: "cart validation (5 lines, coupon, tax, delivery)",
    path: "/api/v1/cart/validate",
    method: "POST",
    like: "route",
    goal: { like: "route", ratio: 0.5 },
    signed: async (server) => benchCart(server),
  },
];
const SHOP_ENV = { CUSTOMER_API_PER_ADDRESS_PER_MINUTE: "100000000" };

/** The 14 days the availability target asks for: from tomorrow (UTC), so the clock never trims its first day. */
const BENCH_DAYS = (() => {
  const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return { from: day(1), to: day(14) };
})();

/**
 * Issue 19's target: `GET /api/v1/bookings/services` for one service over 14 days with 200 bookings on it
 * (inserted before the load, as visitors would have made them): the service, its staff member's weekly hours and
 * the 200 bookings read, and every slot of the 14 days computed through the Temporal polyfill against them. Goal:
 * at least 0.5× the bare Remix resource route. The customer API's limiter stays on, raised for the run.
 */
const BOOKING_TARGETS = [
  {
    name: "booking times, 14 days of one service with 200 bookings",
    path: `/api/v1/bookings/services?service=bench-appointment&from=${BENCH_DAYS.from}&to=${BENCH_DAYS.to}&timeZone=UTC`,
    like: "route",
    goal: { like: "route", ratio: 0.5 },
    headers: async (server) => {
      benchBookings(server, 200);
      return { "x-atrium-site": "harbor-bakery" };
    },
    expect: [/"slug":"bench-appointment"/, /"seatsLeft":1/],
  },
];

const TARGETS = [
  // Atrium's counterpart of the reference's /api/live: what Atrium's own pipeline costs on top of bare Remix.
  // Goal (issue 15): at least 0.8× the bare Remix route.
  {
    name: "liveness (Atrium's pipeline)",
    path: "/api/health/live",
    like: "route",
    goal: { like: "route", ratio: 0.8 },
  },
  // Issue 15's cached public page: the demo's home page from the second request on (the warm-up and the
  // preflight made the first). `cacheProbe` labels the row with what answered: a hit of the page cache (its `Age`
  // header) or not. Goal: at least 0.8× node:http (floor 0.7×).
  {
    name: "public page, cached (demo home page)",
    path: "/harbor-bakery",
    like: "page",
    // As every browser asks: the page is 14 KB as it is, 3.5 KB compressed (the node:http reference sends 2 KB).
    headers: { "accept-encoding": "gzip, deflate, br" },
    cacheProbe: true,
    // Also against plain node:http sending this very answer: what the hit path itself costs.
    replay: true,
    goal: { like: "nodeHttp", ratio: 0.8 },
    expect: [/class="site-nav"/, /block-hero/],
  },
  { name: "health (database check)", path: "/api/health", like: "route" },
  // Issue 13's target: the demo's branded home page, server-rendered (no cache yet): navigation, a hero, rich
  // text, a gallery, a call to action and an FAQ, with responsive images and the per-site theme. `expect` makes
  // the preflight fail if the page is not that page (an empty site would measure something cheaper).
  {
    name: "branded home page, uncached (SSR, demo site)",
    path: `/harbor-bakery${BYPASS}`,
    like: "page",
    expect: [
      /class="site-nav"/,
      /block-hero/,
      /block-text/,
      /block-gallery/,
      /block-cta/,
      /block-faq/,
      /srcset="/i,
      /theme\.css\?v=/,
    ],
  },
  // Issue 14's sitemap target: /{site}/sitemap.xml of a site with 1,000 published pages (inserted before the
  // load, as the page editor would have published them): one read of the pages and their search settings, and
  // the XML written for each. Before the custom-domain target, which moves the site to its domain.
  {
    name: "sitemap.xml of a 1,000-page site",
    path: `/harbor-bakery/sitemap.xml${BYPASS}`,
    like: "page",
    headers: async (server) => {
      benchPages(server, 1000);
      return {};
    },
    expect: [/<urlset /, /bench-page-999<\/loc>/, /<lastmod>/],
  },
  // Before the custom-domain target, which moves the demo site (and its shop) to its domain.
  ...SHOP_TARGETS,
  ...BOOKING_TARGETS,
  // Issue 14's target: the same page served at the root of the site's verified custom domain (a `Host` header;
  // the row is inserted before the load): host routing (one registry read, the path rewrite) and the page's
  // links under the domain's link base. The preflight checks it is that page, on the domain.
  {
    name: "home page on a custom domain, uncached (SSR, demo site)",
    path: `/${BYPASS}`,
    like: "page",
    headers: async (server) => ({ host: await benchDomain(server) }),
    expect: [
      /class="site-nav"/,
      /block-hero/,
      /block-gallery/,
      /srcset="\/media\//i,
      /href="\/theme\.css\?v=/,
      new RegExp(`<link rel="canonical" href="https://${BENCH_DOMAIN.replace(/\./g, "\\.")}/"`),
    ],
  },
  {
    name: "token API (valid key, limiter on)",
    path: "/api/auth/me",
    like: "route",
    headers: async (server) => ({ authorization: `Bearer ${benchKey(server)}` }),
  },
  {
    name: "token API (OAuth access token)",
    path: "/api/auth/me",
    like: "route",
    headers: async (server) => ({ authorization: `Bearer ${await benchAccessToken(server)}` }),
  },
  {
    name: "SOP trigger (verify + replay check + enqueue)",
    path: "/api/sops/bench-sop/trigger",
    method: "POST",
    like: "route",
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
 * The body of the cart-validation target: five of the demo shop's variants (read from its database, as a
 * storefront would have them from its pages), WELCOME10, a UK address and the first UK rate. The same body each
 * time: validation writes nothing, so a repeat is as much work as the first.
 */
function benchCart({ databaseUrl }) {
  const db = new Database(databaseUrl.replace(/^file:/, ""));
  try {
    const { id } = db.prepare("select id from workspaces where slug = ?").get("harbor-bakery");
    const variants = db
      .prepare(
        `select v.id, v.price from product_variants v join products p on p.id = v.product_id
         where v.workspace_id = ? and p.status = 'active' and (v.inventory_tracked = 0 or v.stock - v.reserved >= 1)
         order by v.position, v.id limit 5`,
      )
      .all(id);
    if (variants.length < 5) throw new Error(`the demo shop has ${variants.length} variants to sell, not 5`);
    const rate = db
      .prepare("select id from shipping_rates where workspace_id = ? and kind = 'flat' order by created_at")
      .get(id);
    const body = JSON.stringify({
      lines: variants.map((v) => ({ variantId: v.id, quantity: 1, price: v.price })),
      couponCode: "WELCOME10",
      address: { country: "GB" },
      shippingRateId: rate.id,
    });
    return () => ({ headers: { "content-type": "application/json", "x-atrium-site": "harbor-bakery" }, body });
  } finally {
    db.close();
  }
}

/**
 * A bookable 30-minute appointment in the demo site, its staff member open round the clock, and `count` confirmed
 * bookings spread over the target's 14 days (one every other half hour from the first day on), for the
 * availability target. Once per database: the warm-up and the measured pass share it.
 */
function benchBookings({ databaseUrl }, count) {
  const db = new Database(databaseUrl.replace(/^file:/, ""));
  try {
    const { id } = db.prepare("select id from workspaces where slug = ?").get("harbor-bakery");
    if (db.prepare("select 1 from booking_services where workspace_id = ? and slug = ?").get(id, "bench-appointment"))
      return;
    const now = new Date().toISOString();
    const weekly = JSON.stringify([1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: "00:00", end: "24:00" })));
    db.transaction(() => {
      db.prepare(
        `insert into booking_hosts (id, workspace_id, kind, name, user_id, time_zone, weekly, overrides, lock_seq,
           feed_token_hash, status, created_at, updated_at)
         values ('BENCHHOST', ?, 'staff', 'Bench', null, 'Europe/London', ?, '[]', 0, null, 'active', ?, ?)`,
      ).run(id, weekly, now, now);
      db.prepare(
        `insert into booking_services (id, workspace_id, slug, name, description, duration_minutes, interval_minutes,
           buffer_before_minutes, buffer_after_minutes, notice_minutes, window_days, capacity, price, deposit,
           currency, location_kind, location_detail, questions, cancel_notice_minutes, reschedule_notice_minutes,
           requires_approval, hold_minutes, reminder_hours, follow_up_hours, status, created_at, updated_at)
         values ('BENCHSERVICE', ?, 'bench-appointment', 'Bench appointment', '', 30, 30, 0, 0, 0, 60, 1, 0, 0,
           'GBP', 'phone', '', '[]', 0, 0, 0, 5, 0, 0, 'active', ?, ?)`,
      ).run(id, now, now);
      db.prepare("insert into booking_service_hosts (service_id, host_id) values ('BENCHSERVICE', 'BENCHHOST')").run();
      const insert = db.prepare(
        `insert into bookings (id, workspace_id, service_id, host_id, customer_id, status, start_at, end_at, seats,
           name, email, phone, answers, visitor_time_zone, notes, price, deposit, currency, amount_paid,
           hold_expires_at, source, cancelled_at, cancelled_by, cancel_reason, reminder_sent_at, follow_up_sent_at,
           created_at, updated_at)
         values (?, ?, 'BENCHSERVICE', 'BENCHHOST', null, 'confirmed', ?, ?, 1, 'Bench', 'bench@example.test', '',
           '{}', 'UTC', '', 0, 0, 'GBP', 0, null, 'api', null, null, '', null, null, ?, ?)`,
      );
      const first = Date.parse(`${BENCH_DAYS.from}T00:00:00Z`);
      for (let n = 0; n < count; n += 1) {
        const start = first + n * 60 * 60_000;
        insert.run(
          `BENCHBOOKING${String(n).padStart(4, "0")}`,
          id,
          new Date(start).toISOString(),
          new Date(start + 30 * 60_000).toISOString(),
          now,
          now,
        );
      }
    })();
  } finally {
    db.close();
  }
}

/** `count` published pages more in the demo site, in one transaction, for the sitemap target. */
function benchPages({ databaseUrl }, count) {
  const db = new Database(databaseUrl.replace(/^file:/, ""));
  try {
    const { id } = db.prepare("select id from workspaces where slug = ?").get("harbor-bakery");
    const now = new Date().toISOString();
    const insert = db.prepare(
      `insert into site_pages (id, workspace_id, slug, is_home, draft, published, published_at, has_changes,
         created_at, updated_at) values (?, ?, ?, 0, ?, ?, ?, 0, ?, ?)`,
    );
    db.transaction(() => {
      for (let n = 0; n < count; n += 1) {
        const content = JSON.stringify({ title: `Bench page ${n}`, description: "", blocks: [] });
        insert.run(randomUUID(), id, `bench-page-${n}`, content, content, now, now, now);
      }
    })();
  } finally {
    db.close();
  }
}

/**
 * Makes `BENCH_DOMAIN` a verified primary domain of the demo site, as the domains console would once its DNS
 * check passed, and waits until the server's domain list has reloaded (`DOMAINS_REFRESH_MS`, short for the
 * bench's server) and serves it.
 */
async function benchDomain({ baseUrl, databaseUrl }) {
  const db = new Database(databaseUrl.replace(/^file:/, ""));
  try {
    const { id } = db.prepare("select id from workspaces where slug = ?").get("harbor-bakery");
    const now = new Date().toISOString();
    db.prepare(
      `insert into site_domains (id, workspace_id, hostname, token, status, is_primary, redirect_path, diagnostics,
         last_checked_at, next_check_at, verified_at, created_at, updated_at)
       values (?, ?, ?, ?, 'verified', 1, 1, '[]', ?, null, ?, ?, ?)`,
    ).run(randomUUID(), id, BENCH_DOMAIN, randomUUID(), now, now, now, now);
  } finally {
    db.close();
  }
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while ((await get(`${baseUrl}/`, { host: BENCH_DOMAIN })).status !== 200) {
    if (Date.now() > deadline) throw new Error(`${BENCH_DOMAIN} was not served within ${READY_TIMEOUT_MS} ms`);
    await sleep(200);
  }
  return BENCH_DOMAIN;
}

/** A GET with the headers given, `Host` included (fetch replaces it with the URL's). */
function get(url, headers = {}) {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolvePromise, reject) => {
    const req = httpRequest(
      { host: hostname, port, path: pathname + search, headers, setHost: !headers.host },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => resolvePromise({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/**
 * An API key of the demo operator with limits far above what the load can reach, so the limiter counts every
 * request but never refuses one: made with the admin CLI, as a self-hoster would.
 */
function benchKey({ databaseUrl, cwd = ROOT }) {
  const admin = (...args) => {
    const run = spawnSync(process.execPath, ["scripts/launch.mjs", "admin", ...args], {
      cwd,
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

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;

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
 * Starts `node ...args` in `cwd` with exactly `env` (plus PATH): the shell's own Atrium settings must not change
 * what is measured. Output is kept (last 64 kB) to explain a crash or a failed start.
 */
function startChild(args, env, cwd = ROOT) {
  const child = spawn(process.execPath, args, {
    cwd,
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

/**
 * Installs and builds the reference the first time (as its README and its own run.mjs do): `npm install`, not
 * `npm ci`, because its lockfile lacks other platforms' optional rollup binaries. npm writes
 * node_modules/.package-lock.json last, so an interrupted install is redone rather than half used. This runs with
 * the shell's environment (npm needs its configuration and HOME); only the measured servers are isolated from it.
 */
function prepareReference() {
  if (!existsSync(join(REFERENCE, "server.mjs"))) {
    throw new Error(`the perf reference is missing: expected ../shared/perf beside the repository (${REFERENCE})`);
  }
  const step = (label, command, args) => {
    console.log(`${label} in ${REFERENCE}…`);
    const run = spawnSync(command, args, { cwd: REFERENCE, stdio: ["ignore", "inherit", "inherit"] });
    if (run.status !== 0) {
      throw new Error(
        `${command} ${args.join(" ")} failed in ${REFERENCE} (${run.error?.message ?? `exit ${run.status}`})`,
      );
    }
  };
  if (!existsSync(join(REFERENCE, "node_modules", ".package-lock.json"))) {
    // --no-save: the reference's lockfile is not ours to rewrite.
    step("Installing the perf reference", "npm", ["install", "--no-save", "--no-audit", "--no-fund"]);
  }
  if (!existsSync(join(REFERENCE, "build", "server", "index.js"))) {
    step("Building the perf reference", "npx", ["remix", "vite:build"]);
  }
}

/** Starts one of the reference's servers (`node-http.mjs` or `server.mjs`), in production mode as Atrium runs. */
async function startReference(script, probe) {
  const port = await freePort();
  const child = startChild([script], { PORT: String(port), NODE_ENV: "production" }, REFERENCE);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilReady(child, baseUrl + probe, `the reference ${script}`);
  return { child, baseUrl };
}

/** One answer as the server sent it (a page-cache hit): status, headers but the per-connection ones, bytes. */
function recordAnswer(url, headers = {}) {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`${url} answered ${response.statusCode}, not the page`));
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("end", () => {
        const kept = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (!["date", "connection", "keep-alive", "transfer-encoding"].includes(name)) kept[name] = value;
        }
        resolve({ status: response.statusCode, headers: kept, body: Buffer.concat(chunks).toString("base64") });
      });
      response.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

async function startReplay(recorded, headers = "all") {
  const dir = mkdtempSync(join(os.tmpdir(), "atrium-bench-replay-"));
  tempDirs.add(dir);
  const file = join(dir, "answer.json");
  writeFileSync(file, JSON.stringify(recorded));
  const port = await freePort();
  const child = startChild([join(ROOT, "bench", "replay-server.mjs")], {
    PORT: String(port),
    REPLAY_FILE: file,
    REPLAY_HEADERS: headers,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilReady(child, `${baseUrl}/`, "the replay server");
  return { child, baseUrl };
}

/** `nodeArgs` go before the script (the chat section's `--cpu-prof`, when BENCH_CPU_PROF asks for a profile). */
async function startAtrium(extraEnv = {}, cwd = ROOT, nodeArgs = []) {
  const port = await freePort();
  const dir = mkdtempSync(join(os.tmpdir(), "atrium-bench-"));
  tempDirs.add(dir);
  const databaseUrl = `file:${join(dir, "atrium.db")}`;
  const child = startChild(
    [...nodeArgs, "build/server.js"],
    {
      PORT: String(port),
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      SEED_DEMO: "true",
      LOG_LEVEL: "silent",
      COOKIE_SECURE: "false",
      ...extraEnv,
    },
    cwd,
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilReady(child, `${baseUrl}/api/health`, "Atrium");
  return { child, baseUrl, databaseUrl, cwd };
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring.

/** One request before the load, so a broken endpoint fails with its status and body, not just a count. */
async function preflight(url, headers, sign, expect = []) {
  const signed = sign?.();
  const response = headers?.host
    ? await get(url, headers)
    : await fetch(url, {
        method: signed ? "POST" : "GET",
        headers: signed ? signed.headers : headers,
        body: signed?.body,
        redirect: "manual",
      });
  const body = typeof response.body === "string" ? response.body : await response.text();
  if (response.status < 200 || response.status > 299) {
    throw new Error(`${url} answered ${response.status} before the load:\n${body.slice(0, 500)}`);
  }
  const missing = expect.filter((pattern) => !pattern.test(body));
  if (missing.length) throw new Error(`${url} is not the page to measure: no match for ${missing.join(", ")}`);
}

/** A page-cache hit: its `Age` header (or a Cache-Status / X-Cache naming a hit). */
function isHit(response) {
  const status = response.headers.get("cache-status") ?? response.headers.get("x-cache");
  return response.headers.has("age") || (status !== null && /hit/i.test(status));
}

/**
 * What answered a page the load has just requested thousands of times: a hit of the page cache says so with an
 * `Age` header (the stored answer's age, RFC 9111 §5.1), which a rendered answer never carries.
 */
async function cacheProbe(url) {
  const response = await fetch(url);
  await response.arrayBuffer();
  const age = response.headers.get("age");
  if (age !== null) return `page-cache hit (Age: ${age})`;
  // RFC 9211's Cache-Status, or the common X-Cache, if the cache names itself that way instead.
  const status = response.headers.get("cache-status") ?? response.headers.get("x-cache");
  if (status && /hit/i.test(status)) return `page-cache hit (${status})`;
  return "NOT a page-cache hit (no Age header: rendered)";
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
  await preflight(url, headers, sign, target.expect);
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

  let name = target.name;
  if (target.cacheProbe) {
    const probe = await cacheProbe(url);
    name = `${target.name}: ${probe}`;
    // A "cached" row that was rendered measures the renderer under a wrong name: refuse to report it.
    if (!probe.startsWith("page-cache hit")) problems.push(`expected page-cache hits, got: ${probe}`);
  }

  return {
    name,
    goal: target.goal,
    replay: target.replay,
    server: target.server ?? "Atrium",
    path: target.path,
    like: target.like,
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
  const rpsOf = (baseline) => results.find((r) => r.name === baseline.name).rps;
  const nodeHttp = rpsOf(BASELINES.nodeHttp);
  const bare = { route: rpsOf(BASELINES.route), page: rpsOf(BASELINES.page) };
  const ms = (value) => (Number.isInteger(value) ? String(value) : value.toFixed(2));
  // Only the matching bare Remix baseline means anything: a JSON route against a rendered page compares nothing.
  const ratioVs = (r, kind) => (r.like === kind ? (r.rps / bare[kind]).toFixed(2) : "–");
  const header = [
    "target",
    "served by",
    "path",
    "requests/s (mean)",
    "latency p50 ms",
    "p99 ms",
    "ratio vs node:http",
    "ratio vs bare Remix route",
    "ratio vs bare Remix page",
  ];
  const rows = results.map((r) => [
    r.name,
    r.server,
    `\`${r.path}\``,
    Math.round(r.rps).toString(),
    ms(r.p50),
    ms(r.p99),
    // Three places: Remix serves a few percent of what node:http does, so two would round most rows to 0.0x.
    (r.rps / nodeHttp).toFixed(3),
    ratioVs(r, "route"),
    ratioVs(r, "page"),
  ]);
  return markdownTable(header, rows, [false, false, false, true, true, true, true, true, true]);
}

/** The issue's goals, each as the ratio it asks for and the one measured (issue 15, "Benchmark"). */
function goalLines(results) {
  const rpsOf = (baseline) => results.find((r) => r.name === baseline.name).rps;
  const lines = [];
  for (const r of results.filter((result) => result.goal)) {
    const baseline = BASELINES[r.goal.like];
    const ratio = r.rps / rpsOf(baseline);
    const verdict = ratio >= r.goal.ratio ? "met" : "NOT met";
    lines.push(`- ${r.name}: ${ratio.toFixed(2)}× ${baseline.name} (goal ${r.goal.ratio}×: ${verdict})`);
  }
  const replay = results.find((r) => r.name === BASELINES.replay.name);
  for (const r of results.filter((result) => result.replay && replay)) {
    lines.push(
      `- ${r.name}: ${(r.rps / replay.rps).toFixed(2)}× ${BASELINES.replay.name} (the same headers and bytes: what the ` +
        "cache's lookup, headers and log line cost; the rest of the gap to node:http is the answer itself)",
    );
  }
  const body = results.find((r) => r.name === BASELINES.replayBody.name);
  const nodeHttp = results.find((r) => r.name === BASELINES.nodeHttp.name);
  if (replay && body && nodeHttp) {
    lines.push(
      `- the cached page's answer, split: its body alone (with content-type, -length and -encoding) is ` +
        `${(body.rps / nodeHttp.rps).toFixed(2)}× node:http; its other headers (security, cache, tags, id) take it ` +
        `to ${(replay.rps / nodeHttp.rps).toFixed(2)}×`,
    );
  }
  return lines.join("\n");
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
- Load: autocannon, ${load}; GET except the SOP trigger, which POSTs a freshly signed body each time, and the
  cart validation, which POSTs one 5-line cart
- SSR rows ("uncached") add \`${BYPASS}\`, a query parameter no page declares, so the page cache lets them through
  (the contract's \`Atrium-Cache-Vary-Query\`): they measure rendering. The cached row requests the bare path.

${table}

Goals (issues 15 and 17):

${options.goals}

Ratios, not absolute numbers, are what to compare across machines and runs: requests/s depends on the CPU, the
load generator sharing that CPU, and whatever else the machine is doing, while each ratio divides by a baseline
measured moments earlier under the same conditions. The baselines are the shared reference servers in
\`../shared/perf\`, not Atrium. "ratio vs node:http" is the share of a plain Node server's throughput (a fixed page
of about 2 KB with two headers) that an endpoint keeps. A cached page is also compared with plain node:http sending
that page's recorded answer (its 3–4 KB compressed body and its ~20 security, cache and id headers): most of the
gap to the reference is that answer (Node writing ~20 headers, and the load generator on the same two cores reading
them and the body), and the second replay, with the body alone, tells the headers' share from the body's. "ratio vs bare Remix route" (resource routes, against the reference's \`/api/live\`)
and "ratio vs bare Remix page" (the public page, against the reference's server-rendered \`/demo\`) show what Atrium
costs on top of Express and Remix with nothing else: its middleware, bootstrap and the endpoint's own work; the
liveness row is that pipeline alone. Latencies are whole milliseconds (autocannon's histogram resolution; 0 means
under 1 ms). Regenerate with \`npm run bench\`.
`;
}

// ---------------------------------------------------------------------------------------------------------------
// Reads during saves: no read that starts after a save has answered may show the content before it (issue 15).

/**
 * `readers` loops read a public page for `seconds` while, every `saveEveryMs`, the demo operator saves the page's
 * text through the editor API (`PUT /api/editor/pages/{id}`, then `POST …/publish`: the module functions the
 * console calls) with a new revision number in it. A read is stale when it started after the publish of revision
 * n had answered and shows a revision below n. Reads that overlap a save may show either.
 */
const MIXED = { seconds: 10, readers: 20, saveEveryMs: 1_000 };
const MIXED_HEADING = "## Reads during saves";

async function measureMixed({ baseUrl }) {
  const session = await consoleSession(baseUrl);
  const call = async (method, path, body) => {
    const response = await fetch(baseUrl + path, {
      method,
      headers: {
        cookie: session.cookie(),
        origin: baseUrl,
        "sec-fetch-site": "same-origin",
        "content-type": "application/json",
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : {};
  };
  const page = await call("POST", "/api/editor/pages", {
    title: "Bench reads during saves",
    slug: "bench-mixed",
    description: "",
    inNavigation: false,
  });
  let revision = 0;
  const save = async () => {
    revision += 1;
    await call("PUT", `/api/editor/pages/${page.id}`, {
      title: "Bench reads during saves",
      slug: "bench-mixed",
      description: "",
      blocks: [{ type: "richText", markdown: `The bench's text, bench-rev-${revision}-end.` }],
    });
    await call("POST", `/api/editor/pages/${page.id}/publish`);
    return revision;
  };
  await save();
  const url = `${baseUrl}/harbor-bakery/bench-mixed`;
  const revisionOf = (body) => Number(/bench-rev-(\d+)-end/.exec(body)?.[1] ?? NaN);
  const first = await fetch(url);
  if (first.status !== 200 || revisionOf(await first.text()) !== 1) throw new Error(`${url} does not show the page`);

  process.stdout.write(`reads during saves (${MIXED.readers} readers, a save every ${MIXED.saveEveryMs} ms)… `);
  const published = []; // { revision, at }: the publish of `revision` had answered at `at`
  const reads = []; // { started, revision, hit }
  const until = performance.now() + MIXED.seconds * 1000;
  let failures = 0;
  const reader = async () => {
    while (performance.now() < until && !interrupted) {
      const started = performance.now();
      try {
        const response = await fetch(url);
        const body = await response.text();
        if (response.status !== 200) failures += 1;
        else reads.push({ started, revision: revisionOf(body), hit: isHit(response) });
      } catch {
        failures += 1;
      }
    }
  };
  const saver = async () => {
    while (performance.now() + MIXED.saveEveryMs < until && !interrupted) {
      await sleep(MIXED.saveEveryMs);
      const saved = await save();
      published.push({ revision: saved, at: performance.now() });
    }
  };
  await Promise.all([saver(), ...Array.from({ length: MIXED.readers }, reader)]);
  const latestBefore = (started) => {
    let latest = 1;
    for (const p of published) if (p.at <= started) latest = p.revision;
    return latest;
  };
  const stale = reads.filter((read) => !(read.revision >= latestBefore(read.started))).length;
  const result = {
    reads: reads.length,
    perSecond: reads.length / MIXED.seconds,
    hits: reads.filter((read) => read.hit).length,
    saves: published.length,
    stale,
    failures,
  };
  console.log(`${result.reads} reads, ${result.saves} saves, stale reads: ${result.stale}`);
  return result;
}

function mixedSection(result) {
  const table = markdownTable(
    ["reads", "reads/s", "page-cache hits", "saves", "failed reads", "stale reads"],
    [
      [
        String(result.reads),
        String(Math.round(result.perSecond)),
        `${result.hits} (${((100 * result.hits) / Math.max(1, result.reads)).toFixed(0)} %)`,
        String(result.saves),
        String(result.failures),
        String(result.stale),
      ],
    ],
    [true, true, true, true, true, true],
  );
  return `${MIXED_HEADING}

- Date: ${new Date().toISOString()}
- ${MIXED.readers} loops read \`/harbor-bakery/bench-mixed\` (a page made for the run, one rich-text block) for
  ${MIXED.seconds} s while the demo operator saves and publishes a new text every ${MIXED.saveEveryMs / 1000} s through
  the editor API (\`PUT /api/editor/pages/{id}\`, \`POST …/publish\`: the module functions the console calls). A read
  is stale when it started after a publish had answered and shows an older text. Hits are answers with an \`Age\`
  header (the page cache's).

${table}

${result.stale === 0 ? "No stale read." : `**${result.stale} stale reads**: a save did not reach the next read.`}
`;
}

// ---------------------------------------------------------------------------------------------------------------
// Fairness: one workspace's run while another workspace has a backlog of slow runs (ADR 010, "Jobs").

/**
 * Workspace A queues `backlog` runs whose one step calls a loopback endpoint answering after `slowMs`; workspace B
 * then triggers one run whose step answers at once. B's latency runs from sending its trigger to reading its run
 * as succeeded. Measured `alone` times with nothing else queued, then `rounds` times behind A's backlog (each
 * round waits for A's runs to finish). About 10 s per round with the defaults; loopback only.
 */
const FAIRNESS = { backlog: 12, slowMs: 1_000, alone: 5, rounds: 3, pollMs: 5 };
const FAIRNESS_HEADING = "## One workspace's run behind another's backlog";

/**
 * The SOPs' step target, on loopback: `/slow` answers after FAIRNESS.slowMs, anything else at once. HTTPS, because
 * a production server calls only https: URLs: a certificate for 127.0.0.1 made with openssl for this run, which
 * Atrium trusts through NODE_EXTRA_CA_CERTS (`caFile`).
 */
async function startStepTarget() {
  const dir = mkdtempSync(join(os.tmpdir(), "atrium-bench-target-"));
  tempDirs.add(dir);
  const [keyFile, caFile] = [join(dir, "key.pem"), join(dir, "cert.pem")];
  const made = spawnSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"].concat([
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      keyFile,
      "-out",
      caFile,
    ]),
    { encoding: "utf8" },
  );
  if (made.status !== 0) throw new Error(`openssl could not make the step target's certificate:\n${made.stderr}`);
  const server = createHttpsServer({ key: readFileSync(keyFile), cert: readFileSync(caFile) }, (request, response) => {
    request.resume();
    request.on("end", () => {
      const answer = () => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end("{}");
      };
      if (request.url.startsWith("/slow")) setTimeout(answer, FAIRNESS.slowMs);
      else answer();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `https://127.0.0.1:${server.address().port}`,
    caFile,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A workspace of the demo operator with one SOP (one `http_request` step to `url`) and its trigger. */
async function fairnessWorkspace(session, name, url) {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const created = await session.post("/?index", { intent: "create", name, slug });
  if (created.status !== 302) throw new Error(`could not create the workspace ${name}: ${created.status}`);
  const sop = await session.post("/settings/sops?index", { name, slug: `${slug}-sop`, description: "" });
  const id = /\/settings\/sops\/([0-9A-Z]{26})/.exec(sop.headers.get("location") ?? "")?.[1];
  if (!id) throw new Error(`could not create the SOP of ${name}: ${sop.status}`);
  const saved = await session.post(`/settings/sops/${id}`, {
    intent: "save",
    name,
    slug: `${slug}-sop`,
    description: "",
    callbackUrl: "",
    "step.0.type": "http_request",
    "step.0.method": "POST",
    "step.0.url": url,
    "step.0.body": "{}",
  });
  if (saved.status !== 200) throw new Error(`could not save the steps of ${name}: ${saved.status}`);
  const page = await (await session.post(`/settings/sops/${id}`, { intent: "create-trigger" })).text();
  const secret = /data-testid="trigger-secret">([^<]+)</.exec(page)?.[1];
  if (!secret) throw new Error(`no trigger secret for ${name}`);
  return { id, sign: signer(secret) };
}

async function fire(baseUrl, sop) {
  const { body, headers } = sop.sign();
  const response = await fetch(`${baseUrl}/api/sops/${sop.id}/trigger`, { method: "POST", headers, body });
  const answer = await response.json();
  if (response.status !== 202) throw new Error(`a trigger answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer.statusUrl;
}

async function runStatus(baseUrl, session, statusUrl) {
  const response = await fetch(baseUrl + statusUrl, { headers: { cookie: session.cookie() } });
  if (response.status !== 200) throw new Error(`${statusUrl} answered ${response.status}`);
  return (await response.json()).status;
}

/** Milliseconds from B's trigger to its run read as succeeded. */
async function latencyOfB(baseUrl, session, sopB) {
  const started = performance.now();
  const statusUrl = await fire(baseUrl, sopB);
  for (;;) {
    const status = await runStatus(baseUrl, session, statusUrl);
    if (status === "succeeded") return performance.now() - started;
    if (status === "failed") throw new Error(`B's run failed: ${statusUrl}`);
    if (performance.now() - started > 60_000) throw new Error("B's run did not finish within a minute");
    await sleep(FAIRNESS.pollMs);
  }
}

async function waitForRuns(baseUrl, session, statusUrls) {
  const deadline = Date.now() + 120_000;
  for (const statusUrl of statusUrls) {
    while ((await runStatus(baseUrl, session, statusUrl)) !== "succeeded") {
      if (Date.now() > deadline) throw new Error(`A's run ${statusUrl} did not finish`);
      await sleep(50);
    }
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function measureFairness() {
  const target = await startStepTarget();
  // Its own server and database: the load targets' runs must not be in the queue.
  const atrium = await startAtrium({ OUTBOUND_ALLOW_PRIVATE: "true", NODE_EXTRA_CA_CERTS: target.caFile });
  try {
    const session = await consoleSession(atrium.baseUrl);
    const sopA = await fairnessWorkspace(session, "Bench A", `${target.url}/slow`);
    const sopB = await fairnessWorkspace(session, "Bench B", `${target.url}/fast`);
    process.stdout.write("fairness: B alone… ");
    const alone = [];
    for (let i = 0; i < FAIRNESS.alone; i++) alone.push(await latencyOfB(atrium.baseUrl, session, sopB));
    process.stdout.write(`B behind A's ${FAIRNESS.backlog} slow runs… `);
    const behind = [];
    for (let round = 0; round < FAIRNESS.rounds; round++) {
      const backlog = [];
      for (let i = 0; i < FAIRNESS.backlog; i++) backlog.push(await fire(atrium.baseUrl, sopA));
      behind.push(await latencyOfB(atrium.baseUrl, session, sopB));
      await waitForRuns(atrium.baseUrl, session, backlog);
    }
    const result = { alone: median(alone), behind: median(behind), concurrency: 2 };
    console.log(`${Math.round(result.alone)} ms alone, ${Math.round(result.behind)} ms behind the backlog`);
    return result;
  } finally {
    await stopChild(atrium.child);
    await target.close();
  }
}

function fairnessSection(result) {
  const { backlog, slowMs, alone, rounds } = FAIRNESS;
  const ms = (value) => String(Math.round(value));
  const fifo = Math.ceil(backlog / result.concurrency) * slowMs;
  const table = markdownTable(
    ["B's one-step run", "runs", "latency, median ms", "ratio vs B alone"],
    [
      ["alone", String(alone), ms(result.alone), "1.00"],
      [
        `behind A's ${backlog} runs of ${slowMs} ms`,
        String(rounds),
        ms(result.behind),
        (result.behind / result.alone).toFixed(2),
      ],
      [
        "(a single FIFO queue would make it wait for all of A's runs: computed)",
        "–",
        `≈ ${fifo}`,
        (fifo / result.alone).toFixed(2),
      ],
    ],
    [false, true, true, true],
  );
  return `${FAIRNESS_HEADING}

- Date: ${new Date().toISOString()}
- Workspace A queues ${backlog} runs whose one step calls a loopback endpoint answering after ${slowMs} ms; workspace B
  then triggers one run whose step answers at once. Latency: from sending B's trigger to reading its run as succeeded
  (polled every ${FAIRNESS.pollMs} ms), on one node with the default 2 job slots. Not a throughput measure: no ratio
  to the reference applies.

${table}

Claims are fair across workspaces (ADR 010, "Jobs"): B's run takes the first slot that frees, ahead of A's older
runs. A running job is never interrupted, so behind the backlog B waits for the first of A's runs in hand to
finish: about one slow step (${slowMs} ms here), not the whole backlog. Regenerate this section alone with
\`BENCH_ONLY=fairness npm run bench\`.
`;
}

/** Replaces the fairness section of RESULTS.md (or appends it), leaving the load results as they are. */
// ---------------------------------------------------------------------------------------------------------------
// Route table size (issue 15, ADR 028): the same build with BENCH_EXTRA_ROUTES more routes, side by side.

const ROUTES_HEADING = "## Route table size";
const SHOP_HEADING = "## Shop (issue 17)";
const BOOKINGS_HEADING = "## Bookings (issue 19)";

/**
 * The three baselines, then `targets` on one Atrium, in one run: the results (a failure if any pass was not
 * clean), their table and goal lines. What a section of its own (`BENCH_ONLY=shop`, `bookings`) measures.
 */
async function measureTargets(options, targets) {
  prepareReference();
  options.busyBefore = await cpuBusyPercent(1_000);
  const results = [];
  const nodeHttp = await startReference("node-http.mjs", BASELINES.nodeHttp.path);
  try {
    results.push(await measure(BASELINES.nodeHttp, nodeHttp, options));
  } finally {
    await stopChild(nodeHttp.child);
  }
  const bareRemix = await startReference("server.mjs", BASELINES.route.path);
  try {
    for (const baseline of [BASELINES.route, BASELINES.page]) results.push(await measure(baseline, bareRemix, options));
  } finally {
    await stopChild(bareRemix.child);
  }
  const atrium = await startAtrium(SHOP_ENV);
  try {
    for (const target of targets) results.push(await measure(target, atrium, options));
  } finally {
    await stopChild(atrium.child);
  }
  const failed = results.filter((r) => r.problems.length > 0);
  if (failed.length > 0) {
    throw new Error(
      `The measured pass was not clean:\n${failed.map((r) => `- ${r.name}: ${r.problems.join("; ")}`).join("\n")}`,
    );
  }
  const table = resultsTable(results);
  console.log(`\n${table}\n`);
  const goals = goalLines(results);
  console.log(goals);
  return { table, goals };
}

/**
 * The shop's two targets with the three baselines measured in the same run, as their own section (a full run
 * also has them in the main table). `BENCH_ONLY=shop npm run bench`.
 */
async function measureShop(options) {
  const { table, goals } = await measureTargets(options, SHOP_TARGETS);
  return `${SHOP_HEADING}

- Date: ${new Date().toISOString()}
- CPU busy just before the run: ${options.busyBefore.toFixed(0)} %
- Load: autocannon, ${options.connections} connections, ${options.duration} s per target after a ${options.warmup} s warm-up;
  the baselines measured moments before, in the same run. The "uncached" product page is rendered (\`${BYPASS}\`
  skips the page cache; its frame, profile and product come from the tagged memo, ADR 031, as every render's do);
  the "cached" row is the same page as visitors get it, a page-cache hit; the cart validation POSTs one 5-line cart
  (five variants, a coupon, a UK address and a delivery rate), the customer API's limiter on with its per-address
  allowance raised for the run.

${table}

Goals (issue 17):

${goals}

Regenerate this section alone with \`BENCH_ONLY=shop npm run bench\`.
`;
}

/**
 * The availability target with the three baselines measured in the same run, as its own section (a full run also
 * has it in the main table). `BENCH_ONLY=bookings npm run bench`.
 */
async function measureBookings(options) {
  const { table, goals } = await measureTargets(options, BOOKING_TARGETS);
  return `${BOOKINGS_HEADING}

- Date: ${new Date().toISOString()}
- CPU busy just before the run: ${options.busyBefore.toFixed(0)} %
- Load: autocannon, ${options.connections} connections, ${options.duration} s per target after a ${options.warmup} s warm-up;
  the baselines measured moments before, in the same run. The target asks one service's free times over 14 days
  (${BENCH_DAYS.from} to ${BENCH_DAYS.to}, 672 half-hour slots) with 200 confirmed bookings on them. The times are
  computed once (the service, its staff member's hours and the bookings read, each slot through the Temporal
  polyfill: about 0.5 ms) and remembered in the tagged memo until a booking or setup change purges them or 30 s
  pass; each request applies the notice and writes the answer (the slot lists' JSON is made once too). The answer
  is \`private, no-store\`: no page cache. The customer API's limiter is on, its per-address allowance raised for
  the run; its per-request SQLite upsert is the largest cost left in the route's profile (the same for every
  \`/api/v1\` call).

${table}

Goals (issue 19):

${goals}

Regenerate this section alone with \`BENCH_ONLY=bookings npm run bench\`.
`;
}

// ---------------------------------------------------------------------------------------------------------------
// Chat (issue 20): time to the first byte and to `[DONE]` of one-question chats on the default (offline) engine,
// over a workspace of 500 pages and 500 products, against the bare Remix resource route at the same concurrency.

const CHAT_HEADING = "## Chat (issue 20)";

/**
 * What the chat target asks, in turn: each about one of the seeded pages' topics, with the page its answer must cite
 * (checked on every answer, so a fast wrong answer fails the run instead of flattering it). Eight questions and a
 * new conversation per request: no answer can be remembered from one request to the next.
 */
const CHAT_QUESTIONS = [
  { text: "How deep should I sow chilli seeds?", cites: "Growing chillies from seed" },
  { text: "How often should I water cucumbers?", cites: "Watering cucumbers" },
  { text: "Which pests attack roses?", cites: "Pests and diseases of roses" },
  { text: "When should I prune wisteria?", cites: "Pruning wisteria" },
  { text: "How do I take lavender cuttings?", cites: "Propagating lavender" },
  { text: "How far apart should I plant garlic?", cites: "Planting garlic" },
  { text: "Which raspberry variety is best for a small garden?", cites: "Choosing raspberry varieties" },
  { text: "What should I feed dahlias with?", cites: "Feeding dahlias" },
];

/**
 * The chat section's bounds. Connections: a fixed, modest concurrency (issue 20), the same for the baselines and the
 * chat, whatever BENCH_CONNECTIONS says for autocannon's sections. Every chat message counts against the account's
 * daily allowance of its plan (Enterprise: 10,000 in 24 hours, `chatMessagesPerDay`, not raised by
 * `users:set-limits`), so the chat passes are bounded in count as well as in time, and the whole section stays
 * under it (`CHAT_MESSAGES`, below). A pass that reaches its count stops early and says so; requests/s is always
 * over the pass's own elapsed time.
 */
const CHAT = {
  connections: 10,
  maxRequests: 4_000,
  warmupMax: 800,
  baselineMax: 1_000_000,
  alone: 5,
  rebuilds: 3,
  timeoutMs: 30_000,
  goal: 2,
};
/** Every chat message of the section: the first, the preflight, the lone ones, the rebuilds, and two passes. */
const CHAT_MESSAGES =
  1 + CHAT_QUESTIONS.length + 2 * CHAT.alone + CHAT.rebuilds + 2 * (CHAT.warmupMax + CHAT.maxRequests);
if (CHAT_MESSAGES >= 10_000) throw new Error("the chat section's bounds exceed the Enterprise plan's daily allowance");

/**
 * The same route answering without the index: a greeting, which the offline engine answers from its plan (no tool,
 * no search). Beside the question, it splits a chat's cost into the route's own (bearer, limiter, workspace,
 * allowance, the conversation's reads and writes, the stream) and the search's.
 */
const CHAT_GREETING = { text: "Hello", greeting: true };

/**
 * One request on `agent`, timed on the monotonic clock from just before it is written: to its response headers,
 * its first body byte (the first chunk the socket delivers), the chunk that completes `data: [DONE]` when the answer
 * has one, and its end. The body is kept (a few KB) for the checks.
 */
function timedRequest(agent, url, { method = "GET", headers = {}, body } = {}) {
  return new Promise((resolvePromise, reject) => {
    const sent = body === undefined ? headers : { ...headers, "content-length": Buffer.byteLength(body) };
    const started = performance.now();
    const req = httpRequest(url, { method, headers: sent, agent, timeout: CHAT.timeoutMs }, (res) => {
      const headersMs = performance.now() - started;
      let firstByteMs;
      let doneMs;
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        const at = performance.now() - started;
        firstByteMs ??= at;
        // Only the new chunk and the end of the last can hold the frame (it may arrive split).
        const tail = text.slice(-16) + chunk;
        text += chunk;
        if (doneMs === undefined && tail.includes("data: [DONE]")) doneMs = at;
      });
      res.on("end", () => {
        const endMs = performance.now() - started;
        resolvePromise({
          status: res.statusCode,
          headers: res.headers,
          headersMs,
          firstByteMs: firstByteMs ?? endMs,
          doneMs,
          endMs,
          text,
        });
      });
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within ${CHAT.timeoutMs} ms`)));
    req.on("error", reject);
    req.end(body);
  });
}

/** CPU time (ms) a process has used, from /proc (Linux; NaN elsewhere): user + system, in 100 Hz ticks. */
function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * Starts measuring where the machine's CPU goes; the function it returns says, as shares of all cores, how busy they
 * were, and how much of it was the server (`pid`), this process (the load generator), and everything else.
 */
function cpuMeter(pid) {
  const machine = () =>
    os.cpus().reduce(
      (acc, { times }) => ({
        all: acc.all + times.user + times.nice + times.sys + times.idle + times.irq,
        idle: acc.idle + times.idle,
      }),
      { all: 0, idle: 0 },
    );
  const before = { machine: machine(), server: processCpuMs(pid), client: process.cpuUsage() };
  return () => {
    const after = machine();
    const all = after.all - before.machine.all;
    const share = (ms) => (all > 0 ? (100 * ms) / all : NaN);
    const busy = share(all - (after.idle - before.machine.idle));
    const serverMs = processCpuMs(pid) - before.server;
    const server = share(serverMs);
    const used = process.cpuUsage(before.client);
    const client = share((used.user + used.system) / 1000);
    return { busy, server, client, other: Math.max(0, busy - server - client), serverMs };
  };
}

/**
 * A closed loop of `connections` clients on one keep-alive agent: each sends `request(n)`, waits for the whole
 * answer, and sends the next, until `seconds` pass or `maxRequests` were sent. `check` names what is wrong with an
 * answer (or returns nothing); wrong answers and errors are counted, never timed.
 */
async function closedLoop(url, { agent, connections, seconds, maxRequests, request, check, pid }) {
  if (interrupted) throw new Error("interrupted");
  const samples = [];
  const problems = new Map();
  const count = (problem) => problems.set(problem, (problems.get(problem) ?? 0) + 1);
  let sent = 0;
  const meter = pid ? cpuMeter(pid) : undefined;
  const started = performance.now();
  const until = started + seconds * 1000;
  const client = async () => {
    while (!interrupted && sent < maxRequests && performance.now() < until) {
      const n = sent++;
      try {
        const answer = await timedRequest(agent, url, request(n));
        const problem = check(answer, n);
        if (problem) count(problem);
        else samples.push(answer);
      } catch (error) {
        count(error.code ?? error.message);
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, client));
  const elapsed = (performance.now() - started) / 1000;
  if (interrupted) throw new Error("interrupted");
  return { samples, problems, sent, elapsed, cappedByCount: sent >= maxRequests, cpu: meter?.() };
}

/** The value at percentile `p` (nearest rank) of `values`. */
function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
}

const statsOf = (values) => ({ p50: percentile(values, 50), p90: percentile(values, 90), p99: percentile(values, 99) });

/**
 * One target with the same client: a warm-up pass (thrown away), then the measured pass. `end` picks the time that
 * completes an answer: `[DONE]` for the chat, the response's end for the baselines.
 */
async function measureClosed(target, server, options, { request, check, end, maxRequests, warmupMax }) {
  const url = server.baseUrl + target.path;
  const agent = new HttpAgent({ keepAlive: true, maxSockets: CHAT.connections });
  try {
    process.stdout.write(`${target.name} (${target.method ?? "GET"} ${target.path}): `);
    const loop = { agent, connections: CHAT.connections, request, check, pid: server.child.pid };
    if (options.warmup > 0) {
      process.stdout.write("warm-up… ");
      await closedLoop(url, { ...loop, seconds: options.warmup, maxRequests: warmupMax });
    }
    process.stdout.write("measuring… ");
    // On the monotonic clock V8's CPU profiles use, so a profile can be cut to the measured pass.
    const fromUs = process.hrtime.bigint() / 1000n;
    const pass = await closedLoop(url, { ...loop, seconds: options.duration, maxRequests });
    const window = { fromUs: Number(fromUs), toUs: Number(process.hrtime.bigint() / 1000n) };
    const rps = pass.samples.length / pass.elapsed;
    console.log(`${Math.round(rps)} req/s`);
    const problems = [...pass.problems].map(([problem, n]) => `${n} × ${problem}`);
    if (pass.samples.length === 0) problems.push("no answer at all");
    if (server.child.exitCode !== null || server.child.signalCode !== null)
      problems.push(`the server exited:\n${server.child.output()}`);
    return {
      name: target.name,
      server: target.server ?? "Atrium",
      path: target.path,
      method: target.method ?? "GET",
      requests: pass.samples.length,
      elapsed: pass.elapsed,
      cappedByCount: pass.cappedByCount,
      rps,
      firstByte: statsOf(pass.samples.map((s) => s.firstByteMs)),
      headers: statsOf(pass.samples.map((s) => s.headersMs)),
      end: statsOf(pass.samples.map(end)),
      cpu: pass.cpu,
      window,
      problems,
    };
  } finally {
    agent.destroy();
  }
}

/** What any baseline answer must be: a 200. */
const answered = (answer) => (answer.status === 200 ? undefined : `HTTP ${answer.status}`);

/**
 * A copy of the current build to run the chat section from (`build/`, the launcher, package.json, the demo's
 * images, and node_modules linked): other work in the tree (a test run, \`npm run build\`) rebuilds build/ in place, and a server
 * or an admin command started while it is half written finds no build. Taken once build/ is complete, and again if
 * a rebuild finished while it was being copied. Returns the copy's directory and the build's time.
 */
async function snapshotBuild() {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (existsSync(STAMP) && existsSync(join(ROOT, "build", "server.js"))) {
      const stamp = statSync(STAMP).mtimeMs;
      const dir = mkdtempSync(join(os.tmpdir(), "atrium-bench-build-"));
      tempDirs.add(dir);
      try {
        cpSync(join(ROOT, "build"), join(dir, "build"), { recursive: true });
        mkdirSync(join(dir, "scripts"));
        for (const name of ["launch.mjs", "build-state.mjs"])
          cpSync(join(ROOT, "scripts", name), join(dir, "scripts", name));
        cpSync(join(ROOT, "package.json"), join(dir, "package.json"));
        // The demo seed's images, which the server reads at start.
        cpSync(join(ROOT, "db", "demo-assets"), join(dir, "db", "demo-assets"), { recursive: true });
        symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
        if (existsSync(STAMP) && statSync(STAMP).mtimeMs === stamp && existsSync(join(dir, "build", ".stamp"))) {
          // The copy's own launcher must find its build current, though its db/ is newer than the stamp it copied:
          // the stamp is set a little ahead (the file system's clock and Date.now() may differ by a millisecond).
          const ahead = new Date(Date.now() + 2_000);
          utimesSync(join(dir, "build", ".stamp"), ahead, ahead);
          return { dir, builtAt: new Date(stamp).toISOString() };
        }
      } catch {
        // A rebuild removed files while they were being copied: take the next complete build.
      }
    }
    if (Date.now() > deadline) throw new Error("build/ was not complete for two minutes: is a build failing?");
    await sleep(1_000);
  }
}

/** The 500 pages and 500 products, written by bench/chat-seed.ts through the module functions (tsx). */
function seedChatWorkspace({ databaseUrl }) {
  const started = performance.now();
  const run = spawnSync(join(ROOT, "node_modules", ".bin", "tsx"), ["bench/chat-seed.ts"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, BENCH_OWNER: "demo@atrium.test" },
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`bench/chat-seed.ts failed:\n${run.stderr}`);
  const seeded = JSON.parse(run.stdout.trim().split("\n").pop());
  return { ...seeded, seconds: (performance.now() - started) / 1000 };
}

/** The chat request `DefaultChatTransport` sends: a new conversation (`id`) with one user message. */
function chatRequest(key, slug, question, id) {
  return {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      id,
      messages: [{ id: `${id}-q`, role: "user", parts: [{ type: "text", text: question.text }] }],
      trigger: "submit-message",
      workspace: slug,
    }),
  };
}

/**
 * What is wrong with a chat answer: not a stream, not ended by `[DONE]`, or not citing the page it should (a
 * greeting: not greeting back).
 */
function chatProblem(answer, question) {
  if (answer.status !== 200) return `HTTP ${answer.status}: ${answer.text.slice(0, 200)}`;
  if (!String(answer.headers["content-type"]).startsWith("text/event-stream")) return "not text/event-stream";
  if (answer.doneMs === undefined || !answer.text.trimEnd().endsWith("data: [DONE]")) return "no [DONE] at the end";
  if (question.greeting) return answer.text.includes('"delta":"Hello!') ? undefined : "no greeting";
  if (!answer.text.includes(`"title":${JSON.stringify(question.cites)}`)) return `no citation of “${question.cites}”`;
  return undefined;
}

/** The stream's first `source-url`, for a preflight's message when it cites the wrong page. */
function firstSource(text) {
  for (const frame of text.split("\n\n")) {
    if (!frame.startsWith("data: {")) continue;
    const chunk = JSON.parse(frame.slice(6));
    if (chunk.type === "source-url") return chunk.title;
  }
  return "nothing";
}

/**
 * The seeded workspace's operator in the console, with that workspace chosen: `publish` republishes a page through
 * the editor API (`POST /api/editor/pages/{id}/publish`, the module function the console calls), which purges the
 * page's tags, and so the workspace's content index with them.
 */
async function chatPublisher(baseUrl, workspaceId) {
  const session = await consoleSession(baseUrl);
  const chosen = await session.post("/?index", { intent: "select", workspaceId });
  if (chosen.status >= 400) throw new Error(`could not open the chat workspace in the console: ${chosen.status}`);
  return async (pageId) => {
    const response = await fetch(`${baseUrl}/api/editor/pages/${pageId}/publish`, {
      method: "POST",
      headers: { cookie: session.cookie(), origin: baseUrl, "sec-fetch-site": "same-origin" },
    });
    const text = await response.text();
    if (response.status !== 200)
      throw new Error(`republishing ${pageId} answered ${response.status}: ${text.slice(0, 300)}`);
  };
}

async function measureChat(options) {
  prepareReference();
  options.busyBefore = await cpuBusyPercent(1_000);
  const results = [];
  const baselines = [
    ["node-http.mjs", { ...BASELINES.nodeHttp }],
    ["server.mjs", { ...BASELINES.route }],
  ];
  for (const [script, target] of baselines) {
    const reference = await startReference(script, target.path);
    try {
      results.push(
        await measureClosed(target, reference, options, {
          request: () => ({}),
          check: answered,
          end: (s) => s.endMs,
          maxRequests: CHAT.baselineMax,
          warmupMax: CHAT.baselineMax,
        }),
      );
    } finally {
      await stopChild(reference.child);
    }
  }

  const profileDir = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;
  const nodeArgs = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  const build = await snapshotBuild();
  options.builtAt = build.builtAt;
  const atrium = await startAtrium({}, build.dir, nodeArgs);
  const single = {};
  let seeded;
  try {
    const key = benchKey(atrium);
    process.stdout.write("chat: seeding 500 pages and 500 products… ");
    seeded = seedChatWorkspace(atrium);
    console.log(`${seeded.seconds.toFixed(1)} s (${seeded.wordsPerPage} words a page on average)`);
    const url = `${atrium.baseUrl}/api/chat/v5`;
    const agent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
    let conversation = 0;
    const ask = async (question) => {
      const answer = await timedRequest(agent, url, chatRequest(key, seeded.slug, question, `bench-${++conversation}`));
      const problem = chatProblem(answer, question);
      if (problem) {
        throw new Error(
          `“${question.text}” was not answered as it should be (${problem}; its first source: ${firstSource(answer.text)})`,
        );
      }
      return answer;
    };
    try {
      // The very first chat request of the process: the route's first run and the index built from the database.
      single.first = await ask(CHAT_QUESTIONS[0]);
      // The preflight: every question once, each citing its page.
      for (const question of CHAT_QUESTIONS.slice(1)) await ask(question);
      single.alone = [];
      for (let i = 0; i < CHAT.alone; i++) single.alone.push(await ask(CHAT_QUESTIONS[i % CHAT_QUESTIONS.length]));
      single.greeting = [];
      for (let i = 0; i < CHAT.alone; i++) single.greeting.push(await ask(CHAT_GREETING));
    } finally {
      agent.destroy();
    }

    // The ladder, each at the same concurrency with the same client: the token API alone (bearer and limiter, the
    // floor of any call with this key), the chat route without a search (a greeting), and the question.
    results.push(
      await measureClosed({ name: "token API floor (valid key, limiter on)", path: "/api/auth/me" }, atrium, options, {
        request: () => ({ headers: { authorization: `Bearer ${key}` } }),
        check: answered,
        end: (s) => s.endMs,
        maxRequests: CHAT.baselineMax,
        warmupMax: CHAT.baselineMax,
      }),
    );
    const chatPass = (name, questionOf) =>
      measureClosed({ name, path: "/api/chat/v5", method: "POST" }, atrium, options, {
        request: (n) => chatRequest(key, seeded.slug, questionOf(n), `bench-${++conversation}`),
        check: (answer, n) => chatProblem(answer, questionOf(n)),
        end: (s) => s.doneMs,
        maxRequests: CHAT.maxRequests,
        warmupMax: CHAT.warmupMax,
      });
    results.push(await chatPass("chat, a greeting (no search: the route's own cost)", () => CHAT_GREETING));
    results.push(
      await chatPass("chat, one question (offline engine)", (n) => CHAT_QUESTIONS[n % CHAT_QUESTIONS.length]),
    );

    // After a publish, the next question rebuilds the index on a warm process: what each publish costs the next
    // question.
    const publish = await chatPublisher(atrium.baseUrl, seeded.workspaceId);
    const rebuilt = [];
    const lone = new HttpAgent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < CHAT.rebuilds; i++) {
        await publish(seeded.republish);
        const question = CHAT_QUESTIONS[(i + 1) % CHAT_QUESTIONS.length];
        const answer = await timedRequest(
          lone,
          url,
          chatRequest(key, seeded.slug, question, `bench-${++conversation}`),
        );
        const problem = chatProblem(answer, question);
        if (problem) throw new Error(`after a republish, “${question.text}”: ${problem}`);
        rebuilt.push(answer);
      }
    } finally {
      lone.destroy();
    }
    single.rebuilt = rebuilt;
  } finally {
    await stopChild(atrium.child);
  }

  // The Atrium passes' windows, for bench/profile-summary.mjs to keep only the samples of one of them.
  if (profileDir) {
    mkdirSync(profileDir, { recursive: true });
    const [floor, greeting, question] = results.slice(2).map((r) => r.window);
    writeFileSync(join(profileDir, "chat-window.json"), JSON.stringify({ floor, greeting, question }));
  }
  const failed = results.filter((r) => r.problems.length > 0);
  if (failed.length > 0) {
    throw new Error(
      `The measured pass was not clean:\n${failed.map((r) => `- ${r.name}: ${r.problems.join("; ")}`).join("\n")}`,
    );
  }
  const section = chatSection(results, single, seeded, options, profileDir);
  console.log(`\n${section}`);
  return section;
}

/**
 * What the profile said when this section was added (`BENCH_CPU_PROF`, `node bench/profile-summary.mjs`); shares of
 * the server's busy time in each pass. Written by hand: profile again and restate it when the route changes.
 */
const CHAT_PROFILE_NOTE = `Where the time went (profiles of 2026-12-06; shares of the server's CPU in each pass):

- The first byte is the refusals' cost: the route answers \`start\` as soon as the key, the limits, the body, the
  workspace and the plan are checked, and stores the question and searches after it. (The section's first run, with
  the question stored and searched before the first write, had the first byte arrive with \`[DONE]\`: 85 ms at p50,
  30× the bare route; storing and searching after \`start\`, and reading each document once, brought it to the figure
  above.) Under load a first byte still waits behind the other connections' searches: one thread does both.
- A question's search was 45 % of its CPU in that first profile (about 4 ms): re-reading the 13 documents it reads
  into sentences and stems on every question, 16 % (now read once and remembered: \`unitsOf\`); MiniSearch with
  prefix and fuzzy matching on every word, 13 %; the scans of the whole vocabulary for words that start with each
  asked word (\`saying\`), 9 %; the output's second search and its excerpts, 8 %; garbage collection, 12 %.
- The route without the search (a greeting, about 3 ms an answer): SQL through Kysely and better-sqlite3, about
  20 % (the key, the limiter's and the daily allowance's upserts, the workspace, the conversation read and saved
  before and after the answer); one socket write per frame, 12 %; the AI SDK's streams (the answer is teed to be
  stored), about 10 %; Express and Remix, about 10 %; ULIDs, 3 %; garbage collection, 7.5 %.
- The index: built in one synchronous block of about 220 ms (MiniSearch's \`addAll\` about 150 ms, the postings
  about 70 ms) on the first question, and again on the first question after anything that purges one of its
  tags (a page published, a product saved, the site's settings); the event loop serves nothing else meanwhile.

What is left, in order of what it would give: the search off the event loop (a worker per workspace's index, or the
index built in slices with the old one kept until the new is ready); \`saying\`'s vocabulary scans remembered per
query or made on a sorted vocabulary; fuzzy matching only when exact and prefix matching find too little; the
conversation read once per turn. The token API's own floor (the row above: a valid key, nothing else) is already
about 2× the bare route, so the goal as stated asks for a chat answer as cheap as \`/api/auth/me\`.`;

function chatSection(results, single, seeded, options, profileDir) {
  const ms = (value) =>
    value === undefined || Number.isNaN(value) ? "–" : value < 10 ? value.toFixed(2) : value.toFixed(1);
  const pct = (value) => (value === undefined || Number.isNaN(value) ? "–" : value.toFixed(0));
  const [nodeHttp, bare, , greeting, chat] = results;
  const table = markdownTable(
    [
      "target",
      "served by",
      "request",
      "answers",
      "requests/s",
      "first byte p50 ms",
      "p90",
      "p99",
      "complete p50 ms",
      "p90",
      "p99",
      "first byte p50 ÷ bare route p50",
      "server CPU ms per answer",
      "CPU % busy (server / load generator / other)",
    ],
    results.map((r) => [
      r.name,
      r.server,
      `\`${r.method} ${r.path}\``,
      `${r.requests}${r.cappedByCount ? " (count bound reached)" : ""}`,
      Math.round(r.rps).toString(),
      ms(r.firstByte.p50),
      ms(r.firstByte.p90),
      ms(r.firstByte.p99),
      ms(r.end.p50),
      ms(r.end.p90),
      ms(r.end.p99),
      (r.firstByte.p50 / bare.end.p50).toFixed(2),
      r.cpu ? ms(r.cpu.serverMs / r.requests) : "–",
      r.cpu ? `${pct(r.cpu.busy)} (${pct(r.cpu.server)} / ${pct(r.cpu.client)} / ${pct(r.cpu.other)})` : "–",
    ]),
    [false, false, false, true, true, true, true, true, true, true, true, true, true, false],
  );
  const median = (answers, pick) => percentile(answers.map(pick), 50);
  const row = (label, answers) => [
    label,
    ms(median(answers, (a) => a.firstByteMs)),
    ms(median(answers, (a) => a.doneMs)),
  ];
  const singles = markdownTable(
    ["chat, one request with nothing else in flight", "first byte ms", "`[DONE]` ms"],
    [
      row("the process's first chat request: a question, the index built from the database", [single.first]),
      row(`a question, warm (median of ${single.alone.length})`, single.alone),
      row(`a greeting, warm (median of ${single.greeting.length})`, single.greeting),
      row(
        `the first question after a page is republished: the index rebuilt (median of ${single.rebuilt.length})`,
        single.rebuilt,
      ),
    ],
    [false, true, true],
  );
  const ratio = (p) => chat.firstByte[p] / bare.end[p];
  const verdict = (p) => `${ratio(p).toFixed(2)}× (goal ≤ ${CHAT.goal}×: ${ratio(p) <= CHAT.goal ? "met" : "NOT met"})`;
  return `${CHAT_HEADING}

- Date: ${new Date().toISOString()}; Atrium's production build of ${options.builtAt}, run from a copy of \`build/\`
- Machine: ${os.cpus().length} cores; CPU busy just before the run: ${options.busyBefore.toFixed(0)} %. The last column gives, for each
  measured pass, how busy the cores were and whose work it was (from /proc: the server's and the load generator's
  own CPU time, the rest being other processes); "server CPU ms per answer" is the server's CPU time over the pass
  divided by its answers.
- Workspace: ${seeded.pages} published pages (${seeded.wordsPerPage} words on average; distinct titles, 50 plants × 10
  kinds of guide) and ${seeded.products} active products with descriptions and prices, written by
  \`bench/chat-seed.ts\` through the module functions (\`pagesOf(...).create\` and \`.publish\`,
  \`productsOf(...).save\`) in ${seeded.seconds.toFixed(1)} s, into a new workspace of the demo operator on a fresh
  SQLite database: a content index of ${(seeded.pages + seeded.products).toLocaleString("en")} documents (the workspace has no services, policies or
  business profile to add).
- Load: the bench's own client (node:http, one keep-alive agent), ${CHAT.connections} connections in a closed loop
  (each sends its next request when the last answer has ended), ${options.duration} s per target after a
  ${options.warmup} s warm-up; the same client for every row. Each chat request is a new conversation with one
  message: one of ${CHAT_QUESTIONS.length} questions in turn ("${CHAT_QUESTIONS[0].text}", "${CHAT_QUESTIONS[1].text}", …), answered by the
  offline engine (no model), or "${CHAT_GREETING.text}" on the greeting row. The key is the demo operator's, made an
  Enterprise account whose per-key limits the bench raises with \`npm run admin -- users:set-limits\` (the limiter
  still counts every request); the plan's daily chat allowance (10,000 messages) is not raised, so each chat pass
  is also bounded in count (${CHAT.maxRequests}, warm-up ${CHAT.warmupMax}), ${CHAT_MESSAGES} messages at most in all.
  Every answer is checked (200, \`text/event-stream\`, ending with \`data: [DONE]\`, citing its page, or greeting
  back); one that is not fails the run.
- First byte: the first chunk of the response body, which is the stream's \`start\` frame (the headers came
  ${ms(chat.firstByte.p50 - chat.headers.p50)} ms before it at p50). Complete: the chunk holding \`data: [DONE]\` for the chat, the end of the
  response for the other rows. Milliseconds from just before the request is written.

${table}

${singles}

Goal (issue 20): the chat's first byte within 2× the bare Remix resource route's latency, measured in the same run
at the same concurrency with the same client:

- p50: ${ms(chat.firstByte.p50)} ms against ${ms(bare.end.p50)} ms: ${verdict("p50")}
- p90: ${ms(chat.firstByte.p90)} ms against ${ms(bare.end.p90)} ms: ${verdict("p90")}
- the whole answer (\`[DONE]\`) at p50 is ${(chat.end.p50 / bare.end.p50).toFixed(2)}× the bare route; the question's requests/s are
  ${(chat.rps / bare.rps).toFixed(3)}× the bare route's (${(chat.rps / nodeHttp.rps).toFixed(4)}× node:http's), the greeting's ${(greeting.rps / bare.rps).toFixed(3)}×

In a closed loop a row's latency is about its connections divided by its requests/s, and a Node server's requests/s
is about one second of CPU divided by the CPU one answer takes: a first byte within 2× the bare route's would need
the first byte sent before most of the answer's work, and that work kept short, or off the event loop.

${CHAT_PROFILE_NOTE}
${profileDir ? `\nThe server ran with \`--cpu-prof\`: its profile, and the measured passes' windows on its clock, are in ${profileDir} (\`node bench/profile-summary.mjs ${profileDir}\` reads them).\n` : ""}
Regenerate this section alone with \`BENCH_ONLY=chat npm run bench\` (\`BENCH_CPU_PROF=dir\` profiles the server).
`;
}

/** Today's routes and BENCH_EXTRA_ROUTES more (half resource routes, half pages with a parameter), as a copy. */
function buildWithExtraRoutes(extra) {
  const dir = mkdtempSync(join(os.tmpdir(), "atrium-bench-routes-"));
  tempDirs.add(dir);
  // The committed tree (what CI and a reader get), not the working tree's edits.
  const archive = spawnSync("sh", ["-c", `git -C "${ROOT}" archive HEAD | tar -x -C "${dir}"`], { stdio: "inherit" });
  if (archive.status !== 0) throw new Error("git archive of HEAD failed");
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  mkdirSync(join(dir, "app", "routes"), { recursive: true });
  for (let i = 0; i < extra; i++) {
    if (i % 2 === 0) {
      writeFileSync(
        join(dir, "app", "routes", `api.bench-extra-${i}.ts`),
        `export const loader = () => Response.json({ route: ${i} });\n`,
      );
    } else {
      writeFileSync(
        join(dir, "app", "routes", `bench-extra-${i}.$param.tsx`),
        [
          'import type { LoaderFunctionArgs } from "@remix-run/node";',
          'import { useLoaderData } from "@remix-run/react";',
          'export const loader = ({ params }: LoaderFunctionArgs) => ({ param: params.param ?? "" });',
          `export default function BenchExtra${i}() {`,
          "  const { param } = useLoaderData<typeof loader>();",
          "  return <p>{param}</p>;",
          "}",
          "",
        ].join("\n"),
      );
    }
  }
  console.log(`Building a copy with ${extra} more routes in ${dir}…`);
  const built = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: dir, stdio: "inherit" });
  if (built.status !== 0) throw new Error("the build with more routes failed");
  return dir;
}

async function routeCount(cwd) {
  const build = await import(join(cwd, "build", "server", "index.js"));
  return Object.keys(build.routes).length;
}

async function measureRouteTable(options) {
  const extra = numberFromEnv("BENCH_EXTRA_ROUTES", 120);
  const copy = buildWithExtraRoutes(extra);
  const targets = [
    { name: "liveness (Atrium's pipeline)", path: "/api/health/live", like: "route" },
    { name: "home page, uncached (SSR)", path: `/harbor-bakery${BYPASS}`, like: "page" },
  ];
  const rows = [];
  for (const [label, cwd] of [
    ["today", ROOT],
    [`+${extra}`, copy],
  ]) {
    const atrium = await startAtrium({}, cwd);
    try {
      const routes = await routeCount(cwd);
      for (const target of targets)
        rows.push({ label, routes, target, result: await measure(target, atrium, options) });
    } finally {
      await stopChild(atrium.child);
    }
  }
  const lines = targets.map((target) => {
    const [small, large] = rows.filter((row) => row.target === target);
    const ratio = large.result.rps / small.result.rps;
    return `| ${target.name} | \`${target.path}\` | ${small.routes} | ${Math.round(small.result.rps)} | ${large.routes} | ${Math.round(large.result.rps)} | ${ratio.toFixed(2)} |`;
  });
  return `${ROUTES_HEADING}

- Date: ${new Date().toISOString()}; ${options.connections} connections, ${options.warmup} s warm-up + ${options.duration} s per target
- The same commit built twice: as it is, and with ${extra} more routes (half resource routes, half pages with a
  parameter). Every request matches against the whole table, so a cost that grew with it would show here (ADR 028).

| target | path | routes | requests/s | routes | requests/s | ratio (more routes / today) |
| --- | --- | ---: | ---: | ---: | ---: | ---: |
${lines.join("\n")}

Regenerate this section alone with \`BENCH_ONLY=routes npm run bench\` (\`BENCH_EXTRA_ROUTES\`, default 120).
`;
}

/** Replaces one "## " section of bench/RESULTS.md (or adds it), leaving the others as they are. */
function writeSection(heading, section) {
  const file = join(ROOT, "bench", "RESULTS.md");
  const current = existsSync(file) ? readFileSync(file, "utf8") : "# Atrium load benchmark\n";
  const at = current.indexOf(heading);
  if (at < 0) return writeFileSync(file, `${current.trimEnd()}\n\n${section}`);
  const next = current.indexOf("\n## ", at + heading.length);
  const after = next < 0 ? "" : current.slice(next);
  writeFileSync(file, `${current.slice(0, at).trimEnd()}\n\n${section.trimEnd()}\n${after}`);
}

/** A section a full run does not measure (the route table's), kept from the file it rewrites. */
function keptSection(heading) {
  const file = join(ROOT, "bench", "RESULTS.md");
  if (!existsSync(file)) return "";
  const current = readFileSync(file, "utf8");
  const at = current.indexOf(heading);
  if (at < 0) return "";
  const next = current.indexOf("\n## ", at + heading.length);
  return `\n${current.slice(at, next < 0 ? undefined : next).trimEnd()}\n`;
}

function writeFairnessSection(section) {
  writeSection(FAIRNESS_HEADING, section);
}
// ---------------------------------------------------------------------------------------------------------------

async function main() {
  const options = {
    duration: numberFromEnv("BENCH_DURATION", 10),
    connections: numberFromEnv("BENCH_CONNECTIONS", 50),
    warmup: numberFromEnv("BENCH_WARMUP", 2, { allowZero: true }),
  };
  if (!Number.isInteger(options.connections)) throw new Error("BENCH_CONNECTIONS must be a whole number");

  if (!buildIsCurrent()) {
    console.log("Building Atrium (the build is missing or older than the sources)…");
    const { buildAll } = await import("../scripts/build.mjs");
    await buildAll({ quiet: true });
  }

  const only = process.env.BENCH_ONLY ?? "";
  if (only && !["fairness", "mixed", "routes", "shop", "bookings", "chat"].includes(only)) {
    throw new Error(
      `BENCH_ONLY must be "fairness", "mixed", "routes", "shop", "bookings", "chat" or empty, got "${only}"`,
    );
  }
  if (only === "chat") {
    CHAT.connections = numberFromEnv("BENCH_CHAT_CONNECTIONS", CHAT.connections);
    if (!Number.isInteger(CHAT.connections)) throw new Error("BENCH_CHAT_CONNECTIONS must be a whole number");
    writeSection(CHAT_HEADING, await measureChat(options));
    console.log("Wrote the chat section of bench/RESULTS.md");
    return;
  }
  if (only === "bookings") {
    writeSection(BOOKINGS_HEADING, await measureBookings(options));
    console.log("Wrote the bookings section of bench/RESULTS.md");
    return;
  }
  if (only === "shop") {
    writeSection(SHOP_HEADING, await measureShop(options));
    console.log("Wrote the shop section of bench/RESULTS.md");
    return;
  }
  if (only === "routes") {
    writeSection(ROUTES_HEADING, await measureRouteTable(options));
    console.log("Wrote the route-table section of bench/RESULTS.md");
    return;
  }
  if (only === "mixed") {
    const atrium = await startAtrium();
    try {
      console.log(mixedSection(await measureMixed(atrium)));
    } finally {
      await stopChild(atrium.child);
    }
    return;
  }
  if (only === "fairness") {
    writeFairnessSection(fairnessSection(await measureFairness()));
    console.log("Wrote the fairness section of bench/RESULTS.md");
    return;
  }

  prepareReference();

  options.busyBefore = await cpuBusyPercent(1_000);
  console.log(`${options.connections} connections, ${options.warmup} s warm-up + ${options.duration} s per target\n`);
  const results = [];

  // One server at a time, so an idle one does not hold memory or timers while another is measured.
  const nodeHttp = await startReference("node-http.mjs", BASELINES.nodeHttp.path);
  try {
    results.push(await measure(BASELINES.nodeHttp, nodeHttp, options));
  } finally {
    await stopChild(nodeHttp.child);
  }

  const bareRemix = await startReference("server.mjs", BASELINES.route.path);
  try {
    for (const baseline of [BASELINES.route, BASELINES.page]) results.push(await measure(baseline, bareRemix, options));
  } finally {
    await stopChild(bareRemix.child);
  }

  let mixed;
  // The custom-domain target's row shows within a second (a reload is one small query in the background).
  const atrium = await startAtrium({ DOMAINS_REFRESH_MS: "1000", ...SHOP_ENV });
  let recorded;
  try {
    for (const target of TARGETS) {
      results.push(await measure(target, atrium, options));
      // Recorded at once: a later target (the custom domain's) moves the demo site to its domain.
      if (target.replay) recorded = await recordAnswer(atrium.baseUrl + target.path, target.headers);
    }
  } finally {
    await stopChild(atrium.child);
  }
  if (recorded) {
    for (const [baseline, headers] of [
      [BASELINES.replay, "all"],
      [BASELINES.replayBody, "body"],
    ]) {
      const replay = await startReplay(recorded, headers);
      try {
        results.push(await measure(baseline, replay, options));
      } finally {
        await stopChild(replay.child);
      }
    }
  }
  // Its own server and database, as BENCH_ONLY=mixed runs it: the SOP target's queued runs are not in its way.
  const mixedAtrium = await startAtrium();
  try {
    mixed = await measureMixed(mixedAtrium);
  } finally {
    await stopChild(mixedAtrium.child);
  }

  const table = resultsTable(results);
  console.log(`\n${table}\n`);

  const failed = results.filter((r) => r.problems.length > 0);
  if (failed.length > 0) {
    const details = failed.map((r) => `- ${r.name} (${r.path}): ${r.problems.join("; ")}`).join("\n");
    throw new Error(`The measured pass was not clean, so bench/RESULTS.md was not written:\n${details}`);
  }

  options.goals = goalLines(results);
  console.log(options.goals);
  const fairness = fairnessSection(await measureFairness());
  writeFileSync(
    join(ROOT, "bench", "RESULTS.md"),
    `${resultsDocument(table, options)}\n${mixedSection(mixed)}\n${fairness}${keptSection(ROUTES_HEADING)}${keptSection(SHOP_HEADING)}${keptSection(BOOKINGS_HEADING)}${keptSection(CHAT_HEADING)}`,
  );
  if (mixed.stale > 0) throw new Error(`${mixed.stale} stale reads during saves (see bench/RESULTS.md)`);
  // Without hits between the saves, "no stale read" says nothing about the cache's purges.
  if (mixed.hits === 0) throw new Error("no page-cache hit during the reads between saves (see bench/RESULTS.md)");
  console.log("Wrote bench/RESULTS.md");
}

try {
  await main();
} catch (error) {
  // After Ctrl-C, what fails next (a stopped load, a server going away) is a consequence, not news.
  if (!interrupted) {
    const cause =
      error instanceof Error && error.cause ? ` (${error.cause.code ?? error.cause.message ?? error.cause})` : "";
    console.error(`\nBenchmark failed: ${error instanceof Error ? error.message : error}${cause}`);
  }
  process.exitCode = 1;
} finally {
  await Promise.allSettled([...children].map(stopChild));
  removeTempDirs();
}
