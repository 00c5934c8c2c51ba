/**
 * Atrium's HTTP server: security headers, compression, request logs, static assets, body limits, the
 * Remix handler and graceful shutdown. HTTP concerns only: the app is reached through the Remix server
 * build (its entry exports `bootstrap`), and request-scoped facts travel to it through getLoadContext.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { Server as NetServer, type AddressInfo } from "node:net";
import { basename, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import helmet from "helmet";
import type { Logger } from "pino";
import type { ViteDevServer } from "vite";
import type { AppRuntime, RequestScope } from "./app/lib/context";
import { memoized } from "./app/lib/memo";
import type { BootstrapOptions } from "./app/bootstrap.server";

const OAUTH_CLIENT_ENDPOINTS = /^\/oauth\/(token|revoke|introspect)$/;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Every method any route answers; others (TRACE, CONNECT, WebDAV's…) are refused with 501 (RFC 9110 §15.6.2). */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** A host as RFC 3986 allows it in `Host`: a name or IPv4 address, or an IPv6 literal, and an optional port. */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

function checkHost(value: string): boolean {
  const match = HOST.exec(value);
  if (!match) return false;
  if (match[1] !== undefined && Number(match[1]) > 65_535) return false;
  try {
    new URL(`http://${value}/`);
    return true;
  } catch {
    return false;
  }
}

/** Every request asks this of its Host header, and the page cache's hit path asks it again: remembered. */
const isValidHostName = memoized(checkHost);
function isValidHost(value: string | undefined): boolean {
  return value !== undefined && isValidHostName(value);
}

/**
 * What is wrong with a request before any route may see it (DESIGN rule 3: bad input is a 4xx, never a 500
 * with a stack): a method no route implements, a Host header (or a trusted X-Forwarded-Host) that is not a
 * host, or a path whose percent-encoding does not decode. Remix and Express's router would throw on each.
 */
function malformed(req: Request): { status: number; message: string } | undefined {
  if (!METHODS.has(req.method)) return { status: 501, message: `${req.method} is not supported by this server` };
  const forwarded = req.headers["x-forwarded-host"];
  if (
    !isValidHost(req.headers.host) ||
    (typeof forwarded === "string" && !isValidHost(forwarded.split(",")[0]?.trim()))
  ) {
    return { status: 400, message: "The Host header is missing or is not a valid host name" };
  }
  try {
    decodeURIComponent(req.path);
  } catch {
    return { status: 400, message: "The request path is not valid percent-encoded UTF-8" };
  }
  return undefined;
}

/** Paths that answer whatever the host and scheme: load balancers probe them by IP address, over plain http. */
const HOST_INDEPENDENT_PATHS = new Set(["/api/health", "/api/health/live"]);
/** HSTS on the deployment's own hosts, whose subdomains are the deployment's too. */
const HSTS = "max-age=31536000; includeSubDomains";
/**
 * HSTS on any other host, a customer's domain above all: its other subdomains are the customer's (an
 * `http://intranet.example.com` of theirs must keep working), so this one name only (ADR 025).
 */
const HSTS_THIS_HOST = "max-age=31536000";

type Refuse = (req: Request, res: Response, status: number, message: string) => void;

