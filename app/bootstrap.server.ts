/**
 * Starts the application side of Atrium once per process: configuration, database (migrated), demo seed,
 * then the modules of the manifest (app/modules/manifest.server.ts) — their services, their contributions
 * to each other (job handlers, maintenance), their start. server.ts reaches this through the Remix server build (entry.server re-exports it),
 * so server.ts never imports app modules.
 */
import { pino, type Logger } from "pino";
import { openDatabase } from "~db/client";
import { migrateToLatest } from "~db/migrate";
import { DEMO_OPERATOR, demoOperatorExists, seedDemo } from "~/modules/onboarding/demo.server";
import type { AppRuntime, AppServices, RequestScope } from "~/lib/context";
import type { AtriumModule, ModuleContributions } from "~/lib/module";
import { parseEnv } from "~/lib/env.server";
import { stdoutLogDestination } from "~/lib/log-destination.server";
import { writeHealth } from "~/lib/write-health.server";
import { errorBody } from "~/lib/http.server";
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
  const stdout = options.logger ? undefined : stdoutLogDestination();
  const logger = options.logger ?? pino({ level: env.LOG_LEVEL, base: { service: "atrium" } }, stdout!.destination);
  const handle = openDatabase(env.DATABASE_URL, { poolSize: env.DATABASE_POOL_SIZE });
  try {
    const applied = await migrateToLatest(handle.db);
    if (applied.length) logger.info({ migrations: applied }, "database migrated");

    if (env.SEED_DEMO && (await seedDemo(handle.db))) {
      logger.info(`demo data seeded: sign in as ${DEMO_OPERATOR.email} / ${DEMO_OPERATOR.password}`);
    }
    if (env.production && (await demoOperatorExists(handle.db))) {
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

    return {
      services,
      http: {
        port: env.PORT,
        host: env.HOST,
        trustProxy: env.TRUST_PROXY,
        production: env.production,
        shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
        maxBodyBytes: env.MAX_BODY_BYTES,
      },
      errorBody,
      endLogs: (timeoutMs: number) => stdout?.end(timeoutMs) ?? Promise.resolve(),
      createLoadContext: (request: RequestScope) => ({ services, request }),
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
