/**
 * The one place that knows which SQL engine is underneath (DESIGN rule 5: dialect branches live in db/).
 * `file:` URLs open the embedded SQLite database; `postgres://` URLs open a pg Pool.
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, sql, type Driver, type SqliteDialectConfig } from "kysely";
import pg from "pg";
import type { Database } from "./schema";

export type Dialect = "sqlite" | "postgres";
export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /**
   * A driver-level client for libraries that bring their own queries (rate-limiter-flexible). On SQLite it
   * is a second connection to the same file: writes through Kysely's connection would land inside
   * whatever transaction another request has open on it.
   */
  sideClient(): { dialect: "sqlite"; client: SQLite.Database } | { dialect: "postgres"; client: pg.Pool };
  ping(): Promise<void>;
  /**
   * Rewrites the one row of `health_probe`: rejects when the database cannot write (a full disk, a
   * read-only volume), which a `select 1` would never notice.
   */
  probeWrite(): Promise<void>;
  close(): Promise<void>;
}

export function dialectOf(url: string): Dialect {
  if (url.startsWith("file:")) return "sqlite";
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) return "postgres";
  throw new Error(`DATABASE_URL must start with file: or postgres:// (got "${url.split(":")[0]}:")`);
}

/** `file:./data/atrium.db` → absolute path, relative to the working directory. */
export function sqlitePath(url: string): string {
  const path = url.slice("file:".length).replace(/^\/\/(?=\/)/, "");
  return path === ":memory:" ? path : resolve(path);
}

function connectSqlite(path: string): SQLite.Database {
  const client = new SQLite(path);
  client.pragma("journal_mode = WAL");
  // Off by default in SQLite; every ON DELETE CASCADE depends on it.
  client.pragma("foreign_keys = ON");
  client.pragma("busy_timeout = 5000");
  client.pragma("synchronous = NORMAL");
  return client;
}

/**
 * Kysely prepares every SQLite statement anew; preparing costs more than running most of our queries. Reuse
 * prepared statements by their SQL text (bounded). Safe because Kysely runs one query at a time per
 * connection, so a cached statement is never in use twice at once.
 */
function withStatementCache(client: SQLite.Database, size = 500) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => client.close(),
    prepare(source: string) {
      let statement = statements.get(source);
      if (statement) {
        // Most recently used last, so the first entry is the one to evict.
        statements.delete(source);
      } else {
        statement = client.prepare(source);
        if (statements.size >= size) statements.delete(statements.keys().next().value!);
      }
      statements.set(source, statement);
      return statement;
    },
  };
}

/**
 * SQLite rolls a transaction back by itself after some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM…).
 * Kysely's own rollback then fails with "no transaction is active", and that error replaced the one that
 * mattered: a full disk answered 500 instead of 503. Roll back only a transaction that is still open.
 */
class SqliteDialectKeepingCause extends SqliteDialect {
  constructor(
    private readonly client: SQLite.Database,
    config: SqliteDialectConfig,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.rollbackTransaction = async (connection) => {
      if (this.client.inTransaction) await rollback(connection);
    };
    return driver;
  }
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

export function openDatabase(url: string, options: { poolSize?: number } = {}): DatabaseHandle {
  if (dialectOf(url) === "sqlite") {
    const path = sqlitePath(url);
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    const client = connectSqlite(path);
    const db = new Kysely<Database>({
      dialect: new SqliteDialectKeepingCause(client, { database: withStatementCache(client) }),
    });
    let side: SQLite.Database | undefined;
    return {
      db,
      dialect: "sqlite",
      sideClient: () => ({ dialect: "sqlite", client: (side ??= path === ":memory:" ? client : connectSqlite(path)) }),
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      probeWrite: () => probeWrite(db),
      close: once(async () => {
        await db.destroy();
        if (side?.open) side.close();
      }),
    };
  }

  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5_000,
    // Counts and sums come back as int8/numeric; the app works in JS numbers (ids are text, so no overflow risk).
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8_OID || oid === NUMERIC_OID
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client erroring (server restart) must not crash the process; the next query reconnects.
  pool.on("error", () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: "postgres",
    sideClient: () => ({ dialect: "postgres", client: pool }),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    probeWrite: () => probeWrite(db),
    close: once(() => db.destroy()),
  };
}

async function probeWrite(db: Db): Promise<void> {
  const checkedAt = new Date().toISOString();
  await db
    .insertInto("health_probe")
    .values({ id: "write-probe", checked_at: checkedAt })
    .onConflict((oc) => oc.column("id").doUpdateSet({ checked_at: checkedAt }))
    .execute();
}

/** Closing twice (shutdown racing a failed health check, say) is a no-op, not a pool error. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}

/** Every table of the connected database (the account-deletion test audits them all). */
export async function listTables(db: Db, dialect: Dialect): Promise<string[]> {
  if (dialect === "sqlite") {
    const rows = await sql<{ name: string }>`
      select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db);
    return rows.rows.map((r) => r.name);
  }
  const rows = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
  return rows.rows.map((r) => r.name);
}

/** A unique constraint refused the write (SQLite: SQLITE_CONSTRAINT_UNIQUE/PRIMARYKEY; Postgres: 23505). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

/**
 * The database refused a write for want of space: SQLite's SQLITE_FULL (a full disk, or `max_page_count`
 * reached), Postgres's SQLSTATE 53100 (disk_full). Answered 503, not 500: nothing is wrong with the request.
 */
export function isStorageFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_FULL" || code === "53100";
}

/**
 * The database refuses every write: SQLite's SQLITE_READONLY and its extended codes (a read-only file or
 * volume, `query_only`), Postgres's SQLSTATE 25006 (read_only_sql_transaction: a standby, or
 * `default_transaction_read_only`). Unlike a busy lock or a statement timeout, it lasts until someone acts.
 */
export function isReadOnly(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "25006" || (typeof code === "string" && /^SQLITE_READONLY(_|$)/.test(code));
}
