/**
 * Operator sessions, kept in the database (docs/decisions/004-operator-sessions.md). The cookie holds a
 * 256-bit random secret; the table holds only its SHA-256, so a leaked table cannot be replayed.
 */
import type { AppLoadContext } from "@remix-run/node";
import { parse, serialize } from "cookie";
import type { Db } from "~db/client";
import type { SessionRow } from "~db/schema";
import { addDays, now } from "~/lib/clock.server";
import { sha256Hex } from "~/lib/hash.server";
import { newSecret } from "~/lib/ids.server";
import type { User } from "~/modules/accounts/users.server";
import { rememberAddress } from "./known-addresses.server";

/** Re-stamping last_seen_at on every request would write on every read; once a minute is plenty. */
const TOUCH_INTERVAL_MS = 60_000;

export interface OperatorSession {
  id: string;
  user: User;
  selectedWorkspaceId: string | null;
}

export function cookieName(context: AppLoadContext): string {
  // __Host- binds the cookie to this exact origin (Secure, no Domain, Path=/), so subdomains cannot plant one.
  return context.services.env.cookieSecure ? "__Host-atrium_session" : "atrium_session";
}

const hashOf = sha256Hex;

function secretFrom(request: Request, context: AppLoadContext): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  const value = parse(header)[cookieName(context)];
  return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
}

/**
 * Starts a session; any session the request carried is revoked first (rotation at sign-in). The address it
 * starts from becomes one the account is known at (known-addresses.server.ts).
 */
export async function startSession(request: Request, context: AppLoadContext, userId: string): Promise<string> {
  const { db, env } = context.services;
  await endSession(request, context);
  const secret = newSecret(32);
  const at = now();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("sessions")
      .values({
        id: hashOf(secret),
        user_id: userId,
        selected_workspace_id: null,
        created_at: at.toISOString(),
        last_seen_at: at.toISOString(),
        expires_at: addDays(at, env.SESSION_MAX_DAYS).toISOString(),
        ip: context.request.ip,
        user_agent: request.headers.get("user-agent")?.slice(0, 300) ?? null,
      })
      .execute();
    // The sign-in throttle lets this address try while the e-mail is under attack, for as long as this session may live.
    await rememberAddress(trx, userId, context.request.ip, env.SESSION_MAX_DAYS);
  });
  return serialize(cookieName(context), secret, {
    httpOnly: true,
    sameSite: "lax",
    secure: env.cookieSecure,
    path: "/",
    maxAge: env.SESSION_MAX_DAYS * 86_400,
  });
}

/** One read per HTTP request: a console page's layout and page loaders both ask, in parallel. */
const sessionOfRequest = new WeakMap<object, Promise<OperatorSession | null>>();

/** The session the request carries, if it is live: not idle too long, not past its absolute expiry, account active. */
export function readSession(request: Request, context: AppLoadContext): Promise<OperatorSession | null> {
  let session = sessionOfRequest.get(context.request);
  if (!session) {
    session = loadSession(request, context);
    sessionOfRequest.set(context.request, session);
  }
  return session;
}

async function loadSession(request: Request, context: AppLoadContext): Promise<OperatorSession | null> {
  const secret = secretFrom(request, context);
  if (!secret) return null;
  const { db, env } = context.services;
  // The session and its account in one query: this runs on every console request.
  const row = await db
    .selectFrom("sessions as s")
    .innerJoin("users as u", "u.id", "s.user_id")
    .select([
      "s.id",
      "s.selected_workspace_id",
      "s.last_seen_at",
      "s.expires_at",
      "u.id as user_id",
      "u.email",
      "u.tier",
      "u.status",
      "u.created_at",
    ])
    .where("s.id", "=", hashOf(secret))
    .executeTakeFirst();
  if (!row) return null;
  const at = now();
  if (isExpired(row, at, env.SESSION_IDLE_DAYS)) {
    await db.deleteFrom("sessions").where("id", "=", row.id).execute();
    return null;
  }
  if (row.status !== "active") return null;
  if (at.getTime() - Date.parse(row.last_seen_at) > TOUCH_INTERVAL_MS) {
    await db.updateTable("sessions").set({ last_seen_at: at.toISOString() }).where("id", "=", row.id).execute();
  }
  const user = { id: row.user_id, email: row.email, tier: row.tier, status: row.status, created_at: row.created_at };
  return { id: row.id, user, selectedWorkspaceId: row.selected_workspace_id };
}

function isExpired(row: Pick<SessionRow, "expires_at" | "last_seen_at">, at: Date, idleDays: number): boolean {
  return Date.parse(row.expires_at) <= at.getTime() || addDays(new Date(row.last_seen_at), idleDays) <= at;
}

export async function endSession(request: Request, context: AppLoadContext): Promise<void> {
  const secret = secretFrom(request, context);
  if (secret) await context.services.db.deleteFrom("sessions").where("id", "=", hashOf(secret)).execute();
}

export function clearSessionCookie(context: AppLoadContext): string {
  return serialize(cookieName(context), "", {
    httpOnly: true,
    sameSite: "lax",
    secure: context.services.env.cookieSecure,
    path: "/",
    maxAge: 0,
  });
}

export async function selectWorkspace(db: Db, sessionId: string, workspaceId: string | null): Promise<void> {
  await db.updateTable("sessions").set({ selected_workspace_id: workspaceId }).where("id", "=", sessionId).execute();
}
