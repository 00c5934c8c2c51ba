/**
 * What travels from server.ts into loaders and actions (`getLoadContext`). server.ts builds the request
 * scope (HTTP facts it alone knows: request id, client address, CSP nonce); the app builds the services.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { Db, Dialect } from "~db/client";
import type { Env } from "~/lib/env.server";
import type { WriteHealth } from "~/lib/write-health.server";

/** The spec's caller types, plus the integrator of the token API and the signer of SOP triggers. */
export type CallerType =
  "public" | "customer" | "operator" | "integrator" | "trigger" | "scheduler" | "provider" | "internal";

/** The spec's diagnosis order: cache, authorization, validation, provider state, missing data. */
export type FailureCategory =
  | "cache"
  | "authorization"
  | "validation"
  | "provider"
  | "missing-data"
  | "server"
  /** The database refused a write for want of space (503). */
  | "storage";

/** Filled in by the app while it handles a request; server.ts writes it into the request's log line. */
export interface RequestLog {
  callerType?: CallerType;
  route?: string;
  failure?: FailureCategory;
}

export interface RequestScope {
  id: string;
  /** The client's address, as Express resolved it under TRUST_PROXY. */
  ip: string;
  /** Per-request CSP nonce for console documents (public site documents carry none). */
  nonce: string;
  /** The browser marked this request as coming from another site (Origin / Sec-Fetch-Site). */
  crossSite: boolean;
  /**
   * Origins this document's forms may lead to besides our own (CSP form-action also governs the redirect
   * after a post): the OAuth consent page adds the app's redirect URI.
   */
  formActionSources?: string[];
  /**
   * Set by server.ts when the request came in on a workspace's verified custom domain (issue 14): which site
   * that host serves. The request's path was rewritten to `/{slug}{path}` before Remix saw it, so routes match
   * as on the deployment's own host; links on such a request leave out the `/{slug}` prefix (`linkBase`).
   */
  siteHost?: { hostname: string; workspaceId: string; slug: string };
  log: RequestLog;
  logger: Logger;
}

/** What bootstrap itself provides, before any module. */
export interface CoreServices {
  env: Env;
  version: string;
  db: Db;
  dialect: Dialect;
  logger: Logger;
  /** Served through Vite's dev server (npm run dev): documents allow its injected styles and HMR socket. */
  devServer: boolean;
  ping(): Promise<void>;
  /** Whether the database can still write (readiness), and where refused writes are reported. */
  writes: WriteHealth;
}

/**
 * The services in every load context: the core, plus what each module of the manifest adds. A module declares
 * its own keys by augmenting this interface beside its definition (`declare module "~/lib/context"`), so this
 * file never imports a module.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AppServices extends CoreServices {}

/** The interface the app's server entry offers to server.ts (re-exported from entry.server.tsx). */
export interface AppRuntime {
  services: AppServices;
  /** HTTP settings server.ts applies (it reads no environment of its own beyond NODE_ENV). */
  http: {
    port: number;
    host: string;
    trustProxy: boolean | number | string[];
    production: boolean;
    shutdownTimeoutMs: number;
    maxBodyBytes: number;
    /** A larger body limit for the paths that take file uploads (the files module's), else undefined. */
    uploadBodyLimit(path: string): number | undefined;
    /** The configured public origin (PUBLIC_URL); when it is https, so is this deployment in production. */
    baseUrl: string | undefined;
    /**
     * Whether HSTS on this host name covers its subdomains: the deployment's own names (PUBLIC_URL's,
     * AUTH_URL's, loopback), never a customer's domain, whose other subdomains are the customer's (ADR 025).
     */
    hstsIncludesSubdomains(hostname: string): boolean;
  };
  /** Whether this deployment answers for a host name (app/modules/hosts); server.ts refuses others with 421. */
  servesHost(host: string): Promise<boolean>;
  /**
   * How a request's host and path route before Remix (issue 14, ADR 025; app/modules/hosts/routing.server.ts):
   * the site a verified custom domain serves and the rewritten `/{slug}{path}`, or a 301's target, or why the
   * path is refused (400).
   */
  routeHost(
    host: string,
    url: string,
  ): Promise<{
    site: NonNullable<RequestScope["siteHost"]> | null;
    url: string;
    redirect: string | null;
    refused?: string;
  }>;
  /** The error contract's body, for errors server.ts answers before Remix runs (oversized bodies). */
  errorBody(statusCode: number, message: string): { error: string; message: string; statusCode: number };
  /**
   * Says the server is up, where, how to sign in and where the data lives: a plain-text banner on a
   * developer's terminal, else one JSON record whose message starts "Atrium is listening on <url>".
   */
  announce(url: string, details?: { dev?: boolean }): void;
  /**
   * Writes out the log lines still buffered (waiting at most `timeoutMs`) and drops any later one, so that
   * exiting never waits on the log reader. Called last, right before the process exits.
   */
  endLogs(timeoutMs: number): Promise<void>;
  /**
   * The HTTP server's request handler (issue 15, ADR 026; app/modules/cache/front.server.ts): answers page cache
   * hits itself, before Express, and hands everything else to `inner` (the Express app). `trusted` is Express's
   * `trust proxy fn`, so the cache reads the host and scheme exactly as Express would.
   */
  pageCacheFront(
    inner: (req: IncomingMessage, res: ServerResponse) => void,
    options: {
      trusted(address: string | undefined, hop: number): boolean;
      production: boolean;
      isValidHost(host: string): boolean;
      /** Shared caches (a CDN) may keep what this process keeps: PUBLIC_URL is set (ADR 026). */
      shareable: boolean;
    },
  ): (req: IncomingMessage, res: ServerResponse) => void;
  createLoadContext(scope: RequestScope): { services: AppServices; request: RequestScope };
  close(): Promise<void>;
}

declare module "@remix-run/node" {
  interface AppLoadContext {
    services: AppServices;
    request: RequestScope;
  }
}
