import { sql, type Kysely } from "kysely";
import { isSqlite } from "./sqlite-rebuild";

/**
 * The page cache's purge log on SQLite (issue 15, ADR 026; db/cache-bus.ts): each purge is a row inserted in
 * the writing transaction, so another process sharing the file (the CLI, a second server) reads exactly the
 * committed purges, in commit order, by polling for a `seq` past the last one it saw. Postgres announces
 * purges with NOTIFY and never writes here; the table exists on both so the schema is the same.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // SQLite's AUTOINCREMENT never reuses a committed number and rolls back with its transaction; writers are
  // serialised, so readers see the numbers in commit order without gaps.
  const seq = isSqlite(db)
    ? sql`integer primary key autoincrement`
    : sql`bigint generated always as identity primary key`;
  await sql`create table cache_purges (
    seq ${seq},
    origin text not null,
    tags text not null,
    created_at text not null
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("cache_purges").execute();
}
