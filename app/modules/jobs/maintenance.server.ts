/** Housekeeping the job runner does once a minute: what has outlived its purpose is deleted. */
import type { Db } from "~db/client";
import { now } from "~/lib/clock.server";

const DAY = 86_400_000;

export async function purgeExpired(db: Db): Promise<void> {
  const at = now().getTime();
  const before = (days: number) => new Date(at - days * DAY).toISOString();
  // A replayed signature is refused by its timestamp once its row expires.
  await db.deleteFrom("sop_signature_replays").where("expires_at", "<", new Date(at).toISOString()).execute();
  await db.deleteFrom("jobs").where("status", "=", "done").where("updated_at", "<", before(7)).execute();
  await db.deleteFrom("sop_verification_failures").where("created_at", "<", before(90)).execute();
}
