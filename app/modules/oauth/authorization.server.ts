/**
 * The authorization endpoint's rules (RFC 6749 §4.1, RFC 7636, RFC 9700): who may be sent back to, what is
 * asked, and the code that comes out. An unknown client or a redirect URI that is not exactly registered is
 * shown on an error page and never redirected to (an open redirector otherwise); every other error goes back
 * to the client's redirect URI with `error` and `state` (§4.1.2.1).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { isUniqueViolation, type Db } from "~db/client";
import type { OAuthClientsTable } from "~db/schema";
import { isoNow, now } from "~/lib/clock.server";
import { sha256Hex } from "~/lib/hash.server";
import { newId, newSecret } from "~/lib/ids.server";
import { findClient, redirectUriMatches } from "./clients.server";
import { formatScopes, isScope, parseScopes } from "./scopes";

export const CODE_TTL_SECONDS = 600;
const CODE_PREFIX = "atr_code_";

export interface AuthorizationRequest {
  client: OAuthClientsTable;
  redirectUri: string;
  scopes: string[];
  state: string | null;
  codeChallenge: string | null;
}

/** Shown on our own page: there is no trustworthy place to redirect to. */
export class AuthorizePageError extends Error {}

/** Sent back to the client's redirect URI. */
export class AuthorizeRedirectError extends Error {
  constructor(
    readonly redirectUri: string,
    readonly error: string,
    readonly description: string,
    readonly state: string | null,
  ) {
    super(description);
  }
}

/** The request's parameters, each at most once (RFC 6749 §3.1: parameters must not be repeated). */
function single(params: URLSearchParams, name: string): string | null {
  const values = params.getAll(name);
  if (values.length > 1) throw new Error(name);
  return values[0] ?? null;
}

export async function validateAuthorizationRequest(db: Db, params: URLSearchParams): Promise<AuthorizationRequest> {
  let clientId: string | null;
  let redirectParam: string | null;
  try {
    clientId = single(params, "client_id");
    redirectParam = single(params, "redirect_uri");
  } catch (error) {
    throw new AuthorizePageError(`The request repeats ${(error as Error).message}.`);
  }
  if (!clientId) throw new AuthorizePageError("The request names no app (client_id is missing).");
  const client = await findClient(db, clientId);
  if (!client) throw new AuthorizePageError("No app is registered with this client_id.");
  const registered = JSON.parse(client.redirect_uris) as string[];
  // Without redirect_uri, only an app with exactly one registered URI can be sent back (§3.1.2.3).
  const redirectUri = redirectParam ?? (registered.length === 1 ? registered[0]! : null);
  if (!redirectUri) throw new AuthorizePageError("The request needs a redirect_uri: this app has several.");
  if (!registered.some((uri) => redirectUriMatches(uri, redirectUri))) {
    throw new AuthorizePageError("The redirect_uri is not one this app registered (they must match exactly).");
  }

  let state: string | null = null;
  const fail = (error: string, description: string): never => {
    throw new AuthorizeRedirectError(redirectUri, error, description, state);
  };
  try {
    state = single(params, "state");
    const responseType = single(params, "response_type");
    const scope = single(params, "scope");
    const challenge = single(params, "code_challenge");
    const method = single(params, "code_challenge_method");
    if (responseType !== "code") {
      return fail(
        responseType ? "unsupported_response_type" : "invalid_request",
        responseType ? "Only response_type=code is supported" : "response_type is required",
      );
    }
    const scopes = parseScopes(scope ?? "");
    if (scopes.length === 0) return fail("invalid_scope", "Ask for at least one scope: read_profile, read_data");
    const unknown = scopes.filter((s) => !isScope(s));
    if (unknown.length) return fail("invalid_scope", `Unknown scope: ${unknown.join(" ")}`);
    if (challenge !== null || method !== null) {
      if (method !== "S256") return fail("invalid_request", "code_challenge_method must be S256 (plain is refused)");
      if (!challenge || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
        return fail("invalid_request", "code_challenge must be the base64url SHA-256 of the verifier (43 characters)");
      }
    } else if (client.client_type === "public") {
      return fail("invalid_request", "PKCE is required for this app: send code_challenge with method S256");
    }
    return { client, redirectUri, scopes: parseScopes(formatScopes(scopes)), state, codeChallenge: challenge };
  } catch (error) {
    if (error instanceof AuthorizeRedirectError) throw error;
    return fail("invalid_request", `The request repeats ${(error as Error).message}`);
  }
}

