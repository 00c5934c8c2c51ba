/**
 * Addresses an account has signed in from (ADR 004, "Throttle"), the way GitHub and Google recognise a device:
 * while an e-mail is over the sign-in throttle's cap, only these may still try its password. Recorded when a
 * session starts (a password sign-in or a confirmed sign-up) and kept as long as such a session could live, so
 * an owner who signs in from the same places keeps getting in during an attack spread over other addresses.
 *
 * Kept in the database, not in memory, so that every node and a restarted one recognise the same addresses.
 * An address is stored as a SHA-256 of the account's id and the address's throttle key (an IPv6 /64, see
 * addressKey), so the table lists no addresses, and one address is not the same row value across accounts.
 */
import type { Db } from "~db/client";
import { addDays, isoNow, now } from "~/lib/clock.server";
import { addressKey } from "~/lib/client-address";
import { sha256Base64url } from "~/lib/hash.server";

const hashOf = (userId: string, ip: string) => sha256Base64url(`${userId}\n${addressKey(ip)}`);

/** Whether the account has signed in from this address (its /64 for IPv6) within the last `days`. */
export async function isKnownAddress(db: Db, userId: string, ip: string): Promise<boolean> {
  const row = await db
    .selectFrom("auth_known_addresses")
    .select("user_id")
    .where("user_id", "=", userId)
    .where("address_hash", "=", hashOf(userId, ip))
    .where("expires_at", ">", isoNow())
    .executeTakeFirst();
  return row !== undefined;
}

/** Records a sign-in from this address, recognised for `days` from now. */
export async function rememberAddress(db: Db, userId: string, ip: string, days: number): Promise<void> {
  const at = now();
  const seen = { last_signed_in_at: at.toISOString(), expires_at: addDays(at, days).toISOString() };
  await db
    .insertInto("auth_known_addresses")
    .values({ user_id: userId, address_hash: hashOf(userId, ip), ...seen })
    .onConflict((oc) => oc.columns(["user_id", "address_hash"]).doUpdateSet(seen))
    .execute();
}

/** Housekeeping: forgets addresses not signed in from for longer than they are kept. */
export async function purgeExpiredKnownAddresses(db: Db): Promise<void> {
  await db.deleteFrom("auth_known_addresses").where("expires_at", "<=", isoNow()).execute();
}
