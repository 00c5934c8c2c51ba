/**
 * Customer sessions (ADR 029), apart from the operators' (ADR 004): one cookie per site, accepted only by that
 * site. On the deployment's host the cookie is named after the site (`atrium_customer_{slug}`, Path=/, so the
 * site's pages and `/api/v1` requests for it both carry it); on a site's custom domain it is host-only and
 * plain `atrium_customer`. `__Host-` is prefixed whenever cookies are Secure, so no subdomain can plant one.
 *
 * The cookie holds a 256-bit secret; the table holds its SHA-256 and the site's workspace. A session is looked
 * up by both, so a cookie copied under another site's name, or presented on another site's domain, finds
 * nothing and its holder is signed out there. The same table holds the bearer tokens a site's own app gets
 * from the same sign-in (`kind = "bearer"`), which the customer API accepts in `Authorization`.
 */
import type { AppLoadContext } from "@remix-run/node";
import { parse, serialize } from "cookie";
import type { Db } from "~db/client";
import { addDays, now } from "~/lib/clock.server";
import { sha256Hex } from "~/lib/hash.server";
import { newSecret } from "~/lib/ids.server";
import { toCustomer, type Customer } from "./customers.server";

export type SessionKind = "cookie" | "bearer";

export interface CustomerSession {
  id: string;
  kind: SessionKind;
  customer: Customer;
}

/** Re-stamping last_seen_at on every request would write on every read; once a minute is plenty. */
const TOUCH_INTERVAL_MS = 60_000;
const SECRET = /^[A-Za-z0-9_-]{43}$/;

interface SiteRef {
  id: string;
  slug: string;
}

/** The cookie of `site` for this request: per site on the deployment's host, host-only on its domain. */
export function customerCookieName(context: AppLoadContext, site: SiteRef): string {
  const name = context.request.siteHost ? "atrium_customer" : `atrium_customer_${site.slug}`;
  return context.services.env.cookieSecure ? `__Host-${name}` : name;
}

function cookieSecret(request: Request, context: AppLoadContext, site: SiteRef): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  const value = parse(header)[customerCookieName(context, site)];
  return value && SECRET.test(value) ? value : undefined;
}

function bearerSecret(request: Request): string | undefined {
  const match = /^Bearer\s+([A-Za-z0-9_-]{43})$/i.exec(request.headers.get("authorization")?.trim() ?? "");
  return match?.[1];
}

/** Starts a session of `customerId` on `site`; answers the secret (a bearer token, or the cookie's value). */
export async function createCustomerSession(
  context: AppLoadContext,
  request: Request,
  site: SiteRef,
  customerId: string,
  kind: SessionKind,
): Promise<{ secret: string; expiresAt: Date }> {
  const { db, env } = context.services;
  const secret = newSecret(32);
  const at = now();
  const expiresAt = addDays(at, env.CUSTOMER_SESSION_MAX_DAYS);
  await db
    .insertInto("customer_sessions")
    .values({
      id: sha256Hex(secret),
      workspace_id: site.id,
      customer_id: customerId,
      kind,
      created_at: at.toISOString(),
      last_seen_at: at.toISOString(),
      expires_at: expiresAt.toISOString(),
      ip: context.request.ip,
      user_agent: request.headers.get("user-agent")?.slice(0, 300) ?? null,
    })
    .execute();
  // Signing in is being seen: the console's "last seen" starts here, not a minute into the session.
  await db
    .updateTable("customers")
    .set({ last_seen_at: at.toISOString() })
    .where("workspace_id", "=", site.id)
    .where("id", "=", customerId)
    .execute();
  return { secret, expiresAt };
}

/**
 * Signs the customer in on `site` with a cookie: any session this browser held there ends first (rotation at
 * sign-in). Answers the `Set-Cookie` value.
 */
export async function startCustomerSession(
  context: AppLoadContext,
  request: Request,
  site: SiteRef,
  customerId: string,
): Promise<string> {
  await endCustomerSession(context, request, site);
  const { secret } = await createCustomerSession(context, request, site, customerId, "cookie");
  return serialize(customerCookieName(context, site), secret, {
    httpOnly: true,
    sameSite: "lax",
    secure: context.services.env.cookieSecure,
    path: "/",
    maxAge: context.services.env.CUSTOMER_SESSION_MAX_DAYS * 86_400,
  });
}

export function clearCustomerCookie(context: AppLoadContext, site: SiteRef): string {
  return serialize(customerCookieName(context, site), "", {
    httpOnly: true,
    sameSite: "lax",
    secure: context.services.env.cookieSecure,
    path: "/",
    maxAge: 0,
  });
}

