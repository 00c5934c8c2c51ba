import { Migrator, type MigrationResultSet } from "kysely";
import type { Db } from "./client";
import { migrations } from "./migrations/index";

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const { error, results }: MigrationResultSet = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? "unknown error");
    throw new Error(`Migration ${failed?.migrationName ?? ""} failed: ${reason}`.replace("  ", " "));
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