/**
 * Binds an Approve to the page the user saw and the account it named: a keyed hash of the session and the
 * request. A post from another account (switched in another tab) or for another request does not match.
 */
export function consentTicket(sessionId: string, query: string): string {
  return createHmac("sha256", sessionId).update(query).digest("base64url");
}

export function ticketMatches(ticket: string, sessionId: string, query: string): boolean {
  const given = Buffer.from(ticket);
  const expected = Buffer.from(consentTicket(sessionId, query));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The user's live consent to this app, if it covers every scope asked for (remembered consent). */
export async function rememberedConsent(db: Db, clientId: string, userId: string, scopes: string[]) {
  const grant = await db
    .selectFrom("oauth_grants")
    .select(["id", "scopes"])
    .where("client_id", "=", clientId)
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  if (!grant) return null;
  const granted = new Set(parseScopes(grant.scopes));
  return scopes.every((s) => granted.has(s)) ? grant : null;
}

/**
 * Records consent (widening a live grant's scopes, or a new grant) and issues a single-use code for the
 * scopes asked for. Returns the URL to send the browser to.
 */
export async function approve(db: Db, request: AuthorizationRequest, userId: string, issuer: string): Promise<string> {
  try {
    return await approveOnce(db, request, userId, issuer);
  } catch (error) {
    // Another Approve of the same user and app created the grant first: widen that one instead.
    if (isUniqueViolation(error)) return approveOnce(db, request, userId, issuer);
    throw error;
  }
}

async function approveOnce(db: Db, request: AuthorizationRequest, userId: string, issuer: string): Promise<string> {
  const code = `${CODE_PREFIX}${newSecret(32)}`;
  await db.transaction().execute(async (trx) => {
    const live = await trx
      .selectFrom("oauth_grants")
      .select(["id", "scopes"])
      .where("client_id", "=", request.client.id)
      .where("user_id", "=", userId)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    let grantId = live?.id;
    if (live) {
      const scopes = formatScopes([...parseScopes(live.scopes), ...request.scopes]);
      if (scopes !== live.scopes)
        await trx
          .updateTable("oauth_grants")
          .set({ scopes })
          .where("user_id", "=", userId)
          .where("id", "=", live.id)
          .execute();
    } else {
      grantId = newId();
      await trx
        .insertInto("oauth_grants")
        .values({
          id: grantId,
          client_id: request.client.id,
          user_id: userId,
          scopes: formatScopes(request.scopes),
          created_at: isoNow(),
          last_used_at: null,
          revoked_at: null,
        })
        .execute();
    }
    await trx
      .insertInto("oauth_codes")
      .values({
        code_hash: sha256Hex(code),
        grant_id: grantId!,
        client_id: request.client.id,
        redirect_uri: request.redirectUri,
        scopes: formatScopes(request.scopes),
        code_challenge: request.codeChallenge,
        expires_at: new Date(now().getTime() + CODE_TTL_SECONDS * 1000).toISOString(),
        used_at: null,
        created_at: isoNow(),
      })
      .execute();
  });
  return redirectWith(request.redirectUri, { code, state: request.state, iss: issuer });
}

/** The redirect URI with the response parameters added to its query (keeping its own). */
export function redirectWith(redirectUri: string, params: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return url.toString();
}
