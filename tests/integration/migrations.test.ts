/**
 * Migrating a database that already holds rows: one at 0006-oauth, with mail messages and contact events
 * under deployment-wide unique keys, reaches the latest schema (keys unique per workspace) with every row,
 * column, index and cascade intact — on this dialect (TEST_DATABASE_URL picks Postgres) — and back down.
 */
import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isUniqueViolation, openDatabase, type DatabaseHandle, type Db } from "../../db/client";
import { migrateToLatest } from "../../db/migrate";
import { migrations } from "../../db/migrations/index";
import { freshDatabase, type TestDatabase } from "../helpers/database";

const TABLES = ["mail_messages", "contact_events"] as const;
const AT = "2026-01-02T03:04:05.000Z";

let database: TestDatabase;
let handle: DatabaseHandle;
let db: Db;
beforeAll(async () => {
  database = await freshDatabase();
  handle = openDatabase(database.url, { poolSize: 2 });
  db = handle.db;
});
afterAll(async () => {
  await handle.close();
  await database.drop();
});

const migrateTo = async (name: string) => {
  const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
  const { error, results } = await migrator.migrateTo(name);
  if (error) throw error;
  return (results ?? []).map((r) => `${r.direction} ${r.migrationName} ${r.status}`);
};

// 0026-customers adds `contact_events.customer_id` (null on every earlier row): checked on its own below, so
// these compare what the rows and columns were before it.
const rows = async () => ({
  mail: await db.selectFrom("mail_messages").selectAll().orderBy("id").execute(),
  contacts: (await db.selectFrom("contact_events").selectAll().orderBy("id").execute()).map(
    ({ customer_id: _added, ...row }: Record<string, unknown>) => row,
  ),
});

/** Every column's shape, as Kysely's introspection reads it on either dialect. */
const columns = async () =>
  (await db.introspection.getTables())
    .filter((t) => (TABLES as readonly string[]).includes(t.name))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((t) => ({ table: t.name, columns: t.columns.filter((c) => c.name !== "customer_id") }));

const indexes = async (table: string) => {
  const found =
    handle.dialect === "sqlite"
      ? await sql<{ name: string }>`
          select name from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`.execute(db)
      : await sql<{ name: string }>`
          select indexname as name from pg_indexes where tablename = ${table} and indexname not like '%_pkey'`.execute(
          db,
        );
  return found.rows.map((r) => r.name).sort();
};

const contact = (id: string, workspace: string, key: string | null) => ({
  id,
  workspace_id: workspace,
  idempotency_key: key,
  email: `${id}@example.com`,
  type: "order.created",
  note: `note ${id}`,
  source: "sop",
  created_at: AT,
});

const mail = (id: string, workspace: string | null, key: string | null) => ({
  id,
  workspace_id: workspace,
  idempotency_key: key,
  transport: "outbox" as const,
  to_address: `${id}@example.com`,
  subject: `subject ${id}`,
  body: `body ${id}`,
  status: "outbox" as const,
  error: null,
  created_at: AT,
});

const refused = (write: Promise<unknown>) =>
  write.then(
    () => "written",
    (error: unknown) => (isUniqueViolation(error) ? "unique violation" : `refused: ${String(error)}`),
  );

