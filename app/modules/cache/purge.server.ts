/**
 * The one way a write makes public pages current (issue 15, item 2; ADR 026): module functions that change what
 * a public answer shows call `writeAndPurge` (a transaction whose commit purges the tags) or, after a write that
 * needs no transaction, `purgeTags`. The console, the editor API and the event receivers all reach the same
 * module function, so there is one copy of each write and one purge.
 *
 * The cache a database's writes purge is found from the database handle itself (registered by the cache module
 * at bootstrap), so repositories keep their `(db, workspaceId)` shape. A handle with no cache registered (the
 * CLI, seeds, unit tests) purges nothing here; on Postgres its announcement still reaches every running node.
 */
import type { Kysely, Transaction } from "kysely";
import type { Database } from "~db/schema";
import type { Db } from "~db/client";

export interface CachePurger {
  /**
   * Inside the writing transaction, so it takes effect exactly at commit: on Postgres a NOTIFY every node
   * receives; on SQLite a row of `cache_purges` every process polls (a rolled-back write announces nothing either
   * way). Also queues the outbound
   * purge hook's job, when there is one (./hook.server.ts).
   */
  announce(trx: Kysely<Database>, tags: readonly string[]): Promise<void>;
  /** After commit: this process's cache and its observers. */
  purged(tags: readonly string[]): void;
}

/**
 * One registry per process, not per copy of this module: the server build and code that imports the source
 * (the test suite, calling a module function on the running server's handle) each load their own copy, and a
 * write through either must purge the cache of the handle it wrote with.
 */
const REGISTRY = Symbol.for("atrium.cache.purgers");
const purgers: WeakMap<Db, CachePurger> = ((globalThis as { [REGISTRY]?: WeakMap<Db, CachePurger> })[REGISTRY] ??=
  new WeakMap());

/** Called once per database handle by the cache module. */
export function registerPurger(db: Db, purger: CachePurger): void {
  purgers.set(db, purger);
}

export function purgerOf(db: Db): CachePurger | undefined {
  return purgers.get(db);
}

/**
 * Runs `work` in a transaction of `db` and purges the tags it names when (and only if) it commits. `work` adds
 * tags with `purge(...)` as it learns what it changes (a page's id, its old and new slug).
 */
export async function writeAndPurge<T>(
  db: Db,
  work: (trx: Transaction<Database>, purge: (...tags: string[]) => void) => Promise<T>,
): Promise<T> {
  const joined = together.get(db);
  // On its own, a write is a unit of work of one: the same transaction, announcement and purge.
  if (!joined) return writeTogether(db, (trx) => writeAndPurge(trx, work));
  return work(db as Transaction<Database>, (...more) => more.forEach((tag) => joined.add(tag)));
}

/**
 * Several module functions' writes as one unit of work: `work` calls them with `trx` as their database, their
 * `writeAndPurge` and `purgeTags` join this transaction instead of opening their own, and the tags they name are
 * purged once, if and when it commits. For a change made of parts (an event naming several settings): all of
 * them or none.
 */
export async function writeTogether<T>(db: Db, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  const tags = new Set<string>();
  const purger = purgers.get(db);
  const result = await db.transaction().execute(async (trx) => {
    together.set(trx, tags);
    const value = await work(trx);
    if (purger && tags.size) await purger.announce(trx, [...tags]);
    return value;
  });
  if (purger && tags.size) purger.purged([...tags]);
  return result;
}

/** The tags named so far by the writes inside each `writeTogether` transaction. */
const together = new WeakMap<Db, Set<string>>();

/** After a write that committed on its own (a single statement): announce and purge at once. */
export async function purgeTags(db: Db, tags: readonly string[]): Promise<void> {
  const joined = together.get(db);
  if (joined) return void tags.forEach((tag) => joined.add(tag));
  const purger = purgers.get(db);
  if (!purger || tags.length === 0) return;
  await purger.announce(db, tags);
  purger.purged(tags);
}
