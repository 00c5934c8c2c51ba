/**
 * The page cache's front (issue 15, ADR 026): the HTTP server's request handler, in front of Express. A hit is
 * answered here — no Express, no Remix, no database — from the stored status, headers and bytes, with its own
 * X-Request-Id, `Age`, the encoding the client accepts, and the request log line (`cache: "hit"`). Anything
 * else goes to Express (`inner`); an eligible miss is captured on its way out and stored when its answer says
 * it may be (`publicCacheHeaders`), then sent from what was stored, compressed by the cache itself.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { memoized } from "~/lib/memo";
import { cookiesBypass } from "./cookies";
import { CACHE_TAG_HEADER, CACHE_UNTIL_HEADER, CACHE_VARY_QUERY_HEADER } from "./headers";
import {
  compressCopies,
  compressible,
  strongEtag,
  type CacheEntry,
  type PageStore,
  type StoredAnswer,
} from "./store.server";

export type CacheVerdict = "hit" | "miss" | "bypass";

export interface FrontOptions {
  /** Express's `trust proxy fn` (TRUST_PROXY): forwarded headers count only from a peer it trusts. */
  trusted(address: string | undefined, hop: number): boolean;
  /** In production an http request (by a trusted X-Forwarded-Proto) is redirected by Express: never a hit. */
  production: boolean;
  isValidHost(host: string): boolean;
  /**
   * Whether shared caches in front (a CDN) may keep what this process keeps: only when PUBLIC_URL names the
   * origin. Without it pages name the origin the request arrived with (ADR 006), which this cache keys on but a
   * CDN keyed by Host alone would not (a trusted proxy's X-Forwarded-Host), so answers tell shared caches no.
   */
  shareable: boolean;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** What a shareable answer says to shared caches when the deployment has no PUBLIC_URL (`shareable` below). */
export const UNSHARED_CACHE_CONTROL = "private, no-cache";

const sharedMaxAge = (value: unknown) => typeof value === "string" && /\bs-maxage=/.test(value);

/** Headers that belong to one answer, not to the page: never replayed from the store. */
const PER_REQUEST = new Set([
  "x-request-id",
  "date",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "content-encoding",
  "etag",
  "age",
  "vary",
  "set-cookie",
  CACHE_UNTIL_HEADER.toLowerCase(),
  CACHE_VARY_QUERY_HEADER.toLowerCase(),
]);

/** Paths the cache never looks at: the API (callers with credentials, JSON) and fingerprinted assets. */
function outOfScope(path: string): boolean {
  return path.startsWith("/api/") || path === "/api" || path.startsWith("/assets/");
}

function firstValue(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  const comma = text.indexOf(",");
  return (comma === -1 ? text : text.slice(0, comma)).trim() || undefined;
}

/** The encoding to send: br, then gzip, when the client accepts it (q > 0) and the store has the copy. */
/** Which of the encodings the cache keeps an `Accept-Encoding` value accepts (remembered: browsers send a few). */
const acceptedEncodings = memoized((text: string): { br: boolean; gzip: boolean } => {
  let br = false;
  let gzip = false;
  for (const part of text.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    if (name === "br") br = true;
    else if (name === "gzip" || name === "x-gzip" || name === "*") gzip = true;
  }
  return { br, gzip };
});

function chooseEncoding(accept: string | string[] | undefined, entry: StoredAnswer): "br" | "gzip" | null {
  if (!accept || (!entry.br && !entry.gzip)) return null;
  const { br, gzip } = acceptedEncodings(Array.isArray(accept) ? accept.join(",") : accept);
  if (br && entry.br) return "br";
  if (gzip && entry.gzip) return "gzip";
  return null;
}

/** `If-None-Match` against a strong ETag (weak comparison, as RFC 9110 §13.1.2 asks for GET). */
function routeEtag(value: number | string | string[] | undefined): string | undefined {
  return typeof value === "string" && value.startsWith('"') ? value : undefined;
}

