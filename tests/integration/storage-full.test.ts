/**
 * Issue 12, item 12: with the database's storage full, a save answers 503 with the error contract and
 * Retry-After (not 500), and readiness says degraded (not "database: ok"). A full disk is simulated per
 * dialect: SQLite's `max_page_count` pinned to the database's size (every write that needs a new page fails
 * with SQLITE_FULL, as on a full disk); on Postgres, which cannot be filled here, a trigger raising SQLSTATE
 * 53100 (disk_full) on the table the request writes. A probe that fails for another reason (a lock held by
 * another connection, a statement timeout) leaves readiness alone.
 */
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setTestClock } from "~/lib/clock.server";
import { sqlitePath } from "~db/client";
import { createWorkspace, signUp, type Client } from "../helpers/client";
import { consoleTrigger, createSop, saveSop, trigger } from "../helpers/sops";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
let operator: Client;
let sop: { id: string; secret: string };
let offset = 0;

beforeAll(async () => {
  setTestClock(() => new Date(Date.now() + offset));
  server = await startServer();
  operator = (await signUp(server.url)).client;
  await createWorkspace(operator, "Full Disk", `full-disk-${process.pid}`);
  const id = await createSop(operator, { name: "Recorder", slug: `recorder-${process.pid}` });
  sop = { id, secret: await consoleTrigger(operator, id) };
});
afterAll(async () => {
  setTestClock(undefined);
  await server.close();
});

/** Lets the readiness probe run again (it writes at most every 10 s). */
const laterThanTheNextProbe = () => (offset += 11_000);

/** From now on, writes into `table` that need more room fail as on a full disk. */
async function fillStorage(table: string) {
  if (server.database.dialect === "sqlite") {
    // Per connection: this is the server's own (Kysely's single SQLite connection).
    await sql`create table if not exists filler (junk text)`.execute(server.db);
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(server.db);
    await sql.raw(`pragma max_page_count = ${rows[0]!.page_count}`).execute(server.db);
    // Use up the free pages the file already has, as a full disk leaves none.
    for (let i = 0; i < 100_000; i++) {
      try {
        await sql`insert into filler values (${"z".repeat(2048)})`.execute(server.db);
      } catch (error) {
        expect((error as { code?: string }).code).toBe("SQLITE_FULL");
        break;
      }
    }
  } else {
    await sql
      .raw(
        `create or replace function disk_full() returns trigger language plpgsql as $$
         begin raise exception 'could not extend file: No space left on device' using errcode = '53100'; end $$;
         create trigger ${table}_disk_full before insert or update on ${table}
         for each row execute function disk_full()`,
      )
      .execute(server.db);
  }
}

async function freeStorage(table: string) {
  if (server.database.dialect === "sqlite") {
    await sql.raw("pragma max_page_count = 1073741823").execute(server.db);
  } else {
    await sql.raw(`drop trigger ${table}_disk_full on ${table}`).execute(server.db);
  }
}

/**
 * The database refuses every write, the probe's included: SQLite's `query_only` on the server's own
 * connection (SQLITE_READONLY, as on a read-only volume); on Postgres a trigger raising SQLSTATE 25006, as a
 * read-only transaction (a standby) does.
 */
async function refuseProbe() {
  await sql
    .raw(
      server.database.dialect === "sqlite"
        ? "pragma query_only = on"
        : `create or replace function probe_refused() returns trigger language plpgsql as $$
           begin raise exception 'cannot execute UPDATE in a read-only transaction' using errcode = '25006'; end $$;
           create trigger probe_refused before insert or update on health_probe
           for each row execute function probe_refused()`,
    )
    .execute(server.db);
}

async function allowProbe() {
  await sql
    .raw(
      server.database.dialect === "sqlite" ? "pragma query_only = off" : "drop trigger probe_refused on health_probe",
    )
    .execute(server.db);
}

/**
 * The probe's write fails for a reason that passes: on SQLite another connection holds the write lock
 * (`BEGIN IMMEDIATE`, as the CLI does while it writes) and the server's connection waits only 50 ms for it
 * (5 s by default); on Postgres a trigger raises SQLSTATE 57014, as a statement timeout does under load.
 * Returns what releases it.
 */
