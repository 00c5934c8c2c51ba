/**
 * Changing a constraint SQLite declared inside `CREATE TABLE` (an inline `UNIQUE`, say): SQLite cannot drop
 * it, so the table is rebuilt the way SQLite documents (https://sqlite.org/lang_altertable.html#otheralter):
 * create the new shape, copy every row, drop the old table, rename the new one, recreate the indexes — in one
 * transaction, so a failure leaves the old table as it was.
 *
 * Released migrations call these: change what they do only by adding a new function beside them.
 */
import { SqliteAdapter, sql, type CreateTableBuilder, type Kysely } from "kysely";

export function isSqlite(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

export async function rebuildSqliteTable(
  db: Kysely<unknown>,
  table: string,
  /** The new shape: every column of the old table, by the same names, in the same order. */
  define: (builder: CreateTableBuilder<string>) => CreateTableBuilder<string>,
  /** Recreates the table's indexes: dropping the old table dropped them. */
  indexes: (trx: Kysely<unknown>) => Promise<void>,
): Promise<void> {
  // Foreign keys stay enforced during migrations (db/client.ts turns them on for the connection, and SQLite
  // ignores PRAGMA foreign_keys inside a transaction), so dropping a table that others reference would
  // cascade-delete their rows. Only tables nothing references are rebuilt this way.
  const referencing = await sql<{ name: string }>`
    select m.name from sqlite_master m, pragma_foreign_key_list(m.name) f
    where m.type = 'table' and f."table" = ${table}`.execute(db);
  if (referencing.rows.length > 0) {
    throw new Error(`${table} is referenced by ${referencing.rows.map((r) => r.name).join(", ")}: not rebuilt`);
  }
  const columns = async (trx: Kysely<unknown>, name: string) =>
    (await sql<{ name: string }>`select name from pragma_table_info(${name}) order by cid`.execute(trx)).rows.map(
      (c) => c.name,
    );
  const next = `${table}_rebuilt`;

  await db.transaction().execute(async (trx) => {
    await define(trx.schema.createTable(next)).execute();
    const old = await columns(trx, table);
    const fresh = await columns(trx, next);
    if (old.join() !== fresh.join()) throw new Error(`${table}: columns ${old.join()} became ${fresh.join()}`);
    const list = sql.join(old.map((c) => sql.ref(c)));
    await sql`insert into ${sql.table(next)} (${list}) select ${list} from ${sql.table(table)}`.execute(trx);
    await trx.schema.dropTable(table).execute();
    await trx.schema.alterTable(next).renameTo(table).execute();
    await indexes(trx);
  });
}
