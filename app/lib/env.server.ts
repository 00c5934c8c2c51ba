/**
 * The one place environment variables are read and validated. `.env.example` and the README's table list
 * the same variables with the same defaults; a test keeps the three in step.
 */
import { isIP } from "node:net";
import { z } from "zod";

/** `ip` or `ip:port` (`[v6]:port`), as `dns.Resolver#setServers` takes it. */
function isDnsServer(value: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(value);
  if (bracketed) return isIP(bracketed[1]!) === 6 && (!bracketed[2] || Number(bracketed[2]) <= 65535);
  if (isIP(value)) return true;
  const withPort = /^([\d.]+):(\d{1,5})$/.exec(value);
  return withPort !== null && isIP(withPort[1]!) === 4 && Number(withPort[2]) <= 65535 && Number(withPort[2]) > 0;
}

const flag = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no", "on", "off"])
    .optional()
    .transform((v) => (v === undefined ? fallback : ["true", "1", "yes", "on"].includes(v)));

const int = (fallback: number, min = 0) =>
  z.coerce
    .number()
    .int()
    .min(min)
    .optional()
    .transform((v) => v ?? fallback);

/** Express's `trust proxy`: false, true, a hop count, or a comma list of addresses/subnets. */
const trustProxy = z
  .string()
  .optional()
  .transform((v): boolean | number | string[] => {
    const value = (v ?? "false").trim();
    if (["false", "0", "off", "no", ""].includes(value)) return false;
    if (["true", "on", "yes"].includes(value)) return true;
    if (/^\d+$/.test(value)) return Number(value);
    return value.split(",").map((s) => s.trim());
  });