async function holdProbeBack(): Promise<() => Promise<void>> {
  if (server.database.dialect === "sqlite") {
    await sql.raw("pragma busy_timeout = 50").execute(server.db);
    const other = new SQLite(sqlitePath(server.database.url));
    other.exec("begin immediate");
    return async () => {
      other.exec("rollback");
      other.close();
      await sql.raw("pragma busy_timeout = 5000").execute(server.db);
    };
  }
  await sql
    .raw(
      `create or replace function probe_timed_out() returns trigger language plpgsql as $$
       begin raise exception 'canceling statement due to statement timeout' using errcode = '57014'; end $$;
       create trigger probe_timed_out before insert or update on health_probe
       for each row execute function probe_timed_out()`,
    )
    .execute(server.db);
  return async () => {
    await sql.raw("drop trigger probe_timed_out on health_probe").execute(server.db);
  };
}

const health = async () => {
  const res = await fetch(`${server.url}/api/health`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe("a database whose storage is full", () => {
  it("answers a save with 503, the error contract and Retry-After, and readiness says degraded", async () => {
    expect(await health()).toMatchObject({ status: 200, body: { status: "ok", database: "ok" } });
    await fillStorage("sop_runs");

    // Big enough to need new pages on SQLite.
    const input = { note: "x".repeat(32_768) };
    for (let i = 0; i < 2; i++) {
      const res = await trigger(server.url, sop.id, sop.secret, input);
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("120");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.json()).toEqual({
        error: "Service Unavailable",
        message: "The server cannot save changes right now: its storage is full. Try again later.",
        statusCode: 503,
      });
    }

    expect(await health()).toEqual({
      status: 503,
      body: expect.objectContaining({ status: "degraded", service: "atrium", database: "read-only" }),
    });

    // Each refused request's log line names the category; the condition itself is logged once.
    const refused = server.logs.filter((l) => (l.res as { statusCode?: number } | undefined)?.statusCode === 503);
    expect(refused.filter((l) => l.failure === "storage").length).toBeGreaterThanOrEqual(2);
    expect(server.logs.filter((l) => String(l.msg).startsWith("the database cannot write"))).toHaveLength(1);
    expect(JSON.stringify(server.logs)).not.toContain('"statusCode":500');

    await freeStorage("sop_runs");
    laterThanTheNextProbe();
    expect(await health()).toMatchObject({ status: 200, body: { status: "ok", database: "ok" } });
    expect((await trigger(server.url, sop.id, sop.secret, input)).status).toBe(202);
  });

  it("is noticed by readiness's own write probe, before any request fails", async () => {
    laterThanTheNextProbe();
    expect(await health()).toMatchObject({ status: 200, body: { database: "ok" } });
    await refuseProbe();
    // Within the probe interval the last verdict stands; then the probe writes again, and fails.
    expect((await health()).status).toBe(200);
    laterThanTheNextProbe();
    expect(await health()).toEqual({
      status: 503,
      body: expect.objectContaining({ status: "degraded", database: "read-only" }),
    });
    await allowProbe();
    laterThanTheNextProbe();
    expect(await health()).toMatchObject({ status: 200, body: { status: "ok" } });
  });

  it("shows a console form's refused save beside the form with 503, not an error page", async () => {
    await fillStorage("sops");
    // Steps big enough to need new pages on SQLite.
    const steps = Array.from({ length: 10 }, (_, i) => ({
      type: "set",
      assignments: `note${i} = "${"y".repeat(1500)}"`,
    }));
    const res = await saveSop(operator, sop.id, { name: "Recorder", slug: `recorder-${process.pid}`, steps });
    expect(res.status).toBe(503);
    expect(await res.text()).toContain("its storage is full");
    await freeStorage("sops");
  });

  it("does not call a database read-only when the probe fails for another reason (a lock, a timeout)", async () => {
    laterThanTheNextProbe();
    expect(await health()).toMatchObject({ status: 200, body: { status: "ok", database: "ok" } });
    const release = await holdProbeBack();
    try {
      laterThanTheNextProbe();
      expect(await health()).toEqual({
        status: 200,
        body: expect.objectContaining({ status: "ok", database: "ok" }),
      });
      // The probe did run, and failed: logged, not taken for a full disk.
      const failed = server.logs.filter((l) => String(l.msg).startsWith("the write probe failed"));
      expect(failed.length).toBeGreaterThanOrEqual(1);
      expect((failed.at(-1)!.err as { code?: string }).code).toBe(
        server.database.dialect === "sqlite" ? "SQLITE_BUSY" : "57014",
      );
    } finally {
      await release();
    }
    laterThanTheNextProbe();
    expect(await health()).toMatchObject({ status: 200, body: { status: "ok", database: "ok" } });
  });
});