/**
 * Everything that depends on the host, in one middleware (one Express layer; health probes skip it all):
 *
 * - Refuses a request for a host this deployment does not serve (issue 12, item 3; app/modules/hosts): 421
 *   Misdirected Request (RFC 9110 §15.5.20: this server will not answer authoritatively for that URI), so no
 *   page, link or OAuth issuer is ever built for a host name the client chose. `req.hostname` is the name Remix
 *   builds `request.url` from: `Host`, or `X-Forwarded-Host` from a trusted proxy.
 * - HTTPS in practice (issue 12, item 13; issue 14 for customers' domains). Node speaks plain http here; TLS ends
 *   at a proxy, and only a proxy TRUST_PROXY names can tell us the scheme (X-Forwarded-Proto; untrusted ones were
 *   dropped on arrival). In production, what it received over http is redirected to https with 308 (GET and
 *   HEAD) or refused with 403 (any other method: its body and credentials already crossed the network in clear,
 *   and following a redirect would resend them and teach the client that http works). HSTS only on https
 *   answers, or, when no trusted proxy says, when the configured public origin is https; `includeSubDomains`
 *   only on the configured hosts.
 * - Custom domains (issue 14, ADR 025; the rule is app/modules/hosts/routing.server.ts): on a site's verified
 *   domain the path is rewritten to `/{slug}{path}` before anything else routes it (public files included: the
 *   site's `/robots.txt` is not the deployment's), and the site is named in the request scope; a path that
 *   already carries the slug, or `/{slug}/*` on the deployment's host when the site moved to its domain, answers
 *   301 (308 for other methods, which keeps the body), as does an alias domain (to the primary); a path that
 *   would escape the site once rewritten (dot segments, encoded slashes) answers 400. Each costs a memory read.
 *   The 301 has a lifetime: the switch can be turned off, and a browser keeps a 301 without one for ever.
 */
function hostPipeline(runtime: AppRuntime, refuse: Refuse) {
  const { http } = runtime;
  const publicHttps = http.baseUrl?.startsWith("https:") ?? false;

  /** The https rule: true when it answered (redirect or refusal). */
  const insecure = (req: Request, res: Response): boolean => {
    if (!http.production) return false;
    const scheme = req.headers["x-forwarded-proto"] === undefined ? undefined : req.protocol.toLowerCase();
    if (scheme === "https" || (scheme === undefined && publicHttps)) {
      res.setHeader("Strict-Transport-Security", http.hstsIncludesSubdomains(req.hostname) ? HSTS : HSTS_THIS_HOST);
    }
    if (scheme !== "http") return false;
    const target = `https://${req.hostname}${req.originalUrl}`;
    if (req.method === "GET" || req.method === "HEAD") res.redirect(308, target);
    else refuse(req, res, 403, `This server is served over https only: send this request to ${target}`);
    return true;
  };

  const route = (req: Request, res: Response, next: NextFunction, host: string) =>
    runtime.routeHost(host, req.url).then((routed) => {
      if (routed.refused) return refuse(req, res, 400, routed.refused);
      if (routed.redirect !== null) {
        res.setHeader("Cache-Control", "public, max-age=3600");
        return res.redirect(req.method === "GET" || req.method === "HEAD" ? 301 : 308, routed.redirect);
      }
      if (routed.site) res.locals.siteHost = routed.site;
      if (routed.url !== req.url) req.url = req.originalUrl = routed.url;
      next();
    }, next);

  return (req: Request, res: Response, next: NextFunction) => {
    if (HOST_INDEPENDENT_PATHS.has(req.path)) {
      // Load balancers probe by IP address over plain http: no host check, no redirect, but HSTS as before.
      if (http.production) {
        const scheme = req.headers["x-forwarded-proto"] === undefined ? undefined : req.protocol.toLowerCase();
        if (scheme === "https" || (scheme === undefined && publicHttps)) {
          res.setHeader("Strict-Transport-Security", http.hstsIncludesSubdomains(req.hostname) ? HSTS : HSTS_THIS_HOST);
        }
      }
      return next();
    }
    const host = req.hostname;
    runtime.servesHost(host).then((served) => {
      if (!served) return refuse(req, res, 421, `This server does not serve the host name ${host}`);
      if (insecure(req, res)) return;
      return route(req, res, next, host);
    }, next);
  };
}

function hostOf(origin: string): string | undefined {
  try {
    return origin === "null" ? undefined : new URL(origin).host;
  } catch {
    return undefined;
  }
}

/**
 * Whether the browser says this request comes from another site: `Sec-Fetch-Site` other than same-origin
 * or none, or an `Origin` naming another host than the one the request was sent to (Remix's own rule).
 * Without either header the request is not from a browser and carries no ambient cookie to abuse.
 */
