/**
 * A fresh, empty database per test server: a SQLite file in the run's temp folder, or — when TEST_DATABASE_URL is set —
 * a new Postgres database created beside it and dropped afterwards.
 */
import { join } from "node:path";
import pg from "pg";
import { tempDir } from "./temp";

export interface TestDatabase {
  url: string;
  dialect: "sqlite" | "postgres";
  drop(): Promise<void>;
}

export async function freshDatabase(): Promise<TestDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    const dir = tempDir("atrium-db");
    return { url: `file:${join(dir.path, "atrium.db")}`, dialect: "sqlite", drop: async () => dir.remove() };
  }
  const name = `atrium_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dialect: "postgres",
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
