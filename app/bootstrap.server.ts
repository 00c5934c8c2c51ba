/**
 * Starts the application side of Atrium once per process: configuration, database (migrated), demo seed,
 * shared services. server.ts reaches this through the Remix server build (entry.server re-exports it),
 * so server.ts never imports app modules.
 */
import { pino, type Logger } from "pino";
import { openDatabase } from "~db/client";
import { migrateToLatest } from "~db/migrate";
import { DEMO_OPERATOR, demoOperatorExists, seedDemo } from "~db/seed";
import type { AppRuntime, AppServices, RequestScope } from "~/lib/context";
import { parseEnv } from "~/lib/env.server";
import { errorBody } from "~/lib/http.server";
import { createAuthThrottle } from "~/modules/auth/throttle.server";
import { createApiRateLimit } from "~/modules/rate-limit/api-rate-limit.server";
import { createBearerFailures } from "~/modules/auth/bearer-failures.server";
import { createJobRunner } from "~/modules/jobs/jobs.server";
import { createMailer } from "~/modules/mail/mail.server";
import { createOAuthThrottle } from "~/modules/oauth/throttle.server";
import { purgeExpired } from "~/modules/jobs/maintenance.server";
import { COMPLETION_JOB, RUN_JOB, completionHandler, runHandler } from "~/modules/sops/runs.server";
import { createSecretBox, loadAppKey } from "~/modules/secrets/secret-box.server";
import { version } from "../package.json";

export interface BootstrapOptions {
  /** Values that take precedence over process.env (tests start servers with their own database). */
  env?: Record<string, string | undefined>;
  logger?: Logger;
  devServer?: boolean;
}

export async function bootstrap(options: BootstrapOptions = {}): Promise<AppRuntime> {
  const env = parseEnv({ ...process.env, ...options.env });
  const logger = options.logger ?? pino({ level: env.LOG_LEVEL, base: { service: "atrium" } });
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

    if (!env.APP_KEY && handle.dialect === "postgres") {
      logger.warn(
        { path: env.APP_KEY_FILE },
        "no APP_KEY: using the key file, which other nodes do not share; set APP_KEY on every node",
      );
    }
    const secrets = createSecretBox(loadAppKey(env, logger));
    const mailer = createMailer(handle.db, env, logger);
    const outbound = {
      allowPrivateNetworks: env.OUTBOUND_ALLOW_PRIVATE,
      requireHttps: env.production,
      timeoutMs: env.OUTBOUND_TIMEOUT_MS,
      maxResponseBytes: env.OUTBOUND_MAX_RESPONSE_BYTES,
      maxRedirects: 3,
    };
    if (env.OUTBOUND_ALLOW_PRIVATE && env.production) {
      logger.warn("OUTBOUND_ALLOW_PRIVATE=true lets SOPs reach this server's private network");
    }
    const runDeps = { db: handle.db, mailer, outbound, logger, box: secrets };
    const jobRunner = createJobRunner({
      db: handle.db,
      dialect: handle.dialect,
      logger,
      handlers: { [RUN_JOB]: runHandler(runDeps), [COMPLETION_JOB]: completionHandler(runDeps) },
      concurrency: env.JOBS_CONCURRENCY,
      pollMs: env.JOBS_POLL_MS,
      leaseMs: env.JOBS_LEASE_MS,
      retryBaseMs: env.JOBS_RETRY_BASE_MS,
      maintenance: () => purgeExpired(handle.db),
    });

    const services: AppServices = {
      env,
      version,
      db: handle.db,
      dialect: handle.dialect,
      logger,
      authThrottle: createAuthThrottle(handle, env),
      apiRateLimit: createApiRateLimit(handle.db),
      oauthRateLimit: createApiRateLimit(handle.db, "oauth_rate_windows"),
      oauthThrottle: createOAuthThrottle(handle, env),
      authFailures: createBearerFailures(handle, env.API_AUTH_FAILURES_PER_MINUTE),
      devServer: options.devServer ?? false,
      secrets,
      mailer,
      outbound,
      jobRunner,
      ping: () => handle.ping(),
    };
    jobRunner.start();

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
      createLoadContext: (request: RequestScope) => ({ services, request }),
      close: async () => {
        await jobRunner.stop(env.SHUTDOWN_TIMEOUT_MS);
        await handle.close();
      },
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