function isCrossSite(req: Request): boolean {
  const fetchSite = req.get("sec-fetch-site");
  if (fetchSite !== undefined && fetchSite !== "same-origin" && fetchSite !== "none") return true;
  const origin = req.get("origin");
  // X-Forwarded-Host is still here only when TRUST_PROXY trusts the proxy that set it.
  const host = req.get("x-forwarded-host")?.split(",")[0]?.trim() || req.get("host");
  return origin !== undefined && hostOf(origin) !== host;
}

/** How long a refused body may keep its connection open while it is read and discarded (item 10 of issue 12). */
const DRAIN_MS = 10_000;

/**
 * Reads and discards what is left of a request body once its answer is sent, so the client reads the answer
 * (a 413, say). Otherwise Node either closes the connection under a client still sending (when the answer
 * says `Connection: close`) or, when a route stopped reading midway (the streaming 413), leaves the rest
 * unread until the keep-alive timeout closes it; either way the kernel resets a socket closed with unread
 * bytes, and the reset destroys the answer the client has not read yet (ECONNRESET, EPIPE). Bounded: past
 * `maxBytes` or `DRAIN_MS` the connection is dropped, so a refused upload cannot hold it forever.
 *
 * A draining connection is neither in flight nor idle, so the shutdown would wait for it until its deadline
 * (`DRAIN_MS` is as long as the default `SHUTDOWN_TIMEOUT_MS`): `shutdown.stopDraining` drops every one of
 * them when the shutdown starts, and one whose answer ends later is dropped at once. Its answer is sent.
 */
function drainUnreadBody(
  maxBodyBytes: number,
  shutdown: { registerDrain(drop: () => void): (() => void) | undefined },
) {
  const maxBytes = Math.max(4 * maxBodyBytes, 16 * 1024 * 1024);
  /** Called once the answer is sent (the request pipeline's one `finish` listener). */
  return (req: Request) => {
    if (req.complete || req.destroyed) return;
    const drop = () => req.socket.destroy();
    const done = shutdown.registerDrain(drop);
    if (!done) return drop();
    const timer = setTimeout(drop, DRAIN_MS).unref();
    let discarded = 0;
    // A half-read body still feeds the stream the route gave up on: take it over, keep nothing.
    req.removeAllListeners("data");
    req.on("data", (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > maxBytes) drop();
    });
    req.once("close", () => {
      clearTimeout(timer);
      done();
    });
    req.resume();
  };
}

/** How long connections idle at shutdown stay open for a request already on its way (item 11 of issue 12). */
const IDLE_GRACE_MS = 1_000;

/**
 * The share of `SHUTDOWN_TIMEOUT_MS` the HTTP side may take before every connection is cut. The rest is for
 * `runtime.close()` (the job runner stops, the pool ends): with the whole of it, a request that never ended
 * kept the drain going until `main()`'s hard exit, which came first, so the runtime was never closed and the
 * jobs in hand waited for their leases to expire.
 */
const HTTP_SHARE_OF_SHUTDOWN = 0.8;

/**
 * Graceful shutdown of the HTTP side (issue 12, item 11). Node's `server.close()` also destroys every idle
 * keep-alive connection at once, and a connection accepted just before the signal counts as idle until its
 * request is parsed: a request already on its way on one of them was reset. Here the port is closed (new
 * connections are refused), every answer from then on says `Connection: close` (Node closes each
 * connection after its answer), and connections that stay idle are closed only once a short grace has
 * passed and no request is in flight, so what arrives meanwhile is answered. Connections draining a refused
 * body have their answer and are dropped at once. `HTTP_SHARE_OF_SHUTDOWN` of `timeoutMs` bounds it all:
 * then every connection is cut, and the log says how many were.
 */
