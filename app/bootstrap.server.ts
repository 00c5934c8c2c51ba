/**
 * Starts the application side of Atrium once per process: configuration, database (migrated), demo seed,
 * then the modules of the manifest (app/modules/manifest.server.ts) — their services, their contributions
 * to each other (job handlers, maintenance), their start. server.ts reaches this through the Remix server build (entry.server re-exports it),
 * so server.ts never imports app modules.
 */
import { resolve } from "node:path";
import type { Logger } from "pino";
import { openDatabase } from "~db/client";
import { migrateToLatest } from "~db/migrate";
import { DEMO_OPERATOR, demoState, seedDemo } from "~/modules/onboarding/demo.server";
import { startBanner } from "~/modules/onboarding/start-banner.server";
import type { AppRuntime, AppServices, RequestScope } from "~/lib/context";
import type { AtriumModule, ModuleContributions } from "~/lib/module";
import { parseEnv } from "~/lib/env.server";
import { stdoutLogDestination } from "~/lib/log-destination.server";
import { writeHealth } from "~/lib/write-health.server";
import { errorBody } from "~/lib/http.server";
import { createProcessLogger, type ProcessLogger } from "~/lib/logger.server";
import { uploadBodyLimit } from "~/modules/files/upload.server";
import { configuredHosts, hostnameOf, isLoopback } from "~/modules/hosts/hosts.server";
import { routeHost } from "~/modules/hosts/routing.server";
import { MODULES } from "~/modules/manifest.server";
import { version } from "../package.json";

export interface BootstrapOptions {
  /** Values that take precedence over process.env (tests start servers with their own database). */
  env?: Record<string, string | undefined>;
  logger?: Logger;
  devServer?: boolean;
}

export async function bootstrap(options: BootstrapOptions = {}): Promise<AppRuntime> {
  const env = parseEnv({ ...process.env, ...options.env });
  // A caller's logger (tests read its JSON lines) is used as given; ours writes to stdout, ended before exit.
  const stdout = options.logger ? undefined : stdoutLogDestination();
  const output: ProcessLogger = options.logger
    ? { logger: options.logger, format: "json", print: () => {} }
    : createProcessLogger(env, stdout!.destination);
  const logger = output.logger;
  const handle = openDatabase(env.DATABASE_URL, { poolSize: env.DATABASE_POOL_SIZE });
  try {
    const applied = await migrateToLatest(handle.db);
    if (applied.length) logger.info({ migrations: applied }, "database migrated");

    // The credentials go to the start-up banner (announce), not into a log record.
    if (env.SEED_DEMO && (await seedDemo(handle.db, env)))
      logger.info({ email: DEMO_OPERATOR.email }, "demo data seeded");
    const demo = await demoState(handle.db);
    if (env.production && demo) {
      logger.warn(
        { email: DEMO_OPERATOR.email },
        "the demo operator exists on a production server: delete it with `npm run admin -- users:delete " +
          `${DEMO_OPERATOR.email} --yes\` and start with SEED_DEMO=false`,
      );
    }

    if (env.TRUST_PROXY === true) {
      logger.warn(
        "TRUST_PROXY=true believes the left-most X-Forwarded-For entry, which a client can write: " +
          "name your proxies instead (a hop count, `loopback`, or their addresses)",
      );
    }

    if (env.production && env.TRUST_PROXY === false) {
      logger.warn(
        "NODE_ENV=production without TRUST_PROXY: this server cannot tell https from http, so it redirects " +
          "nothing to https and sends HSTS only when PUBLIC_URL is https; name the proxy that terminates TLS",
      );
    }

    // The core, then each module's services in manifest order (ADR 001).
    const services = {
      env,
      version,
      db: handle.db,
      dialect: handle.dialect,
      logger,
      devServer: options.devServer ?? false,
      ping: () => handle.ping(),
      writes: writeHealth(() => handle.probeWrite(), logger),
    } as AppServices;
    for (const module of MODULES) Object.assign(services, module.services?.(services, handle));
    const contributions: Partial<ModuleContributions>[] = MODULES.map((m) => m.contributes?.(services) ?? {});
    const started: AtriumModule[] = [];
    try {
      for (const module of MODULES) {
        module.start?.(services, contributions);
        started.push(module);
      }
    } catch (error) {
      // Whatever already runs (the job runner) must not outlive the database closed below.
      for (const module of started.reverse()) await module.stop?.(services);
      throw error;
    }

    const ownHostnames = new Set(configuredHosts(env).map((host) => host.hostname));
    return {
      services,
      http: {
        port: env.PORT,
        host: env.HOST,
        trustProxy: env.TRUST_PROXY,
        production: env.production,
        shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
        maxBodyBytes: env.MAX_BODY_BYTES,
        uploadBodyLimit: (path) => uploadBodyLimit(path, env),
        baseUrl: env.PUBLIC_URL,
        hstsIncludesSubdomains: (hostname) => isLoopback(hostname) || ownHostnames.has(hostnameOf(hostname) ?? ""),
      },
      servesHost: (host) => services.hosts.serves(host),
      routeHost: (host, url) => routeHost(services.siteDomains, host, url, { dev: options.devServer ?? false }),
      errorBody,
      announce: (url, details = {}) => {
        const banner = startBanner({
          url,
          production: env.production,
          dev: details.dev ?? false,
          dialect: handle.dialect,
          databaseUrl: env.DATABASE_URL,
          appKey: env.APP_KEY ? { source: "env" } : { source: "file", path: resolve(env.APP_KEY_FILE) },
          demo,
        });
        if (output.format === "pretty") output.print(banner.text);
        else logger.info(banner.fields, banner.message);
      },
      endLogs: (timeoutMs: number) => stdout?.end(timeoutMs) ?? Promise.resolve(),
      pageCacheFront: (inner, options) => services.pageCache.front(inner, options),
      createLoadContext: (request: RequestScope) => {
        // Every request that reaches Remix passes here once: the page cache's render counter (a hit never does).
        services.pageCache.countRender();
        return { services, request };
      },
      close: async () => {
        for (const module of [...MODULES].reverse()) await module.stop?.(services);
        await handle.close();
      },
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