/** One read per HTTP request and site: a page's layout and its page loader may both ask. */
const sessionsOfRequest = new WeakMap<object, Map<string, Promise<CustomerSession | null>>>();

/**
 * The live session the request carries for `site` — its cookie, or (`bearer: true`, the customer API) an
 * `Authorization: Bearer` token of that site: not idle too long, not past its absolute expiry, the customer not
 * erased. Null otherwise.
 */
export function readCustomerSession(
  context: AppLoadContext,
  request: Request,
  site: SiteRef,
  options: { bearer?: boolean } = {},
): Promise<CustomerSession | null> {
  let forRequest = sessionsOfRequest.get(context.request);
  if (!forRequest) {
    forRequest = new Map();
    sessionsOfRequest.set(context.request, forRequest);
  }
  const key = `${site.id}:${options.bearer ? "bearer" : "cookie"}`;
  let session = forRequest.get(key);
  if (!session) {
    session = loadSession(context, request, site, options.bearer ?? false);
    forRequest.set(key, session);
  }
  return session;
}

async function loadSession(
  context: AppLoadContext,
  request: Request,
  site: SiteRef,
  bearer: boolean,
): Promise<CustomerSession | null> {
  const bearerToken = bearer ? bearerSecret(request) : undefined;
  const secret = bearerToken ?? cookieSecret(request, context, site);
  if (!secret) return null;
  const kind: SessionKind = bearerToken ? "bearer" : "cookie";
  const { db, env } = context.services;
  const row = await db
    .selectFrom("customer_sessions as s")
    .innerJoin("customers as c", "c.id", "s.customer_id")
    .selectAll("c")
    .select(["s.id as session_id", "s.last_seen_at as session_seen_at", "s.expires_at as session_expires_at"])
    .where("s.id", "=", sha256Hex(secret))
    .where("s.workspace_id", "=", site.id)
    .where("s.kind", "=", kind)
    .executeTakeFirst();
  if (!row) return null;
  const at = now();
  const idleUntil = addDays(new Date(row.session_seen_at), env.CUSTOMER_SESSION_IDLE_DAYS);
  if (Date.parse(row.session_expires_at) <= at.getTime() || idleUntil <= at || row.erased_at !== null) {
    await db.deleteFrom("customer_sessions").where("id", "=", row.session_id).execute();
    return null;
  }
  if (at.getTime() - Date.parse(row.session_seen_at) > TOUCH_INTERVAL_MS) {
    const seen = at.toISOString();
    await db.updateTable("customer_sessions").set({ last_seen_at: seen }).where("id", "=", row.session_id).execute();
    await db.updateTable("customers").set({ last_seen_at: seen }).where("id", "=", row.id).execute();
  }
  const { session_id: id, session_seen_at: _seen, session_expires_at: _expires, ...customer } = row;
  return { id, kind, customer: toCustomer(customer) };
}

/** Ends the session this browser holds on `site` (signing out). */
export async function endCustomerSession(context: AppLoadContext, request: Request, site: SiteRef): Promise<void> {
  const secret = cookieSecret(request, context, site);
  if (!secret) return;
  await context.services.db
    .deleteFrom("customer_sessions")
    .where("id", "=", sha256Hex(secret))
    .where("workspace_id", "=", site.id)
    .execute();
}

/** "Sign out everywhere": every session and token of the customer ends, this one included. */
export async function endAllCustomerSessions(db: Db, workspaceId: string, customerId: string): Promise<number> {
  const result = await db
    .deleteFrom("customer_sessions")
    .where("workspace_id", "=", workspaceId)
    .where("customer_id", "=", customerId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The customer's live sessions, newest first (the profile page lists them). */
export async function sessionsOfCustomer(db: Db, workspaceId: string, customerId: string) {
  return db
    .selectFrom("customer_sessions")
    .select(["kind", "created_at as createdAt", "last_seen_at as lastSeenAt", "user_agent as userAgent"])
    .where("workspace_id", "=", workspaceId)
    .where("customer_id", "=", customerId)
    .where("expires_at", ">", now().toISOString())
    .orderBy("last_seen_at", "desc")
    .limit(20)
    .execute();
}

/** Housekeeping: sessions past their absolute expiry. */
export async function purgeExpiredCustomerSessions(db: Db): Promise<void> {
  await db.deleteFrom("customer_sessions").where("expires_at", "<", now().toISOString()).execute();
}

/** Ends one session or token of the site by its id (the hash the table keys it by). */
export async function endCustomerToken(db: Db, workspaceId: string, sessionId: string): Promise<void> {
  await db
    .deleteFrom("customer_sessions")
    .where("workspace_id", "=", workspaceId)
    .where("id", "=", sessionId)
    .execute();
}