function gracefulShutdown(logger: AppRuntime["services"]["logger"]) {
  const inFlight = new Set<Response>();
  const drains = new Set<() => void>();
  let draining = false;
  let closeIdle: (() => void) | undefined;

  /** A request starts: `Connection: close` once shutting down; counted until its `close` (`untrack`). */
  const track = (res: Response) => {
    if (draining) res.setHeader("Connection", "close");
    inFlight.add(res);
  };
  const untrack = (res: Response) => {
    inFlight.delete(res);
    // After Node's own handling of the finished answer, so its connection is idle by then.
    if (closeIdle) setImmediate(closeIdle);
  };

  /** A connection starts draining a refused body: `undefined` once shutting down (drop it now), else its end. */
  const registerDrain = (drop: () => void): (() => void) | undefined => {
    if (draining) return undefined;
    drains.add(drop);
    return () => drains.delete(drop);
  };

  const drain = async (server: Server, timeoutMs: number): Promise<void> => {
    draining = true;
    for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
    for (const drop of drains) drop();
    drains.clear();
    // net's close, not http's: stop accepting without destroying idle connections (see above).
    const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    const httpTimeoutMs = timeoutMs * HTTP_SHARE_OF_SHUTDOWN;
    const grace = setTimeout(
      () => {
        closeIdle = () => {
          if (inFlight.size === 0) server.closeIdleConnections();
        };
        closeIdle();
      },
      Math.min(IDLE_GRACE_MS, httpTimeoutMs / 2),
    );
    const deadline = setTimeout(() => {
      server.getConnections((_error, count) => {
        logger.warn(
          { connections: count, inFlight: inFlight.size },
          "shutdown: connections still open at the HTTP deadline are cut",
        );
        server.closeAllConnections();
      });
    }, httpTimeoutMs);
    await closed;
    clearTimeout(grace);
    clearTimeout(deadline);
  };

  return { track, untrack, registerDrain, drain };
}

/** The request id and the request's logger, which this file puts on every request (see createAtriumServer). */
declare module "http" {
  interface IncomingMessage {
    id: string;
    log: Logger;
  }
}

const REQUEST_LOGGER = Symbol("request logger");
type RequestWithLogger = Request & { [REQUEST_LOGGER]?: Logger };

/** The `req` of a log line: its id, method and path (a query string may carry a secret: logs never get it). */
function logLineRequest(req: Request): { id: string; method: string; path: string } {
  const url = req.originalUrl;
  const query = url.indexOf("?");
  return { id: req.id, method: req.method, path: query === -1 ? url : url.slice(0, query) };
}

/**
 * The one log line per request (DESIGN "Logs"; the contract's shape): `msg: "<METHOD> <status>"`, `req`, `res`,
 * `responseTime` (ms), what the app noted in the request scope (`callerType`, `route`, `failure`) and, when the
 * page cache looked at the request, `cache` (`res.locals.cache`: "miss" or "bypass"; hits are logged by the
 * cache's own front, which answers before Express). `info`, or `error` for a 5xx. Built once, when the answer
 * is sent, and not at all when the level leaves it out (LOG_LEVEL=silent costs one comparison). Fingerprinted
 * assets are not logged.
 */
function requestLogger(logger: Logger) {
  return (req: Request, res: Response, responseTime: number) => {
    const level = res.statusCode >= 500 ? "error" : "info";
    if (!logger.isLevelEnabled(level)) return;
    const line = logLineRequest(req);
    if (line.path.startsWith("/assets/")) return;
    const scope = res.locals.scope as RequestScope | undefined;
    const cache = res.locals.cache as string | undefined;
    logger[level](
      {
        req: line,
        res: { statusCode: res.statusCode },
        responseTime,
        callerType: scope?.log.callerType,
        route: scope?.log.route,
        failure: scope?.log.failure,
        cache,
      },
      `${req.method} ${res.statusCode}`,
    );
  };
}

/**
 * helmet's headers (its current defaults with Atrium's options), computed once by running helmet against a
 * stub response at start-up: every answer gets the same set, written in one pass, and an upgrade of helmet
 * still decides what the set is.
 */
function helmetHeaders(): string[] {
  const headers: string[] = [];
  const stub = {
    setHeader: (name: string, value: unknown) => void headers.push(name, String(value)),
    removeHeader: () => {},
    getHeader: () => undefined,
  };
  helmet({
    // Documents get their CSP from the app (a nonce on console pages, none on public sites); /api gets its own.
    contentSecurityPolicy: false,
    // Sent by hostPipeline, which knows the scheme.
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  })({} as never, stub as never, () => {});
  if (headers.length === 0) throw new Error("helmet set no header on the stub response: see helmetHeaders()");
  return headers;
}

