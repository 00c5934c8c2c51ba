/**
 * The one way Atrium calls a URL that a user typed (SOP `http_request` steps, completion webhooks). Such a URL
 * is an SSRF vector: pointed at 127.0.0.1, 10.x or 169.254.169.254 it would let a tenant reach the database,
 * the admin port or the cloud metadata service from inside our network. So:
 *
 * - The check is made on the address actually connected to, not on the name: `node:http(s).request()` gets a
 *   custom `lookup` that resolves the name once, refuses it if ANY of its addresses is private or reserved, and
 *   hands only checked addresses to the socket. A name that resolves to a public address for a validator and to
 *   127.0.0.1 a moment later (DNS rebinding) is caught, because there is no second resolution. Global `fetch`
 *   has no such hook, which is why it is not used.
 * - Node skips `lookup` for literal IPs, so those are checked before connecting. The WHATWG URL parser has
 *   already turned `2130706433`, `0x7f.1` and `127.1` into `127.0.0.1`, and `[::ffff:127.0.0.1]` into
 *   `[::ffff:7f00:1]`, so checking the parsed hostname covers the odd spellings.
 * - As a last line, the socket's remote address is checked again on connect.
 * - Redirects are followed by hand, each hop re-checked (scheme and addresses) exactly like the first request.
 * - Every request gets a fresh connection (`agent: false`): a pooled keep-alive socket opened under a laxer
 *   policy (or the test hook) must never be reused for a request under a stricter one.
 *
 * Choices worth knowing: 303 always becomes GET without a body, and so do 301/302 after a POST (what browsers
 * and fetch do; many servers rely on it); 307/308 keep method and body. On a cross-origin hop the
 * Authorization, Cookie and Proxy-Authorization headers are dropped (as fetch does). ENOTFOUND is not retryable
 * (the name does not exist, almost always a typo) while EAI_AGAIN (resolver trouble) is. A non-2xx response
 * whose body is over the cap is still reported as kind "status", the more useful fact; only a 2xx body over
 * the cap is "too_large". Too many redirects is kind "status" with the last 3xx status, not retryable.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from "node:dns";
import {
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
} from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP, type LookupFunction, type Socket } from "node:net";
import { performance } from "node:perf_hooks";

export interface OutboundPolicy {
  /** Allow loopback, private (RFC 1918, fc00::/7), link-local (169.254/16, fe80::/10), CGNAT 100.64/10, 0.0.0.0/8, multicast, etc. Default false. */
  allowPrivateNetworks: boolean;
  /** Refuse http: (only https:) — true in production. */
  requireHttps: boolean;
  /** The whole call: connect, headers and body of every hop, redirects included. */
  timeoutMs: number;
  /** Response body cap, in bytes. */
  maxResponseBytes: number;
  /** Followed manually, each hop re-checked against the policy; 0 = don't follow. */
  maxRedirects: number;
}

export interface OutboundRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The same body as bytes, for callers that download a file (the brand import's images). */
  bytes: Buffer;
  /** Always false: a body over the cap is an error, never silently cut. */
  truncated: false;
  /** The final URL, after redirects. */
  url: string;
  durationMs: number;
}

export interface OutboundOptions {
  /**
   * Replaces the address check (and with it `policy.allowPrivateNetworks`). For tests, which can only run
   * servers on loopback and so need to allow one loopback address while refusing another.
   */
  isRefusedAddress?: (address: string, family: 4 | 6) => boolean;
  /**
   * The only ports the request (every hop of it) may go to, e.g. the web's 80 and 443 for a caller that only
   * ever fetches websites (the brand import): a URL such as `https://shop.example:22/` or a redirect to one
   * would otherwise let a tenant probe other services of any public host through us. Unset: any port.
   */
  ports?: ReadonlySet<number>;
}

export type OutboundErrorKind = "refused" | "network" | "timeout" | "too_large" | "status";

export class OutboundError extends Error {
  constructor(
    message: string,
    readonly kind: OutboundErrorKind,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = "OutboundError";
  }
}

/** 5xx, 429 and 408 may succeed later; any other non-2xx is the same next time. */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 429 || status === 408;
}

const refused = (message: string) => new OutboundError(message, "refused", false);

