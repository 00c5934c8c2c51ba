/**
 * What travels from server.ts into loaders and actions (`getLoadContext`). server.ts builds the request
 * scope (HTTP facts it alone knows: request id, client address, CSP nonce); the app builds the services.
 */
import type { Logger } from "pino";
import type { Db, Dialect } from "~db/client";
import type { BearerFailures } from "~/modules/auth/bearer-failures.server";
import type { AuthThrottle } from "~/modules/auth/throttle.server";
import type { ApiRateLimit } from "~/modules/rate-limit/api-rate-limit.server";
import type { Env } from "~/lib/env.server";
import type { JobRunner } from "~/modules/jobs/jobs.server";
import type { Mailer } from "~/modules/mail/mail.server";
import type { OAuthThrottle } from "~/modules/oauth/throttle.server";
import type { OutboundPolicy } from "~/modules/outbound/outbound-http.server";
import type { SecretBox } from "~/modules/secrets/secret-box.server";

/** The spec's caller types, plus the integrator of the token API and the signer of SOP triggers. */
export type CallerType =
  "public" | "customer" | "operator" | "integrator" | "trigger" | "scheduler" | "provider" | "internal";

/** The spec's diagnosis order: cache, authorization, validation, provider state, missing data. */
export type FailureCategory = "cache" | "authorization" | "validation" | "provider" | "missing-data" | "server";

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
  log: RequestLog;
  logger: Logger;
}

export interface AppServices {
  env: Env;
  version: string;
  db: Db;
  dialect: Dialect;
  logger: Logger;
  authThrottle: AuthThrottle;
  /** Per-key limits of the token API. */
  apiRateLimit: ApiRateLimit;
  /** The same limits per OAuth grant (client and user), for access tokens. */
  oauthRateLimit: ApiRateLimit;
  oauthThrottle: OAuthThrottle;
  /** Failed bearer authentications per client address (API_AUTH_FAILURES_PER_MINUTE). */
  authFailures: BearerFailures;
  /** Served through Vite's dev server (npm run dev): documents allow its injected styles and HMR socket. */
  devServer: boolean;
  /** Seals secrets we must use again (AES-256-GCM under the app key). */
  secrets: SecretBox;
  mailer: Mailer;
  /** The policy of every outbound call to a URL an operator typed. */
  outbound: OutboundPolicy;
  /** This process's job runner (idle when JOBS_CONCURRENCY=0); `wake` after queueing a job. */
  jobRunner: JobRunner;
  ping(): Promise<void>;
}

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
  };
  /** The error contract's body, for errors server.ts answers before Remix runs (oversized bodies). */
  errorBody(statusCode: number, message: string): { error: string; message: string; statusCode: number };
  createLoadContext(scope: RequestScope): { services: AppServices; request: RequestScope };
  close(): Promise<void>;
}

declare module "@remix-run/node" {
  interface AppLoadContext {
    services: AppServices;
    request: RequestScope;
  }
}