describe("migrating a database at 0006-oauth that holds mail and contact events", () => {
  let before: Awaited<ReturnType<typeof rows>>;
  let shape: Awaited<ReturnType<typeof columns>>;

  it("keeps every row and column through 0007 and 0008", async () => {
    await migrateTo("0006-oauth");
    await db
      .insertInto("users")
      .values({
        id: "U1",
        email: "owner@example.com",
        password_hash: "x",
        tier: "free",
        status: "active",
        rate_limit_per_hour: null,
        rate_limit_burst: null,
        created_at: AT,
        updated_at: AT,
      })
      .execute();
    await db
      .insertInto("workspaces")
      .values(
        ["WA", "WB"].map((id) => ({
          id,
          owner_user_id: "U1",
          slug: id.toLowerCase(),
          name: id,
          created_at: AT,
          updated_at: AT,
        })),
      )
      .execute();
    await db
      .insertInto("contact_events")
      .values([
        contact("C1", "WA", "run1.0"),
        contact("C2", "WB", "run2.0"),
        contact("C3", "WA", null),
        contact("C4", "WA", null),
      ])
      .execute();
    await db
      .insertInto("mail_messages")
      .values([
        mail("M1", "WA", "run1.1"),
        mail("M2", "WB", "run2.1"),
        mail("M3", null, "account.1"),
        mail("M4", null, null),
        mail("M5", null, null),
        mail("M6", "WA", null),
      ])
      .execute();
    before = await rows();
    shape = await columns();
    expect(before.contacts).toHaveLength(4);
    expect(before.mail).toHaveLength(6);

    expect(await migrateToLatest(db)).toEqual([
      "0007-mail-idempotency-per-workspace",
      "0008-contacts-idempotency-per-workspace",
      "0009-accounts-signup-requests",
      "0010-sops-cancelled-runs-and-replayed-triggers",
      "0011-sops-trigger-limits",
      "0012-health-probe",
      "0013-tenancy-invitations",
      "0014-auth-known-addresses",
      "0015-files",
      "0016-sites-pages",
      "0017-sites-branding",
      "0018-sites-policies",
      "0019-contacts-messages",
      "0020-tenancy-previous-slugs",
      "0021-sites-discovery",
      "0022-sites-access",
      "0023-domains",
      "0024-webhook-receivers",
      "0025-cache-purges",
      "0026-customers",
      "0027-commerce",
      "0028-commerce-payment-providers",
      "0029-commerce-subscriptions",
      "0030-commerce-payouts",
      "0031-commerce-shipments",
      "0032-scheduling",
      "0033-chat",
    ]);
    expect(await rows()).toEqual(before);
    expect(await columns()).toEqual(shape);
    const linked = await db.selectFrom("contact_events").select("customer_id").execute();
    expect(linked.map((r) => r.customer_id)).toEqual([null, null, null, null]);
    expect(await indexes("contact_events")).toEqual([
      "contact_events_customer_idx",
      "contact_events_idempotency_idx",
      "contact_events_workspace_idx",
    ]);
    expect(await indexes("mail_messages")).toEqual([
      "mail_messages_idempotency_idx",
      "mail_messages_idempotency_unscoped_idx",
      "mail_messages_workspace_idx",
    ]);
    if (handle.dialect === "sqlite") {
      expect((await sql`pragma foreign_key_check`.execute(db)).rows).toEqual([]);
    }
  });

  it("goes back down to 0006 and up again with the rows intact", async () => {
    expect(await migrateTo("0006-oauth")).toEqual([
      "Down 0033-chat Success",
      "Down 0032-scheduling Success",
      "Down 0031-commerce-shipments Success",
      "Down 0030-commerce-payouts Success",
      "Down 0029-commerce-subscriptions Success",
      "Down 0028-commerce-payment-providers Success",
      "Down 0027-commerce Success",
      "Down 0026-customers Success",
      "Down 0025-cache-purges Success",
      "Down 0024-webhook-receivers Success",
      "Down 0023-domains Success",
      "Down 0022-sites-access Success",
      "Down 0021-sites-discovery Success",
      "Down 0020-tenancy-previous-slugs Success",
      "Down 0019-contacts-messages Success",
      "Down 0018-sites-policies Success",
      "Down 0017-sites-branding Success",
      "Down 0016-sites-pages Success",
      "Down 0015-files Success",
      "Down 0014-auth-known-addresses Success",
      "Down 0013-tenancy-invitations Success",
      "Down 0012-health-probe Success",
      "Down 0011-sops-trigger-limits Success",
      "Down 0010-sops-cancelled-runs-and-replayed-triggers Success",
      "Down 0009-accounts-signup-requests Success",
      "Down 0008-contacts-idempotency-per-workspace Success",
      "Down 0007-mail-idempotency-per-workspace Success",
    ]);
    expect(await rows()).toEqual(before);
    expect(await columns()).toEqual(shape);
    expect(
      await refused(
        db
          .insertInto("contact_events")
          .values(contact("X1", "WB", "run1.0"))
          .execute(),
      ),
    ).toBe("unique violation");
    await migrateToLatest(db);
    expect(await rows()).toEqual(before);
  });

  it("then holds a key once per workspace, and once among messages outside any workspace", async () => {
    expect(
      await refused(
        db
          .insertInto("contact_events")
          .values(contact("C5", "WB", "run1.0"))
          .execute(),
      ),
    ).toBe("written");
    expect(
      await refused(
        db
          .insertInto("contact_events")
          .values(contact("C6", "WA", "run1.0"))
          .execute(),
      ),
    ).toBe("unique violation");
    expect(
      await refused(
        db
          .insertInto("contact_events")
          .values(contact("C7", "WB", null))
          .execute(),
      ),
    ).toBe("written");
    expect(
      await refused(
        db
          .insertInto("mail_messages")
          .values(mail("M7", "WB", "run1.1"))
          .execute(),
      ),
    ).toBe("written");
    expect(
      await refused(
        db
          .insertInto("mail_messages")
          .values(mail("M8", "WA", "run1.1"))
          .execute(),
      ),
    ).toBe("unique violation");
    expect(
      await refused(
        db
          .insertInto("mail_messages")
          .values(mail("M9", "WA", "account.1"))
          .execute(),
      ),
    ).toBe("written");
    expect(
      await refused(
        db
          .insertInto("mail_messages")
          .values(mail("M10", null, "account.1"))
          .execute(),
      ),
    ).toBe("unique violation");
    expect(
      await refused(
        db
          .insertInto("mail_messages")
          .values(mail("M11", null, null))
          .execute(),
      ),
    ).toBe("written");
  });

  it("keeps the foreign keys: rows of an unknown workspace are refused, a deleted workspace takes its rows", async () => {
    expect(
      await refused(
        db
          .insertInto("contact_events")
          .values(contact("C8", "NOPE", null))
          .execute(),
      ),
    ).toMatch(/^refused/);
    expect(
      await refused(
        db
          .insertInto("mail_messages")
          .values(mail("M12", "NOPE", null))
          .execute(),
      ),
    ).toMatch(/^refused/);
    await db.deleteFrom("workspaces").where("id", "=", "WA").execute();
    const after = await rows();
    expect(after.contacts.map((c) => c.id)).toEqual(["C2", "C5", "C7"]);
    expect(after.mail.map((m) => m.id).sort()).toEqual(["M11", "M2", "M3", "M4", "M5", "M7"].sort());
  });
});