function notModified(header: string | string[] | undefined, etag: string): boolean {
  if (!header) return false;
  const text = Array.isArray(header) ? header.join(",") : header;
  if (text.trim() === "*") return true;
  return text.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/** Whether an answer, by its headers so far, may be stored (and so is captured instead of sent as it goes). */
function storableAnswer(res: ServerResponse): boolean {
  if (res.statusCode !== 200) return false;
  const control = res.getHeader("cache-control");
  if (typeof control !== "string" || !/\bpublic\b/.test(control) || !/\bs-maxage=\d+/.test(control)) return false;
  if (/\b(private|no-store)\b/.test(control)) return false;
  if (!res.getHeader(CACHE_TAG_HEADER)) return false;
  // An answer that varies on a request header other than the encoding (the cache's own) is not one per key.
  if (
    list(res.getHeader("vary") as string | string[] | undefined).some(
      (name) => name.toLowerCase() !== "accept-encoding",
    )
  )
    return false;
  return !res.hasHeader("set-cookie") && !res.hasHeader("content-encoding");
}

function stripInternal(res: ServerResponse): void {
  res.removeHeader(CACHE_UNTIL_HEADER);
  res.removeHeader(CACHE_VARY_QUERY_HEADER);
}

function list(value: string | number | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value.join(",") : String(value))
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The stored headers as `writeHead` takes them, built once per entry rather than on every hit; for a deployment
 * whose answers no CDN may keep (`shareable: false`), with `UNSHARED_CACHE_CONTROL` and no `Cache-Tag`.
 */
const headerObjects = {
  shared: new WeakMap<StoredAnswer, OutgoingHttpHeaders>(),
  unshared: new WeakMap<StoredAnswer, OutgoingHttpHeaders>(),
};
function replayed(entry: StoredAnswer, shareable: boolean): OutgoingHttpHeaders {
  const cache = shareable ? headerObjects.shared : headerObjects.unshared;
  let headers = cache.get(entry);
  if (headers) return headers;
  headers = {};
  for (const [name, value] of entry.headers) {
    if (!shareable && name === "cache-tag") continue;
    const existing = headers[name];
    headers[name] = existing === undefined ? value : ([] as string[]).concat(existing as string, value);
  }
  if (!shareable && sharedMaxAge(headers["cache-control"])) headers["cache-control"] = UNSHARED_CACHE_CONTROL;
  cache.set(entry, headers);
  return headers;
}

export interface FrontDeps {
  store: PageStore;
  logger: Logger;
  /** An answer growing past this is not stored: it stops being held and streams on as usual. */
  maxEntryBytes: number;
  /**
   * Whether the request's host (Host, or the trusted forwarded one) is still served, by what is in memory: a
   * custom domain removed (or not known to be current since a purge, on another node too) is not answered
   * from the store but handed to Express, which waits for the domains registry and answers 421 or the new map.
   */
  stillServes?(host: string): boolean;
}

/**
 * The host (and port) the page is rendered for, as Remix's Express adapter builds `request.url`: a trusted
 * proxy's X-Forwarded-Host, with the Host header's port when the forwarded name has none. Pages without a
 * configured PUBLIC_URL name that origin, so the key must tell two such origins apart.
 */
function keyHost(forwarded: string | undefined, host: string | undefined): string | undefined {
  if (!forwarded) return host;
  if (/:\d+$/.test(forwarded) || forwarded.endsWith("]")) return forwarded;
  const port = host && /:(\d+)$/.exec(host)?.[1];
  return port ? `${forwarded}:${port}` : forwarded;
}

/**
 * How a flight ended: its answer stored; storable but refused (purged meanwhile, the bus down) or never ended
 * ("lost"); or not storable at all.
 */
type FlightOutcome = "stored" | "refused" | "unstorable" | "lost";

type CaptureKey = { scheme: string; host: string; path: string; params: Array<[string, string]> };

/** A render whose client left and that has not ended after this long no longer holds its waiters. */
const ABANDONED_RENDER_MS = 30_000;

export function createFront(deps: FrontDeps, inner: Handler, options: FrontOptions): Handler {
  const { store, logger } = deps;
  /** Misses being rendered, by key: later requests for the key wait for the first render (single flight). */
  const flights = new Map<string, Promise<FlightOutcome>>();

  function mark(res: ServerResponse, verdict: CacheVerdict): void {
    // Express's init keeps an existing `res.locals`: its request log line reads `cache` from here.
    (res as ServerResponse & { locals?: Record<string, unknown> }).locals = { cache: verdict };
  }

  function serve(
    req: IncomingMessage,
    res: ServerResponse,
    entry: StoredAnswer,
    verdict: CacheVerdict,
    requestId: string,
    started: number,
  ): void {
    const age = verdict === "hit" ? String(Math.max(0, Math.floor((Date.now() - entry.renderedAt) / 1000))) : null;
    let status = entry.status;
    if (notModified(req.headers["if-none-match"], entry.etag)) {
      status = 304;
      const headers: OutgoingHttpHeaders = { ...replayed(entry, options.shareable) };
      delete headers["content-type"];
      headers["x-request-id"] = requestId;
      headers.etag = entry.etag;
      headers.vary = "Accept-Encoding";
      if (age !== null) headers.age = age;
      res.writeHead(status, headers);
      res.end();
    } else {
      const encoding = chooseEncoding(req.headers["accept-encoding"], entry);
      const body = encoding === "br" ? entry.br! : encoding === "gzip" ? entry.gzip! : entry.identity;
      // The flat list built once per entry and encoding; a hit adds only its id and age.
      const prefix = prepared(entry, encoding, body.length);
      res.writeHead(
        status,
        age === null ? [...prefix, "x-request-id", requestId] : [...prefix, "x-request-id", requestId, "age", age],
      );
      res.end(req.method === "HEAD" ? undefined : body);
    }
    if (verdict !== "hit" || !logger.isLevelEnabled("info")) return;
    const path = (req.url ?? "/").split("?")[0];
    logger.info(
      {
        req: { id: requestId, method: req.method, path },
        res: { statusCode: status },
        responseTime: Math.round(performance.now() - started),
        callerType: entry.log.callerType ?? "public",
        route: entry.log.route,
        cache: "hit",
      },
      `${req.method} ${status}`,
    );
  }

  /** The stored headers with the validators, encoding and length of one encoding, as writeHead's flat list. */
  const flatHeaders = new WeakMap<StoredAnswer, Map<string, string[]>>();
  function prepared(entry: StoredAnswer, encoding: string | null, length: number): string[] {
    let byEncoding = flatHeaders.get(entry);
    if (!byEncoding) flatHeaders.set(entry, (byEncoding = new Map()));
    const key = encoding ?? "identity";
    let flat = byEncoding.get(key);
    if (!flat) {
      flat = [];
      for (const [name, value] of Object.entries(replayed(entry, options.shareable))) {
        for (const one of Array.isArray(value) ? value : [String(value)]) flat.push(name, one);
      }
      flat.push("etag", entry.etag, "vary", "Accept-Encoding", "content-length", String(length));
      if (encoding) flat.push("content-encoding", encoding);
      byEncoding.set(key, flat);
    }
    return flat;
  }

  /**
   * Hands a miss to Express and captures its answer: while its headers say it may be stored, the body is kept
   * here (not sent), then stored and sent from the stored copy. Express renders it uncompressed: the hidden
   * `Accept-Encoding` (only while the answer is storable, so other answers keep their compression).
   */
  function renderAndCapture(req: IncomingMessage, res: ServerResponse, key: CaptureKey): Promise<FlightOutcome> {
    const started = performance.now();
    const generation = store.renderStarted();
    let finished: (outcome: FlightOutcome) => void;
    const done = new Promise<FlightOutcome>((resolve) => (finished = resolve));
    let settled = false;
    /** The render ended (Express called `end`): the flight's waiters find its answer stored, or know why not. */
    const settle = (outcome: FlightOutcome) => {
      if (settled) return;
      settled = true;
      store.renderDone();
      finished(outcome);
    };
    // A client that leaves does not end the render (Express writes on, the capture stores it): the flight waits
    // for its end, so the requests waiting on it are served the stored answer rather than each rendering. Only
    // a render that never ends is given up on, late, so that its waiters are not held for ever.
    res.once("close", () => {
      if (!settled) setTimeout(() => settle("lost"), ABANDONED_RENDER_MS).unref();
    });

    const acceptEncoding = req.headers["accept-encoding"];
    Object.defineProperty(req.headers, "accept-encoding", {
      configurable: true,
      enumerable: true,
      get: () => (decided ? (capture ? undefined : acceptEncoding) : storableAnswer(res) ? undefined : acceptEncoding),
    });

    const original = { writeHead: res.writeHead, write: res.write, end: res.end };
    let decided = false;
    let capture: Buffer[] | null = null;
    let held = 0;

    const decide = () => {
      if (decided) return;
      decided = true;
      if (req.method === "GET" && storableAnswer(res)) capture = [];
      else {
        stripInternal(res);
        if (!options.shareable) unshare(res);
      }
    };

    res.writeHead = function writeHead(this: ServerResponse, status: number, ...rest: unknown[]) {
      if (!decided) {
        res.statusCode = status;
        const headers = (typeof rest[0] === "string" ? rest[1] : rest[0]) as
          OutgoingHttpHeaders | unknown[] | undefined;
        if (Array.isArray(headers)) {
          // Raw header lists are not replayed: send as is.
          decided = true;
          stripInternal(res);
        } else if (headers) {
          for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
          rest = typeof rest[0] === "string" ? [rest[0]] : [];
        }
        decide();
      }
      if (capture) return res;
      return (original.writeHead as (...args: unknown[]) => ServerResponse).call(res, status, ...rest);
    } as ServerResponse["writeHead"];

    const chunkOf = (chunk: unknown, encoding: unknown): Buffer | null =>
      chunk === undefined || chunk === null || typeof chunk === "function"
        ? null
        : Buffer.isBuffer(chunk)
          ? chunk
          : chunk instanceof Uint8Array
            ? Buffer.from(chunk)
            : Buffer.from(String(chunk), typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");

    res.write = function write(this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      if (!decided) res.writeHead(res.statusCode);
      if (!capture) return (original.write as (...args: unknown[]) => boolean).call(res, chunk, ...rest);
      const buffer = chunkOf(chunk, rest[0]);
      if (buffer) {
        capture.push(buffer);
        held += buffer.length;
      }
      if (held > deps.maxEntryBytes) {
        // Too big to store: send what is held and let the rest stream (uncompressed: Express was told so).
        const chunks = capture;
        capture = null;
        stripInternal(res);
        (original.writeHead as (status: number) => ServerResponse).call(res, res.statusCode);
        let result = true;
        for (const piece of chunks) result = (original.write as (chunk: Buffer) => boolean).call(res, piece);
        const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
        if (done) process.nextTick(done);
        return result;
      }
      const callback = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      if (callback) process.nextTick(callback);
      return true;
    } as ServerResponse["write"];

    res.end = function end(this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      if (!decided) res.writeHead(res.statusCode);
      if (!capture) {
        const result = (original.end as (...args: unknown[]) => ServerResponse).call(res, chunk, ...rest);
        settle("unstorable");
        return result;
      }
      const buffer = chunkOf(chunk, rest[0]);
      if (buffer) capture.push(buffer);
      res.writeHead = original.writeHead;
      res.write = original.write;
      res.end = original.end;
      const { requestId: renderedId, compress, ...answer } = answerOf(res, Buffer.concat(capture));
      const stored = store.put(key, answer, generation);
      if (stored && compress) {
        void compressCopies(stored.identity).then(
          (copies) => store.attachCompressed(stored, copies),
          (error: unknown) => logger.warn({ err: error }, "page cache: could not compress a stored answer"),
        );
      }
      // The answer is sent from the stored copy; `Connection: close` (a draining shutdown) is this answer's own.
      for (const name of res.getHeaderNames()) if (name !== "connection") res.removeHeader(name);
      // The miss keeps the id its request log line (written by Express's logger) carries.
      const requestId = String(renderedId ?? randomUUID());
      serve(req, res, stored ?? { ...answer, renderedAt: Date.now(), expiresAt: 0 }, "miss", requestId, started);
      settle(stored ? "stored" : "refused");
      return res;
    } as ServerResponse["end"];

    mark(res, "miss");
    inner(req, res);
    return done;
  }

  function answerOf(res: ServerResponse, identity: Buffer) {
    const headers: Array<[string, string]> = [];
    for (const [name, value] of Object.entries(res.getHeaders())) {
      if (PER_REQUEST.has(name) || value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [String(value)]) headers.push([name, one]);
    }
    const until = res.getHeader(CACHE_UNTIL_HEADER);
    const untilMs = until === undefined ? undefined : Date.parse(String(until));
    const scope = (res as ServerResponse & { locals?: { scope?: { log?: { callerType?: string; route?: string } } } })
      .locals?.scope;
    const contentType = res.getHeader("content-type");
    return {
      status: res.statusCode,
      headers,
      identity,
      gzip: null,
      br: null,
      compress: compressible(identity, contentType === undefined ? undefined : String(contentType)),
      // A route's own strong validator (og-image's) stays what its clients know; else one over the bytes.
      etag: routeEtag(res.getHeader("etag")) ?? strongEtag(identity),
      tags: list(res.getHeader(CACHE_TAG_HEADER)),
      varyQuery: list(res.getHeader(CACHE_VARY_QUERY_HEADER)).sort(),
      until: untilMs === undefined || Number.isNaN(untilMs) ? undefined : untilMs,
      log: { callerType: scope?.log?.callerType, route: scope?.log?.route },
      requestId: res.getHeader("x-request-id"),
    };
  }

  // What the cache does not answer goes to Express; answers that no CDN may keep say so on the way out.
  const pass = options.shareable ? inner : unshared(inner);

  return function front(req, res) {
    const started = performance.now();
    const viaProxy = options.trusted(req.socket.remoteAddress, 0);
    // Several X-Forwarded-Host values (a proxy appending to the client's): server.ts validates the first, this
    // key uses the first, but Remix's adapter takes the port from the whole header (`a, b:6666` → 6666). One
    // value for everyone after this point, so the page rendered is the page of the key it is stored under.
    const forwardedHost = req.headers["x-forwarded-host"];
    if (viaProxy && forwardedHost !== undefined && (Array.isArray(forwardedHost) || forwardedHost.includes(","))) {
      // An empty first value stays as it is: server.ts refuses it (400).
      const first = firstValue(forwardedHost);
      if (first !== undefined) req.headers["x-forwarded-host"] = first;
    }
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q === -1 ? url : url.slice(0, q);
    // Absolute-form targets (`GET http://host/…`, a proxy's) and the API are Express's alone.
    if (!path.startsWith("/") || outOfScope(path)) return pass(req, res);
    if (
      (req.method !== "GET" && req.method !== "HEAD") ||
      req.headers.authorization ||
      cookiesBypass(req.headers.cookie)
    ) {
      mark(res, "bypass");
      return pass(req, res);
    }
    const host = keyHost(viaProxy ? firstValue(req.headers["x-forwarded-host"]) : undefined, req.headers.host);
    if (!host || !options.isValidHost(host)) return pass(req, res);
    const forwardedProto = viaProxy ? firstValue(req.headers["x-forwarded-proto"])?.toLowerCase() : undefined;
    const scheme = forwardedProto ?? ((req.socket as { encrypted?: boolean }).encrypted ? "https" : "http");
    if (options.production && forwardedProto === "http") {
      mark(res, "bypass");
      return pass(req, res);
    }

    const found = store.lookup(scheme, host, path, q === -1 ? "" : url.slice(q));
    if (found.kind === "hit") {
      if (!deps.stillServes || deps.stillServes(host))
        return serve(req, res, found.entry, "hit", randomUUID(), started);
      // Not stored again: a render for a host the registry may be reloading is judged by Express alone.
      mark(res, "bypass");
      return pass(req, res);
    }
    if (found.kind === "bypass") {
      mark(res, "bypass");
      return pass(req, res);
    }
    const key = { scheme, host, path, params: found.params };
    if (req.method === "HEAD") {
      // A HEAD answer has no body to store; the next GET stores it.
      mark(res, "miss");
      return pass(req, res);
    }
    const flight = flights.get(found.key);
    if (flight) return wait(flight, req, res, key, found.key, host, started);
    fly(req, res, key, found.key);
  };

  /** Renders a miss as the key's flight: requests for the key meanwhile wait for it. */
  function fly(req: IncomingMessage, res: ServerResponse, key: CaptureKey, flightKey: string): void {
    const rendering = renderAndCapture(req, res, key);
    flights.set(flightKey, rendering);
    void rendering.then(() => {
      if (flights.get(flightKey) === rendering) flights.delete(flightKey);
    });
  }

  function wait(
    flight: Promise<FlightOutcome>,
    req: IncomingMessage,
    res: ServerResponse,
    key: CaptureKey,
    flightKey: string,
    host: string,
    started: number,
  ): void {
    void flight.then((outcome) => {
      const entry = store.peek(flightKey);
      if (entry && (!deps.stillServes || deps.stillServes(host))) {
        entry.hits += 1;
        return serve(req, res, entry, "hit", randomUUID(), started);
      }
      // The answer is not one to store (a redirect, a page that says no-store): each waiter renders its own.
      if (outcome === "unstorable") return void renderAndCapture(req, res, key);
      // It was storable but is not there (purged meanwhile, or the render was lost): one new flight, which the
      // first waiter starts and the others join.
      const next = flights.get(flightKey);
      if (next && next !== flight) return wait(next, req, res, key, flightKey, host, started);
      fly(req, res, key, flightKey);
    });
  }
}

/**
 * Without PUBLIC_URL (`shareable: false`), what an answer declared for shared caches says instead: no CDN keeps
 * it and browsers revalidate it by its ETag; its tags, which only a CDN would use, are left out.
 */
function unshare(res: ServerResponse): void {
  if (sharedMaxAge(res.getHeader("cache-control"))) res.setHeader("cache-control", UNSHARED_CACHE_CONTROL);
  res.removeHeader(CACHE_TAG_HEADER);
}

/**
 * Wraps a handler so that every answer declared for shared caches (`s-maxage`) goes out as
 * `UNSHARED_CACHE_CONTROL`: browsers still revalidate it by its ETag, no CDN keeps it. This process's own cache
 * has already judged the answer by the route's declaration (its capture runs inside this wrapper).
 */
export function unshared(handler: Handler): Handler {
  return (req, res) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      unshare(this);
      const index = args.findIndex((arg) => typeof arg === "object" && arg !== null && !Array.isArray(arg));
      const headers = args[index] as OutgoingHttpHeaders | undefined;
      if (headers && sharedMaxAge(headers["cache-control"])) {
        const { [CACHE_TAG_HEADER.toLowerCase()]: _tags, ...rest } = headers;
        args[index] = { ...rest, "cache-control": UNSHARED_CACHE_CONTROL };
      }
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as ServerResponse["writeHead"];
    handler(req, res);
  };
}

export type { CacheEntry };