/** Below this many bytes compression costs more than it saves (compression's own default threshold). */
const COMPRESS_MIN_BYTES = 1024;

/** Whether `Accept-Encoding` names an encoding compression() speaks (it negotiates the exact one itself). */
function acceptsCompression(header: string | string[] | undefined): boolean {
  if (typeof header !== "string") return false;
  return header.includes("gzip") || header.includes("br") || header.includes("deflate");
}

/**
 * The request scope the app sees (`context.request`), made when Remix asks for the load context. The CSP nonce
 * (16 random bytes) and the request's logger are made on first read: only console documents use the nonce, and
 * most requests never log beyond their one line.
 */
function requestScope(req: Request, res: Response): RequestScope {
  let nonce: string | undefined;
  return {
    id: req.id,
    ip: req.ip ?? req.socket.remoteAddress ?? "unknown",
    get nonce() {
      return (nonce ??= randomBytes(16).toString("base64"));
    },
    crossSite: isCrossSite(req),
    siteHost: res.locals.siteHost as RequestScope["siteHost"],
    log: {},
    get logger() {
      return req.log;
    },
  };
}

type AppEntry = { bootstrap(options?: BootstrapOptions): Promise<AppRuntime> };

/** The project root, whether this runs from source (tsx server.ts) or compiled (build/server.js). */
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = `${basename(HERE) === "build" ? dirname(HERE) : HERE}/`;

export interface AtriumServer {
  app: express.Express;
  runtime: AppRuntime;
  /** Listens on the configured PORT (0 = any free port); resolves with the base URL. */
  listen(): Promise<string>;
  /** Stops accepting, lets in-flight requests finish (for most of SHUTDOWN_TIMEOUT_MS), closes the database. */
  close(): Promise<void>;
}

export interface ServerOptions {
  env?: Record<string, string | undefined>;
  /** A logger of the caller's (tests read the request log lines from it). */
  logger?: BootstrapOptions["logger"];
  /** Serve through Vite's dev server (npm run dev) instead of the built assets. */
  dev?: boolean;
}

async function loadBuild(dev: boolean): Promise<{
  build: ServerBuild | (() => Promise<ServerBuild>);
  entry: AppEntry;
  vite: ViteDevServer | undefined;
}> {
  if (!dev) {
    const build = (await import(pathToFileURL(`${ROOT}build/server/index.js`).href)) as ServerBuild;
    return { build, entry: build.entry.module as unknown as AppEntry, vite: undefined };
  }
  const { createServer } = await import("vite");
  const vite = await createServer({ root: ROOT, server: { middlewareMode: true } });
  const load = () => vite.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>;
  const entry = (await load()).entry.module as unknown as AppEntry;
  return { build: load, entry, vite };
}