export const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: int(3000),
  HOST: z.string().default("0.0.0.0"),
  DATABASE_URL: z
    .string()
    .default("file:./data/atrium.db")
    .refine((v) => /^(file:|postgres(ql)?:\/\/)/.test(v), "must start with file: or postgres://"),
  DATABASE_POOL_SIZE: int(10, 1),
  SEED_DEMO: flag(true),
  TRUST_PROXY: trustProxy,
  COOKIE_SECURE: flag(false).optional(),
  SESSION_IDLE_DAYS: int(7, 1),
  SESSION_MAX_DAYS: int(30, 1),
  AUTH_THROTTLE_MAX_FAILURES: int(5, 1),
  AUTH_THROTTLE_WINDOW_MINUTES: int(15, 1),
  SIGNUPS_PER_ADDRESS_PER_HOUR: int(10, 1),
  CONTACT_MESSAGES_PER_ADDRESS_PER_HOUR: int(5, 1),
  /** A customer's session on a site ends after this long unused (ADR 029). */
  CUSTOMER_SESSION_IDLE_DAYS: int(30, 1),
  /** …and this long after sign-in, used or not. */
  CUSTOMER_SESSION_MAX_DAYS: int(90, 1),
  /** Sign-in codes a site sends to one e-mail address per hour (each is an e-mail). */
  CUSTOMER_CODES_PER_EMAIL_PER_HOUR: int(5, 1),
  /** Sign-in codes one client address may ask a site for per hour, whatever the e-mail. */
  CUSTOMER_CODES_PER_ADDRESS_PER_HOUR: int(20, 1),
  /** Requests to /api/v1/* per client address per minute (per site). */
  CUSTOMER_API_PER_ADDRESS_PER_MINUTE: int(300, 1),
  /** Requests to /api/v1/* per signed-in customer per minute. */
  CUSTOMER_API_PER_CUSTOMER_PER_MINUTE: int(120, 1),
  /** New share images (`/{site}/og-image` renders; cached images are free) per client address per minute. */
  OG_RENDERS_PER_ADDRESS_PER_MINUTE: int(30, 1),
  /** Calls of the public `/api/routing-test` per client address per minute. */
  ROUTING_TESTS_PER_ADDRESS_PER_MINUTE: int(60, 1),
  API_AUTH_FAILURES_PER_MINUTE: int(30, 1),
  MAX_BODY_BYTES: int(1_048_576, 1024),
  SHUTDOWN_TIMEOUT_MS: int(10_000, 0),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  LOG_FORMAT: z.enum(["auto", "json", "pretty"]).default("auto"),
  APP_KEY: z
    .string()
    .regex(/^[A-Za-z0-9+/]{43}=$/, "must be 32 bytes in base64 (openssl rand -base64 32)")
    .optional(),
  APP_KEY_FILE: z.string().default("./data/app.key"),
  SOP_TRIGGER_MAX_AGE_SECONDS: int(300, 1),
  /** Events one workspace's sender may post to one family of /api/webhooks/* per minute (ADR 027). */
  WEBHOOKS_PER_WORKSPACE_PER_MINUTE: int(120, 1),
  /** How far an event's `webhook-timestamp` may be from now, either way (the replay window). */
  WEBHOOKS_TOLERANCE_SECONDS: int(300, 1),
  /** How long a rotated event-receiver secret keeps working beside its successor. */
  WEBHOOKS_ROTATION_OVERLAP_HOURS: int(24, 0),
  JOBS_CONCURRENCY: int(2, 0),
  JOBS_POLL_MS: int(1000, 10),
  JOBS_LEASE_MS: int(30_000, 500),
  JOBS_RETRY_BASE_MS: int(2000, 1),
  OUTBOUND_ALLOW_PRIVATE: flag(false),
  OUTBOUND_TIMEOUT_MS: int(10_000, 100),
  OUTBOUND_MAX_RESPONSE_BYTES: int(1_048_576, 1024),
  /** Where IndexNow submissions go (ADR 022): the shared endpoint forwards to every participating engine. */
  INDEXNOW_ENDPOINT: z
    .string()
    .url("must be an absolute URL such as https://api.indexnow.org/indexnow")
    .default("https://api.indexnow.org/indexnow"),
  SMTP_URL: z
    .string()
    .refine((v) => /^smtps?:\/\//.test(v), "must start with smtp:// or smtps://")
    .optional(),
  MAIL_FROM: z.string().default("Atrium <no-reply@atrium.localhost>"),
  PUBLIC_URL: z
    .string()
    .transform((v, ctx) => {
      const url = URL.canParse(v) ? new URL(v) : null;
      const originOnly = url && url.pathname === "/" && !/[?#]/.test(v) && !url.username && !url.password;
      if (url && /^https?:$/.test(url.protocol) && originOnly) return url.origin;
      ctx.addIssue({ code: "custom", message: "must be an origin such as https://atrium.example.com (no path)" });
      return z.NEVER;
    })
    .optional(),
  AUTH_URL: z
    .string()
    .url("must be an absolute URL such as https://auth.example.com")
    .refine((v) => !/[?#]/.test(v), "must not have a query or fragment")
    .optional(),
  DOMAINS_REFRESH_MS: int(30_000, 100),
  /**
   * Where Stripe's API is (ADR 032): a deployment setting, never a workspace's, so an operator cannot send the
   * server's calls (with their secret key) elsewhere. Only tests and local development point it at a fake.
   */
  STRIPE_API_URL: z
    .string()
    .url("must be an absolute URL such as https://api.stripe.com")
    .refine((v) => /^https?:\/\/[^/]+\/?$/.test(v), "must be an origin such as https://api.stripe.com (no path)")
    .default("https://api.stripe.com"),
  /**
   * PayPal's API hosts are fixed by its SDK (sandbox or live, per workspace: both PayPal's own). Only tests and
   * `npm run fake:paypal` send those hosts elsewhere (ADR 035): `PAYPAL_API_ADDRESS` is the loopback `host:port`
   * they then resolve to, and `PAYPAL_API_CA` a PEM file of the certificate authority to trust for it as well.
   */
  PAYPAL_API_ADDRESS: z
    .string()
    .regex(
      /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\]):\d{1,5}$/,
      "must be a loopback host:port such as 127.0.0.1:12113",
    )
    .optional(),
  PAYPAL_API_CA: z.string().min(1).optional(),
  /** How long one call to a payment provider may take before it is abandoned (and retried, where that is safe). */
  PAYMENTS_TIMEOUT_MS: int(15_000, 100),
  /**
   * Where EasyPost's API is (ADR 034), for every workspace, as STRIPE_API_URL is Stripe's: the official client's
   * `baseUrl`, ending in its version (`/v2/`). Only tests and local development point it at a fake.
   */
  EASYPOST_API_URL: z
    .string()
    .url("must be an absolute URL such as https://api.easypost.com/v2/")
    .refine((v) => !/[?#]/.test(v), "must not have a query or fragment")
    .transform((v) => (v.endsWith("/") ? v : `${v}/`))
    .default("https://api.easypost.com/v2/"),
  /** How long one call to a shipping provider may take before it is abandoned. */
  SHIPPING_TIMEOUT_MS: int(15_000, 100),
  /**
   * The assistant's model (ADR 037): an OpenAI-compatible endpoint (a self-hosted Ollama or vLLM: its `/v1`
   * address), with its key and model name. Unset, the assistant runs its offline engine.
   */
  AI_BASE_URL: z
    .string()
    .url("must be an absolute URL such as http://127.0.0.1:11434/v1")
    .refine((v) => !/[?#]/.test(v), "must not have a query or fragment")
    .optional(),
  AI_API_KEY: z.string().min(1).optional(),
  AI_MODEL: z.string().min(1).default("llama3.1"),
  /** How long one answer of the model may take, tools included, before it is abandoned. */
  AI_TIMEOUT_MS: int(60_000, 1000),
  /** The site assistant's allowance: messages per visitor (or customer) and per client address, per hour. */
  CHAT_VISITOR_MESSAGES_PER_HOUR: int(30, 1),
  CHAT_ADDRESS_MESSAGES_PER_HOUR: int(120, 1),
  /** The page cache (ADR 026): its memory in bytes (0 turns it off), the largest answer it keeps, how long at most. */
  PAGE_CACHE_MAX_BYTES: int(67_108_864, 0),
  PAGE_CACHE_MAX_ENTRY_BYTES: int(1_048_576, 1),
  PAGE_CACHE_TTL_SECONDS: int(86_400, 1),
  /** Where each purge's tags are POSTed (a CDN's purge relay), signed with the `whsec_` secret below. */
  PAGE_CACHE_PURGE_HOOK_URL: z
    .string()
    .url("must be an absolute URL such as https://cdn-relay.example.com/purge")
    .optional(),
  PAGE_CACHE_PURGE_HOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, "must be a Standard Webhooks secret: whsec_ followed by base64")
    .optional(),
  OAUTH_TOKEN_REQUESTS_PER_MINUTE: int(60, 1),
  OAUTH_AUTHORIZE_REQUESTS_PER_MINUTE: int(60, 1),
  FILES_DIR: z.string().default("./data/files"),
  FILES_MAX_BYTES: int(5_242_880, 1024),
  FILES_QUOTA_MB: int(500, 1),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default("us-east-1"),
  S3_ENDPOINT: z.string().url("must be a URL such as https://s3.example.com").optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: flag(false),
  S3_PREFIX: z.string().default(""),
  /** Resolvers for custom-domain checks, `ip[:port]` comma-separated (ADR 024); empty: the system's. */
  DNS_SERVERS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const servers = (v ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      for (const server of servers) {
        if (!isDnsServer(server)) {
          ctx.addIssue({ code: "custom", message: `${server} is not an address such as 9.9.9.9 or 127.0.0.1:5353` });
          return z.NEVER;
        }
      }
      return servers;
    }),
  DNS_TIMEOUT_MS: int(3000, 100),
  DOMAIN_CNAME_TARGET: z
    .string()
    .regex(
      /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}\.?$/i,
      "must be a host name such as sites.example.com",
    )
    .transform((v) => v.toLowerCase().replace(/\.$/, ""))
    .optional(),
  DOMAIN_TARGET_ADDRESSES: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const addresses = (v ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      const wrong = addresses.find((a) => isIP(a) === 0);
      if (wrong) {
        ctx.addIssue({ code: "custom", message: `${wrong} is not an IPv4 or IPv6 address` });
        return z.NEVER;
      }
      return addresses.map((a) => (isIP(a) === 6 ? a.toLowerCase() : a));
    }),
  DOMAINS_ASK_SECRET: z.string().min(16, "use at least 16 characters (openssl rand -hex 16)").optional(),
});

export type Env = z.output<typeof EnvSchema> & { production: boolean; cookieSecure: boolean };

export function parseEnv(source: Record<string, string | undefined>): Env {
  // An empty value means "not set", as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  const production = result.data.NODE_ENV === "production";
  return { ...result.data, production, cookieSecure: result.data.COOKIE_SECURE ?? production };
}
