/**
 * The command line of a self-hosted Atrium: `npm run db:migrate`, `npm run db:seed` and
 * `npm run admin -- <command>`. Reached through the server build (entry.server re-exports `runCli`).
 */
import { parseArgs } from "node:util";
import { openDatabase, type DatabaseHandle, type Db } from "~db/client";
import { registerAnnouncingPurger } from "~/modules/cache/module.server";
import { migrateToLatest } from "~db/migrate";
import { seedDemo, DEMO_OPERATOR } from "~/modules/onboarding/demo.server";
import { DomainError, notFound } from "~/lib/errors";
import { parseEnv } from "~/lib/env.server";
import {
  TierSchema,
  createUser,
  deleteAccount,
  findUserByEmail,
  setRateLimits,
  setStatus,
  setTier,
} from "~/modules/accounts/users.server";
import { apiKeysOf } from "~/modules/api-keys/api-keys.server";
import { createInviteThrottle } from "~/modules/rate-limit/invite-throttle.server";
import { createAuthThrottle } from "~/modules/rate-limit/auth-throttle.server";
import { workspacesOfUser } from "~/modules/tenancy/workspaces.server";

export const ADMIN_USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  users:create --email <email> --password <password> [--tier free|pro|enterprise]
  users:set-tier <email> <free|pro|enterprise>
  users:suspend <email> [--undo]       suspend (sign out everywhere; stop its workspaces' triggers, runs and
                                       sites), or reactivate with --undo
  users:delete <email> --yes           delete the account and every workspace it owns
  users:show <email>
  users:set-limits <email> --per-hour <n> --burst <n>   an enterprise account's token-API limits
  keys:create <email> --name <name> [--environment live|test] [--expires-in-days <n>]
                                       prints the new API key once (for scripts and provisioning)`;

interface Io {
  out(line: string): void;
  err(line: string): void;
}

const consoleIo: Io = { out: (l) => console.log(l), err: (l) => console.error(l) };

class UsageError extends Error {}

/** Every command works on a migrated database; `applied` names the migrations this run applied. */
async function withDatabase<T>(run: (db: Db, applied: string[], handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const env = parseEnv(process.env);
  const handle = openDatabase(env.DATABASE_URL, { poolSize: 2 });
  // What a command changes on public pages reaches the running servers' page caches (ADR 026).
  registerAnnouncingPurger(handle, env.DATABASE_URL);
  try {
    const applied = await migrateToLatest(handle.db);
    return await run(handle.db, applied, handle);
  } finally {
    await handle.close();
  }
}

async function admin(args: string[], io: Io): Promise<void> {
  const [command, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      email: { type: "string" },
      password: { type: "string" },
      tier: { type: "string" },
      yes: { type: "boolean", default: false },
      "per-hour": { type: "string" },
      burst: { type: "string" },
      name: { type: "string" },
      environment: { type: "string" },
      "expires-in-days": { type: "string" },
      undo: { type: "boolean", default: false },
    },
  });
  const need = (value: string | undefined, what: string) => {
    if (!value) throw new UsageError(`${command}: missing ${what}`);
    return value;
  };
  const count = (value: string | undefined, what: string) => {
    const n = Number(need(value, what));
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`${what} must be a whole number above 0`);
    return n;
  };
  const tierOf = (value: string) => {
    const parsed = TierSchema.safeParse(value);
    if (!parsed.success) throw new UsageError(`Unknown tier "${value}": use free, pro or enterprise`);
    return parsed.data;
  };

  switch (command) {
    case "users:create": {
      const tier = values.tier ? tierOf(values.tier) : "free";
      const user = await withDatabase((db) =>
        createUser(db, { email: need(values.email, "--email"), password: need(values.password, "--password"), tier }),
      );
      io.out(`Created ${user.email} (id ${user.id}, tier ${user.tier}).`);
      return;
    }
    case "users:set-tier": {
      const email = need(positionals[0], "<email>");
      const tier = tierOf(need(positionals[1], "<tier>"));
      const user = await withDatabase((db) => setTier(db, email, tier));
      io.out(`${user.email} is now on the ${user.tier} tier.`);
      return;
    }
    case "users:suspend": {
      const email = need(positionals[0], "<email>");
      const user = await withDatabase((db) => setStatus(db, email, values.undo ? "active" : "suspended"));
      io.out(
        user.status === "suspended"
          ? `${user.email} is suspended and signed out everywhere; its workspaces' triggers and sites are stopped` +
              (user.cancelledRuns ? ` and ${user.cancelledRuns} unfinished SOP runs cancelled.` : ".")
          : `${user.email} is active again; runs cancelled by the suspension stay cancelled.`,
      );
      return;
    }
    case "users:delete": {
      const email = need(positionals[0], "<email>");
      if (!values.yes) {
        throw new UsageError(
          `Deleting ${email} removes every workspace it owns and cannot be undone. Add --yes to confirm.`,
        );
      }
      const owned = await withDatabase(async (db, _applied, handle) => {
        const user = await findUserByEmail(db, email);
        if (!user) throw notFound(`No account with the email ${email}`);
        const workspaces = (await workspacesOfUser(db, user.id)).filter((w) => w.role === "owner");
        const authThrottle = createAuthThrottle(handle, parseEnv(process.env));
        await deleteAccount({ db, authThrottle, inviteThrottle: createInviteThrottle(handle) }, user);
        return workspaces;
      });
      io.out(`Deleted ${email} and ${owned.length} workspace${owned.length === 1 ? "" : "s"} it owned.`);
      // The running app tells a deleted shop's providers (its modules' farewells); this process starts none.
      if (owned.length > 0)
        io.out(
          "Payment and shipping providers those workspaces connected were not told: end their subscriptions and remove Atrium's webhooks in the providers' dashboards (deleting from Settings → Your account tells them).",
        );
      return;
    }
    case "users:show": {
      const email = need(positionals[0], "<email>");
      const found = await withDatabase(async (db) => {
        const user = await findUserByEmail(db, email);
        return user ? { user, workspaces: await workspacesOfUser(db, user.id) } : undefined;
      });
      if (!found) throw notFound(`No account with the email ${email}`);
      const { user, workspaces } = found;
      io.out(`${user.email}  id ${user.id}  tier ${user.tier}  status ${user.status}  since ${user.created_at}`);
      for (const w of workspaces) io.out(`  ${w.role.padEnd(6)} ${w.slug}  (${w.name})`);
      return;
    }
    case "users:set-limits": {
      const email = need(positionals[0], "<email>");
      const limits = { perHour: count(values["per-hour"], "--per-hour"), burst: count(values.burst, "--burst") };
      const user = await withDatabase((db) => setRateLimits(db, email, limits));
      io.out(`${user.email} may make ${limits.perHour} requests per hour per key, ${limits.burst} per minute.`);
      return;
    }
    case "keys:create": {
      const email = need(positionals[0], "<email>");
      const environment = values.environment ?? "live";
      if (environment !== "live" && environment !== "test") throw new UsageError("--environment is live or test");
      const expiresInDays = values["expires-in-days"] ? count(values["expires-in-days"], "--expires-in-days") : null;
      const created = await withDatabase(async (db) => {
        const user = await findUserByEmail(db, email);
        if (!user) throw notFound(`No account with the email ${email}`);
        return apiKeysOf(db, user).generate({
          name: need(values.name, "--name"),
          environment,
          expiresInDays,
          workspaceId: null,
        });
      });
      // The key alone on stdout, so `KEY=$(npm run -s admin -- keys:create …)` works; the rest on stderr.
      io.err(`Created key "${created.view.name}" (${created.view.displayPrefix}…) for ${email}. It is shown only now:`);
      io.out(created.key);
      return;
    }
    default:
      throw new UsageError(command ? `Unknown command "${command}"` : "No command given");
  }
}