export async function createAtriumServer(options: ServerOptions = {}): Promise<AtriumServer> {
  const dev = options.dev ?? false;
  const { build, entry, vite } = await loadBuild(dev);
  const runtime = await entry.bootstrap({ env: options.env, logger: options.logger, devServer: dev });
  const { http } = runtime;
  const logger = runtime.services.logger;

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", http.trustProxy);
  const shutdown = gracefulShutdown(logger);
  const drain = drainUnreadBody(http.maxBodyBytes, shutdown);
  const trusted = app.get("trust proxy fn") as (address: string | undefined, hop: number) => boolean;
  const securityHeaders = helmetHeaders();
  const log = requestLogger(logger);
  // `req.log`, the request's logger (`getLoadContext` passes it to the app), made on first use: most requests
  // never log anything but their one line, and a child logger per request was a fifth of a bare route's time.
  Object.defineProperty(app.request, "log", {
    configurable: true,
    get(this: Request): Logger {
      return ((this as RequestWithLogger)[REQUEST_LOGGER] ??= logger.child({ req: logLineRequest(this) }));
    },
  });

  // The contract's body on /api/*, a plain page elsewhere; never a stack, in any mode.
  const refuse: Refuse = (req, res, status, message) => {
    res.setHeader("Cache-Control", "no-store");
    if (req.path.startsWith("/api/") || req.path === "/api")
      res.status(status).json(runtime.errorBody(status, message));
    else res.status(status).type("text/plain").send(message);
  };

  // What every request pays for, in one layer and one pass (ADR 028): the request id, the security headers
  // (helmet's set, computed once), the forwarded headers of untrusted peers dropped, the shutdown's count of
  // requests in flight, one `finish` listener (the log line, draining a refused body) and one `close` listener,
  // and the refusals that need nothing but the request line and headers.
  app.use((req: Request, res: Response, next: NextFunction) => {
    const id = randomUUID();
    req.id = id;
    res.setHeader("X-Request-Id", id);
    for (let i = 0; i < securityHeaders.length; i += 2) res.setHeader(securityHeaders[i]!, securityHeaders[i + 1]!);
    // Forwarded headers are whatever the client typed unless the peer is a proxy TRUST_PROXY names: drop them
    // before anyone reads them, so that one present was set by a trusted proxy (Express's own getters agree).
    if (!trusted(req.socket.remoteAddress, 0)) {
      for (const name in req.headers) if (name.startsWith("x-forwarded-")) delete req.headers[name];
    }
    shutdown.track(res);
    const started = Date.now();
    let logged = false;
    const done = () => {
      if (logged) return;
      logged = true;
      log(req, res, Date.now() - started);
    };
    res.once("finish", () => {
      done();
      drain(req);
    });
    res.once("close", () => {
      done();
      shutdown.untrack(res);
    });

    const problem = malformed(req);
    if (!problem) return next();
    if (problem.status === 501) res.setHeader("Allow", [...METHODS].join(", "));
    refuse(req, res, problem.status, problem.message);
  });

  app.use(hostPipeline(runtime, refuse));

  const compress = compression({
    threshold: COMPRESS_MIN_BYTES,
    // An event stream (the assistant's answers, ADR 037) must reach the client as it is written: compression would
    // hold each piece back until a window of output fills.
    filter: (req, res) =>
      !String(res.getHeader("Content-Type") ?? "").startsWith("text/event-stream") && compression.filter(req, res),
  });
  // The checks that read the routed path (a custom domain's path was rewritten above), again in one layer.
  app.use((req: Request, res: Response, next: NextFunction) => {
    const path = req.path;
    const api = path.startsWith("/api/") || path === "/api";
    if (api) res.setHeader("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");

    // Oversized bodies are refused before anything buffers them; routes that read JSON enforce it while
    // streaming too. No `Connection: close`: the connection stays open while drainUnreadBody discards the body,
    // so the client reads this answer instead of a reset.
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared !== 0) {
      const limit =
        (req.method === "POST" || req.method === "PUT" ? http.uploadBodyLimit(path) : undefined) ?? http.maxBodyBytes;
      if (!(declared <= limit)) return refuse(req, res, 413, `The request body exceeds the limit of ${limit} bytes`);
    }

    // Remix refuses a page form post whose Origin names another host, but as a 500: answer it (and the
    // browser's own cross-site verdict) with a clear 403 first. /api/* routes decide in the app, per the
    // access contract, because some of them (webhooks, triggers) are meant to be called cross-site; so are the
    // OAuth token endpoints, which browser apps call and which read no cookie.
    if (!SAFE_METHODS.has(req.method) && !api && !OAUTH_CLIENT_ENDPOINTS.test(path) && isCrossSite(req)) {
      res
        .status(403)
        .type("text/plain")
        .send("Cross-site request refused: submit the form from this site's own pages.");
      return;
    }

    // Compression where it can pay: a client that accepts it and a body to send; compression() then compresses
    // only compressible types at or above COMPRESS_MIN_BYTES. An answer the page cache is storing reaches it
    // without Accept-Encoding (the cache hides it once the answer's headers say it is storable, and compresses
    // the stored copy itself), so only the answers it does not store are compressed here.
    if (req.method !== "HEAD" && acceptsCompression(req.headers["accept-encoding"])) {
      return compress(req, res, next);
    }
    next();
  });

  if (vite) {
    app.use(vite.middlewares);
  } else {
    // Fingerprinted by Vite: safe to cache forever.
    app.use("/assets", express.static(`${ROOT}build/client/assets`, { immutable: true, maxAge: "1y", index: false }));
    // Other files of public/ (favicon…): only paths that look like files, so pages and API calls skip the stat.
    const publicFiles = express.static(`${ROOT}build/client`, { maxAge: "1h", index: false });
    app.use((req, res, next) => (/\.[A-Za-z0-9]+$/.test(req.path) ? publicFiles(req, res, next) : next()));
  }

  app.all(
    "*",
    createRequestHandler({
      build,
      mode: dev ? "development" : "production",
      getLoadContext: (req, res) => {
        const scope = requestScope(req, res);
        res.locals.scope = scope;
        return runtime.createLoadContext(scope);
      },
    }),
  );

  // Last resort: whatever escaped a middleware is logged and answered by the contract, never Express's page
  // (which shows the stack outside production).
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    logger.error({ err: error }, "unhandled error outside the app");
    // Half an answer cannot be mended: end the connection, as Express itself would, without its page.
    if (res.headersSent) return void res.socket?.destroy();
    refuse(req, res, 500, "Something went wrong on our side; it has been logged.");
  });

  let server: Server | undefined;
  let closing: Promise<void> | undefined;

  return {
    app,
    runtime,
    listen: () =>
      new Promise((resolve, reject) => {
        // The page cache answers its hits before Express (issue 15, ADR 026); everything else reaches `app`.
        const front = runtime.pageCacheFront(app, {
          trusted,
          production: http.production,
          isValidHost,
          shareable: http.baseUrl !== undefined,
        });
        const s = createServer(front).listen(http.port, http.host, () => {
          const { port } = s.address() as AddressInfo;
          const host = http.host === "0.0.0.0" || http.host === "::" ? "localhost" : http.host;
          resolve(`http://${host}:${port}`);
        });
        s.once("error", reject);
        server = s;
      }),
    close: () =>
      (closing ??= (async () => {
        if (server) await shutdown.drain(server, http.shutdownTimeoutMs);
        await vite?.close();
        await runtime.close();
      })()),
  };
}

