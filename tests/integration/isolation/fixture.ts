/**
 * Two tenants on a fresh, migrated database (SQLite, or Postgres with TEST_DATABASE_URL), reached through the
 * repositories directly: the isolation tests ask each repository, built for A, about B's rows.
 */
import { sql } from "kysely";
import { openDatabase, type Db } from "~db/client";
import { migrateToLatest } from "~db/migrate";
import { createUser, type User } from "~/modules/accounts/users.server";
import type { Actor } from "~/modules/audit/audit.server";
import { createSecretBox, type SecretBox } from "~/modules/secrets/secret-box.server";
import { createWorkspace, type Workspace } from "~/modules/tenancy/workspaces.server";
import { PASSWORD, uniqueEmail } from "../../helpers/client";
import { freshDatabase } from "../../helpers/database";

export interface Tenant {
  user: User;
  workspace: Workspace;
  actor: Actor;
}

export interface Fixture {
  db: Db;
  box: SecretBox;
  a: Tenant;
  b: Tenant;
  /** Every row of `table` whose `column` is `value`, in a stable order: compared before and after. */
  rowsOf(table: string, column: string, value: string): Promise<unknown[]>;
  close(): Promise<void>;
}

export async function twoTenants(): Promise<Fixture> {
  const database = await freshDatabase();
  const handle = openDatabase(database.url);
  const { db } = handle;
  await migrateToLatest(db);
  const tenant = async (name: string): Promise<Tenant> => {
    const user = await createUser(db, { email: uniqueEmail(name), password: PASSWORD });
    const slug = `${name}-${Math.random().toString(36).slice(2, 8)}`;
    const workspace = await createWorkspace(db, user.id, { name, slug });
    return { user, workspace, actor: { userId: user.id, ip: "192.0.2.1" } };
  };
  return {
    db,
    box: createSecretBox(Buffer.alloc(32, 7)),
    a: await tenant("alpha"),
    b: await tenant("bravo"),
    rowsOf: async (table, column, value) =>
      (
        await sql<
          Record<string, unknown>
        >`select * from ${sql.table(table)} where ${sql.ref(column)} = ${value}`.execute(db)
      ).rows.sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
    close: async () => {
      await handle.close();
      await database.drop();
    },
  };
}