/** Runs one CLI command; returns the process exit code (0 ok, 1 failed, 2 usage). */
export async function runCli(argv: string[], io: Io = consoleIo): Promise<number> {
  const [command, ...args] = argv;
  try {
    if (command === "migrate") {
      const applied = await withDatabase((_db, names) => Promise.resolve(names));
      io.out(applied.length ? `Applied ${applied.join(", ")}.` : "The database is up to date.");
    } else if (command === "seed") {
      const seeded = await withDatabase((db) => seedDemo(db));
      io.out(
        seeded
          ? `Seeded the demo: sign in as ${DEMO_OPERATOR.email} / ${DEMO_OPERATOR.password}.`
          : "The database already has accounts; the demo is seeded only into an empty database.",
      );
    } else if (command === "admin") {
      if (args.length === 0 || args[0] === "--help" || args[0] === "help") {
        io.out(ADMIN_USAGE);
        return args.length === 0 ? 2 : 0;
      }
      await admin(args, io);
    } else {
      io.err(`Unknown command "${command ?? ""}"`);
      return 2;
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${ADMIN_USAGE}`);
      return 2;
    }
    if (error instanceof DomainError) {
      const detail = error.detail.issues?.map((i) => `  ${i.field}: ${i.message}`).join("\n");
      io.err(`Error: ${error.message}${detail ? `\n${detail}` : ""}`);
      return 1;
    }
    io.err(`Error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