/** Starts a server from the environment and stops it cleanly on SIGTERM/SIGINT (used by `npm start`). */
export async function main() {
  // A .env beside package.json fills in what the real environment does not set.
  if (existsSync(`${ROOT}.env`)) process.loadEnvFile(`${ROOT}.env`);
  // Vite's dev server only on request (npm run dev), whatever NODE_ENV a copied .env says.
  const dev = process.argv.includes("--dev");
  const atrium = await createAtriumServer({ dev });
  const url = await atrium.listen();
  const log = atrium.runtime.services.logger;

  const shutdown = (signal: string) => {
    const timeoutMs = atrium.runtime.http.shutdownTimeoutMs;
    const deadline = Date.now() + timeoutMs;
    const exit = (code: number) =>
      void atrium.runtime.endLogs(Math.max(0, deadline - Date.now())).finally(() => process.exit(code));
    // Whatever hangs below (a request, the database, the log reader), the process is gone by the deadline.
    setTimeout(() => {
      log.error({ signal, timeoutMs }, "shutdown did not finish within SHUTDOWN_TIMEOUT_MS: exiting anyway");
      void atrium.runtime.endLogs(0).finally(() => process.exit(1));
    }, timeoutMs).unref();
    log.info({ signal }, "shutting down: draining requests");
    atrium.close().then(
      () => {
        log.info("stopped");
        exit(0);
      },
      (error: unknown) => {
        log.error({ err: error }, "error during shutdown");
        exit(1);
      },
    );
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
  // Only once a signal would be handled: whoever reads the banner may stop the server at once.
  atrium.runtime.announce(url, { dev });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