/** Syntax, scheme and credentials only (no DNS), so it is cheap enough for form validation. */
export function checkUrl(url: string, policy: Pick<OutboundPolicy, "requireHttps">): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refused(`Not a valid URL: ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw refused(`Only http: and https: URLs are allowed, not ${parsed.protocol}`);
  }
  if (policy.requireHttps && parsed.protocol !== "https:") throw refused("Only https: URLs are allowed");
  // Credentials in a URL end up in logs and in the Location of redirects; headers are the place for them.
  if (parsed.username || parsed.password) throw refused("URLs may not contain a user name or password");
  if (!parsed.hostname) throw refused("The URL has no host");
  return parsed;
}

// --- Address ranges -------------------------------------------------------------------------------------------

/** IANA special-purpose IPv4 ranges that are not globally reachable, plus multicast and the reserved 240/4. */
const IPV4_REFUSED: ReadonlyArray<[string, number]> = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // RFC 1918
  ["100.64.0.0", 10], // CGNAT (also Alibaba's metadata service, 100.100.100.200)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata 169.254.169.254
  ["172.16.0.0", 12], // RFC 1918
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // TEST-NET-1
  ["192.88.99.0", 24], // 6to4 relay anycast (deprecated)
  ["192.168.0.0", 16], // RFC 1918
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // TEST-NET-2
  ["203.0.113.0", 24], // TEST-NET-3
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and 255.255.255.255 broadcast
];

/**
 * Special IPv6 ranges. Most already fall outside 2000::/3, which is refused wholesale below; they are listed
 * anyway so the intent can be read here. Three ranges that embed an IPv4 address (::ffff:0:0/96 mapped,
 * 64:ff9b::/96 NAT64, 2002::/16 6to4) are not here: they are judged by the IPv4 address inside them.
 */
const IPV6_REFUSED: ReadonlyArray<[string, number]> = [
  ["::", 96], // ::, ::1 loopback and the deprecated IPv4-compatible ::a.b.c.d
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard-only
  ["2001::", 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID…)
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation
  ["5f00::", 16], // SRv6 SIDs
  ["fc00::", 7], // unique local (AWS metadata fd00:ec2::254 is here)
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
];

const v4Refused = new BlockList();
for (const [network, prefix] of IPV4_REFUSED) v4Refused.addSubnet(network, prefix, "ipv4");
const v6Refused = new BlockList();
for (const [network, prefix] of IPV6_REFUSED) v6Refused.addSubnet(network, prefix, "ipv6");
// Only global unicast is routable on the internet; anything else is reserved or unallocated.
const v6GlobalUnicast = new BlockList();
v6GlobalUnicast.addSubnet("2000::", 3, "ipv6");

/** The 16 bytes of an IPv6 address already accepted by `net.isIP`. */
function ipv6Bytes(address: string): number[] {
  let text = address;
  const lastColon = text.lastIndexOf(":");
  const tail = text.slice(lastColon + 1);
  if (tail.includes(".")) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split(".").map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", rest] = text.split("::");
  const headGroups = head ? head.split(":") : [];
  const restGroups = rest ? rest.split(":") : [];
  const zeros = rest === undefined ? [] : Array<string>(8 - headGroups.length - restGroups.length).fill("0");
  return [...headGroups, ...zeros, ...restGroups].flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}

/** The IPv4 address a mapped, NAT64 or 6to4 IPv6 address stands for; the packets end up there. */
function embeddedIpv4(bytes: number[]): string | null {
  const startsWith = (prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte);
  let at: number | null = null;
  if (startsWith([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff])) at = 12;
  else if (startsWith([0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) at = 12;
  else if (startsWith([0x20, 0x02])) at = 2;
  return at === null ? null : bytes.slice(at, at + 4).join(".");
}

function isRefusedIp(address: string, family: 4 | 6): boolean {
  if (family === 4) return v4Refused.check(address, "ipv4");
  const v4 = embeddedIpv4(ipv6Bytes(address));
  if (v4 !== null) return v4Refused.check(v4, "ipv4");
  return !v6GlobalUnicast.check(address, "ipv6") || v6Refused.check(address, "ipv6");
}

type AddressCheck = (address: string) => boolean;

function withFamily(predicate: (address: string, family: 4 | 6) => boolean): AddressCheck {
  return (address) => {
    // A zone (fe80::1%eth0) only says which interface; it is not part of the address.
    const bare = address.split("%")[0] ?? "";
    const family = isIP(bare);
    // Whatever is not recognisably an IP address is refused: fail closed.
    if (family === 0) return true;
    return predicate(bare, family as 4 | 6);
  };
}

/**
 * The default check: true for an address that is not on the public internet (private, loopback, link-local,
 * CGNAT, multicast, documentation, reserved…), or that is not an IP address at all.
 */
export const isRefusedAddress: (address: string) => boolean = withFamily(isRefusedIp);

function addressCheck(policy: OutboundPolicy, options: OutboundOptions | undefined): AddressCheck {
  if (options?.isRefusedAddress) return withFamily(options.isRefusedAddress);
  return policy.allowPrivateNetworks ? withFamily(() => false) : isRefusedAddress;
}

function refusedAddress(host: string, address: string): OutboundError {
  const target = host === address ? address : `${host} (${address})`;
  return refused(`Refused to connect to ${target}: a private, local or reserved address`);
}

/**
 * Resolves once, checks every address, and answers in whichever shape the socket asked for: with Node 20's
 * happy eyeballs (`autoSelectFamily`) net asks for `all`, otherwise for a single address.
 */
function checkedLookup(isRefused: AddressCheck): LookupFunction {
  return (hostname, options, callback) => {
    // Keeps the socket's family and hints, but always asks for every address so all of them are checked.
    const lookupOptions: LookupAllOptions = { ...options, all: true };
    dnsLookup(hostname, lookupOptions, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "");
      // Refused outright rather than filtered: a public name has no business resolving inside our network, and
      // a mixed answer is how rebinding attacks hedge their bets.
      const bad = addresses.find((entry) => isRefused(entry.address));
      if (bad) return callback(refusedAddress(hostname, bad.address), "");
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`No address for ${hostname}`), { code: "ENOTFOUND" }), "");
      if (options.all) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

// --- Requests -------------------------------------------------------------------------------------------------

const NON_RETRYABLE_NETWORK_CODES = new Set(["ENOTFOUND"]);

function networkError(error: unknown, url: URL): OutboundError {
  if (error instanceof OutboundError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const detail = error instanceof Error ? error.message : String(error);
  const result = new OutboundError(
    `Request to ${url.origin} failed: ${detail}`,
    "network",
    !(code && NON_RETRYABLE_NETWORK_CODES.has(code)),
  );
  result.cause = error;
  return result;
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

interface Hop {
  status: number;
  headers: IncomingHttpHeaders;
  /** Null for a redirect, whose body is not read. */
  body: Buffer | null;
}

interface HopContext {
  isRefused: AddressCheck;
  deadline: number;
  timeoutMs: number;
  maxResponseBytes: number;
  followRedirects: boolean;
  ports: ReadonlySet<number> | undefined;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function sendOnce(
  url: URL,
  method: string,
  headers: OutgoingHttpHeaders,
  body: Buffer | undefined,
  context: HopContext,
): Promise<Hop> {
  return new Promise<Hop>((resolve, reject) => {
    // URL keeps the brackets of an IPv6 literal; sockets want the bare address (Node re-adds them in Host).
    const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    // Node does not call `lookup` for a literal IP, so it is checked here, before any socket exists.
    if (isIP(host) !== 0 && context.isRefused(host)) return reject(refusedAddress(host, host));
    const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
    if (context.ports && !context.ports.has(port)) {
      return reject(
        refused(`Refused to connect to port ${port}: only ports ${[...context.ports].join(", ")} are allowed`),
      );
    }

    const remaining = context.deadline - performance.now();
    if (remaining <= 0) return reject(new OutboundError(`Timed out after ${context.timeoutMs} ms`, "timeout", true));

    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const fail = (error: OutboundError) =>
      finish(() => {
        reject(error);
        req.destroy();
      });

    let req: ReturnType<typeof httpRequest>;
    try {
      req = (url.protocol === "https:" ? httpsRequest : httpRequest)({
        protocol: url.protocol,
        hostname: host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method,
        headers,
        agent: false,
        lookup: checkedLookup(context.isRefused),
      });
    } catch (error) {
      // Node validates method and header names and values synchronously: a bad header is the caller's input.
      const detail = error instanceof Error ? error.message : String(error);
      return reject(refused(`Invalid request: ${detail}`));
    }

    const timer = setTimeout(
      () => fail(new OutboundError(`Timed out after ${context.timeoutMs} ms`, "timeout", true)),
      remaining,
    );

    req.on("error", (error) => fail(networkError(error, url)));
    req.on("socket", (socket: Socket) => {
      const verify = () => {
        const address = socket.remoteAddress;
        if (address && context.isRefused(address)) fail(refusedAddress(host, address));
      };
      // Prepended so it runs before the queued request bytes are flushed onto the socket.
      if (socket.connecting) socket.prependOnceListener("connect", verify);
      else verify();
    });

    req.on("response", (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      if (context.followRedirects && REDIRECT_STATUSES.has(status) && res.headers.location) {
        finish(() => {
          resolve({ status, headers: res.headers, body: null });
          req.destroy();
        });
        return;
      }
      const success = status >= 200 && status < 300;
      const chunks: Buffer[] = [];
      let size = 0;
      let complete = false;
      const deliver = () => finish(() => resolve({ status, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("data", (chunk: Buffer) => {
        if (settled) return;
        size += chunk.length;
        if (size <= context.maxResponseBytes) return void chunks.push(chunk);
        if (success) {
          fail(new OutboundError(`Response body over ${context.maxResponseBytes} bytes`, "too_large", false));
        } else {
          // For an error response the status is the answer and the body is thrown away: stop reading at the cap.
          chunks.push(chunk.subarray(0, chunk.length - (size - context.maxResponseBytes)));
          deliver();
          req.destroy();
        }
      });
      res.on("end", () => {
        complete = true;
        deliver();
      });
      res.on("error", (error) => fail(networkError(error, url)));
      res.on("close", () => {
        if (!complete) fail(networkError(new Error("connection closed before the body was complete"), url));
      });
    });

    if (body) req.write(body);
    req.end();
  });
}

/** What the next hop sends after a redirect; see the header comment for the method rules. */
function redirectedRequest(
  status: number,
  method: string,
  headers: OutgoingHttpHeaders,
  body: Buffer | undefined,
  crossOrigin: boolean,
): { method: string; headers: OutgoingHttpHeaders; body: Buffer | undefined } {
  const next = { ...headers };
  const toGet = (status === 303 && method !== "HEAD") || ((status === 301 || status === 302) && method === "POST");
  if (toGet) {
    for (const name of ["content-type", "content-length", "content-encoding", "transfer-encoding"]) delete next[name];
  }
  if (crossOrigin) {
    for (const name of ["authorization", "cookie", "proxy-authorization"]) delete next[name];
  }
  return toGet ? { method: "GET", headers: next, body: undefined } : { method, headers: next, body };
}

export async function outboundRequest(
  request: OutboundRequest,
  policy: OutboundPolicy,
  options?: OutboundOptions,
): Promise<OutboundResponse> {
  const started = performance.now();
  const context: HopContext = {
    isRefused: addressCheck(policy, options),
    deadline: started + policy.timeoutMs,
    timeoutMs: policy.timeoutMs,
    maxResponseBytes: policy.maxResponseBytes,
    followRedirects: policy.maxRedirects > 0,
    ports: options?.ports,
  };

  let url = checkUrl(request.url, policy);
  let method = (request.method ?? "GET").toUpperCase();
  let body: Buffer | undefined = request.body === undefined ? undefined : Buffer.from(request.body);
  // Lower-cased so redirect handling can find and drop headers whatever case the caller used.
  let headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
  headers["user-agent"] ??= "Atrium-Outbound/1";
  if (body) headers["content-length"] = String(body.length);

  for (let redirects = 0; ; redirects++) {
    const hop = await sendOnce(url, method, headers, body, context);
    if (hop.body === null) {
      if (redirects >= policy.maxRedirects) {
        throw new OutboundError(
          `More than ${policy.maxRedirects} redirects from ${request.url}`,
          "status",
          false,
          hop.status,
        );
      }
      let next: URL;
      try {
        next = new URL(hop.headers.location ?? "", url);
      } catch {
        throw refused(`Redirect to an invalid URL: ${JSON.stringify(hop.headers.location)}`);
      }
      next = checkUrl(next.href, policy);
      ({ method, headers, body } = redirectedRequest(hop.status, method, headers, body, next.origin !== url.origin));
      url = next;
      continue;
    }
    if (hop.status < 200 || hop.status >= 300) {
      throw new OutboundError(
        `HTTP ${hop.status} from ${url.origin}`,
        "status",
        isRetryableStatus(hop.status),
        hop.status,
      );
    }
    return {
      status: hop.status,
      headers: flattenHeaders(hop.headers),
      body: hop.body.toString("utf8"),
      bytes: hop.body,
      truncated: false,
      url: url.href,
      durationMs: Math.round(performance.now() - started),
    };
  }
}
