/**
 * The token endpoint (RFC 6749 §3.2, §4.1.3, §6), revocation (RFC 7009) and introspection (RFC 7662). These
 * answer in OAuth's own error format (`{ error, error_description }`, RFC 6749 §5.2) rather than the API error
 * contract, because every OAuth client library expects it (ADR 011).
 *
 * Tokens are opaque random strings stored as SHA-256. Access tokens live an hour; refresh tokens rotate on
 * every use, and a refresh token presented a second time (stolen or replayed) revokes the whole grant. A code
 * works once for 10 minutes; a second use revokes what the first one issued.
 */
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import type { Db } from "~db/client";
import type { OAuthClientsTable } from "~db/schema";
import { isoNow, now } from "~/lib/clock.server";
import { sha256Base64url, sha256Hex } from "~/lib/hash.server";
import { readBodyBytes } from "~/lib/http.server";
import { newId, newSecret } from "~/lib/ids.server";
import { page } from "~/lib/routes.server";
import { findClient, secretMatches } from "./clients.server";
import { formatScopes, parseScopes } from "./scopes";

export const ACCESS_TOKEN_PREFIX = "atr_at_";
const REFRESH_TOKEN_PREFIX = "atr_rt_";
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
const REFRESH_TOKEN_TTL_SECONDS = 30 * 86_400;
const MAX_FORM_BYTES = 16_384;

export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

/**
 * Browser apps (public clients) call the token endpoints from their own origin. No cookie is read there, so
 * any origin may call; credentials are never allowed.
 */
const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "POST",
  "Access-Control-Allow-Headers": "Authorization, Content-Type",
  "Access-Control-Max-Age": "600",
};

/** GET and other methods on the POST-only endpoints; OPTIONS is the browser's preflight. */
export function oauthMethodNotAllowed(args?: { request: Request }): Response {
  if (args?.request.method === "OPTIONS") return new Response(null, { status: 204, headers: CORS });
  return Response.json(
    { error: "invalid_request", error_description: "Use POST" },
    { status: 405, headers: { Allow: "POST", "Cache-Control": "no-store", ...CORS } },
  );
}

/** The endpoint's answer with the CORS header every response of these endpoints carries. */
async function withCors(response: Promise<Response>): Promise<Response> {
  const answer = await response;
  answer.headers.set("Access-Control-Allow-Origin", "*");
  return answer;
}

export function oauthErrorResponse(error: OAuthError): Response {
  return Response.json(
    { error: error.error, error_description: error.description },
    { status: error.status, headers: { "Cache-Control": "no-store", Pragma: "no-cache", ...error.headers } },
  );
}

const invalidRequest = (description: string) => new OAuthError(400, "invalid_request", description);
const invalidGrant = (description: string) => new OAuthError(400, "invalid_grant", description);

/** The form body of a token, revocation or introspection request; repeated parameters are refused (§3.2). */
async function readForm(request: Request): Promise<URLSearchParams> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers.get("content-type") ?? "")) {
    throw invalidRequest("Send the parameters as application/x-www-form-urlencoded");
  }
  let bytes: Buffer;
  try {
    bytes = await readBodyBytes(request, MAX_FORM_BYTES);
  } catch {
    throw invalidRequest(`The request body exceeds ${MAX_FORM_BYTES} bytes`);
  }
  const form = new URLSearchParams(bytes.toString("utf8"));
  for (const name of new Set(form.keys())) {
    if (form.getAll(name).length > 1) throw invalidRequest(`The parameter ${name} is repeated`);
  }
  return form;
}

/** RFC 6749 §2.3.1: the Basic credentials are form-urlencoded before base64. */
function basicCredentials(header: string | null): { id: string; secret: string } | null {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header ?? "");
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  const unescape = (v: string) => {
    try {
      return decodeURIComponent(v.replace(/\+/g, " "));
    } catch {
      return v;
    }
  };
  return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)) };
}

/** Client authentication: HTTP Basic, or client_id (+ client_secret) in the form; never both (§2.3). */
async function authenticateClient(request: Request, form: URLSearchParams, db: Db): Promise<OAuthClientsTable> {
  const authorization = request.headers.get("authorization");
  const basic = basicCredentials(authorization);
  if (authorization && !basic)
    throw new OAuthError(401, "invalid_client", "Malformed Authorization header", {
      "WWW-Authenticate": 'Basic realm="oauth"',
    });
  if (basic && form.has("client_secret")) {
    throw invalidRequest("Authenticate the client one way: HTTP Basic or client_secret in the form, not both");
  }
  if (basic && form.has("client_id") && form.get("client_id") !== basic.id) {
    throw invalidRequest("client_id in the form differs from the one in the Authorization header");
  }
  const clientId = basic?.id ?? form.get("client_id");
  const secret = basic?.secret ?? form.get("client_secret");
  const refuse = () =>
    new OAuthError(
      401,
      "invalid_client",
      "Client authentication failed",
      basic ? { "WWW-Authenticate": 'Basic realm="oauth"' } : {},
    );
  if (!clientId) throw refuse();
  const client = await findClient(db, clientId);
  if (!client) throw refuse();
  if (client.client_type === "confidential") {
    if (!secret || !secretMatches(secret, client.secret_hash)) throw refuse();
  } else if (secret) {
    throw refuse();
  }
  return client;
}

interface IssuedTokens {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/**
 * An access and a refresh token. `codeHash` names the login they descend from (the code, then every refresh
 * after it), so a reused code revokes the whole chain. A narrowed refresh narrows the access token only: the
 * new refresh token keeps the grant's scopes (RFC 6749 §6).
 */
async function issueTokens(
  db: Db,
  grantId: string,
  scopes: { access: string; refresh: string },
  codeHash: string | null,
): Promise<IssuedTokens> {
  const access = `${ACCESS_TOKEN_PREFIX}${newSecret(32)}`;
  const refresh = `${REFRESH_TOKEN_PREFIX}${newSecret(32)}`;
  const at = now().getTime();
  const base = {
    grant_id: grantId,
    code_hash: codeHash,
    scopes,
    used_at: null,
    revoked_at: null,
    created_at: isoNow(),
  };
  await db
    .insertInto("oauth_tokens")
    .values([
      {
        ...base,
        id: newId(),
        token_hash: sha256Hex(access),
        kind: "access",
        scopes: scopes.access,
        expires_at: new Date(at + ACCESS_TOKEN_TTL_SECONDS * 1000).toISOString(),
      },
      {
        ...base,
        id: newId(),
        token_hash: sha256Hex(refresh),
        kind: "refresh",
        scopes: scopes.refresh,
        expires_at: new Date(at + REFRESH_TOKEN_TTL_SECONDS * 1000).toISOString(),
      },
    ])
    .execute();
  return {
    access_token: access,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    refresh_token: refresh,
    scope: scopes.access,
  };
}

/** Every token of a grant, and the grant itself, stop working. */
/** Revokes a grant and every token of it; `alongside` writes in the same transaction (the act's audit event). */
export async function revokeGrant(db: Db, grantId: string, alongside?: (trx: Db) => Promise<void>): Promise<void> {
  const at = isoNow();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("oauth_grants")
      .set({ revoked_at: at })
      .where("id", "=", grantId)
      .where("revoked_at", "is", null)
      .execute();
    await trx
      .updateTable("oauth_tokens")
      .set({ revoked_at: at })
      .where("grant_id", "=", grantId)
      .where("revoked_at", "is", null)
      .execute();
    await alongside?.(trx);
  });
}

async function exchangeCode(db: Db, client: OAuthClientsTable, form: URLSearchParams): Promise<IssuedTokens> {
  const code = form.get("code");
  if (!code) throw invalidRequest("code is required");
  const codeHash = sha256Hex(code);
  const row = await db
    .selectFrom("oauth_codes")
    .innerJoin("oauth_grants", "oauth_grants.id", "oauth_codes.grant_id")
    .selectAll("oauth_codes")
    .select("oauth_grants.revoked_at as grant_revoked_at")
    .where("oauth_codes.code_hash", "=", codeHash)
    .executeTakeFirst();
  if (!row || row.client_id !== client.id)
    throw invalidGrant("The code is invalid, expired, or was issued to another client");
  if (row.used_at) return reusedCode(db, codeHash);
  if (row.expires_at <= isoNow() || row.grant_revoked_at)
    throw invalidGrant("The code is invalid, expired, or was issued to another client");
  const redirectUri = form.get("redirect_uri");
  if (redirectUri !== null && redirectUri !== row.redirect_uri) {
    throw invalidGrant("redirect_uri differs from the one in the authorization request");
  }
  const verifier = form.get("code_verifier");
  if (row.code_challenge) {
    if (!verifier) throw invalidGrant("code_verifier is required: the authorization request used PKCE");
    if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || sha256Base64url(verifier) !== row.code_challenge) {
      throw invalidGrant("code_verifier does not match the code_challenge");
    }
  } else if (verifier) {
    throw invalidGrant("code_verifier was sent but the authorization request had no code_challenge");
  }
  try {
    return await db.transaction().execute(async (trx) => {
      const used = await trx
        .updateTable("oauth_codes")
        .set({ used_at: isoNow() })
        .where("code_hash", "=", codeHash)
        .where("used_at", "is", null)
        .executeTakeFirst();
      if (Number(used.numUpdatedRows) === 0) throw new Reused();
      return issueTokens(trx, row.grant_id, { access: row.scopes, refresh: row.scopes }, codeHash);
    });
  } catch (error) {
    // Two requests raced with the same code: the loser is a reuse like any other (after the rollback).
    if (error instanceof Reused) return reusedCode(db, codeHash);
    throw error;
  }
}

/** Marks a lost race on a single-use value; handled once its transaction has rolled back. */
class Reused extends Error {}

/** A code used twice was intercepted: everything descended from it is revoked (RFC 6749 §4.1.2, §10.5). */
async function reusedCode(db: Db, codeHash: string): Promise<never> {
  await db
    .updateTable("oauth_tokens")
    .set({ revoked_at: isoNow() })
    .where("code_hash", "=", codeHash)
    .where("revoked_at", "is", null)
    .execute();
  throw invalidGrant("The code was already used; the tokens it issued are revoked");
}

async function refresh(db: Db, client: OAuthClientsTable, form: URLSearchParams): Promise<IssuedTokens> {
  const token = form.get("refresh_token");
  if (!token) throw invalidRequest("refresh_token is required");
  const row = await db
    .selectFrom("oauth_tokens")
    .innerJoin("oauth_grants", "oauth_grants.id", "oauth_tokens.grant_id")
    .select([
      "oauth_tokens.id",
      "oauth_tokens.grant_id",
      "oauth_tokens.code_hash",
      "oauth_tokens.scopes",
      "oauth_tokens.expires_at",
      "oauth_tokens.used_at",
      "oauth_tokens.revoked_at",
      "oauth_grants.client_id",
      "oauth_grants.revoked_at as grant_revoked_at",
    ])
    .where("oauth_tokens.token_hash", "=", sha256Hex(token))
    .where("oauth_tokens.kind", "=", "refresh")
    .executeTakeFirst();
  if (!row || row.client_id !== client.id)
    throw invalidGrant("The refresh token is invalid or was issued to another client");
  if (row.used_at && !row.revoked_at && !row.grant_revoked_at) {
    // Rotation: an old refresh token coming back means two parties hold it. Stop them both.
    await revokeGrant(db, row.grant_id);
    throw invalidGrant("The refresh token was already used; access has been revoked");
  }
  if (row.revoked_at || row.grant_revoked_at || row.expires_at <= isoNow()) {
    throw invalidGrant("The refresh token is revoked or expired");
  }
  let scopes = row.scopes;
  const asked = form.get("scope");
  if (asked !== null) {
    const granted = new Set(parseScopes(row.scopes));
    const wanted = parseScopes(asked);
    if (!wanted.length || wanted.some((s) => !granted.has(s))) {
      throw new OAuthError(400, "invalid_scope", "A refresh can keep or narrow the granted scopes, not widen them");
    }
    scopes = formatScopes(wanted);
  }
  try {
    return await db.transaction().execute(async (trx) => {
      const used = await trx
        .updateTable("oauth_tokens")
        .set({ used_at: isoNow() })
        .where("id", "=", row.id)
        .where("used_at", "is", null)
        .executeTakeFirst();
      if (Number(used.numUpdatedRows) === 0) throw new Reused();
      return issueTokens(trx, row.grant_id, { access: scopes, refresh: row.scopes }, row.code_hash);
    });
  } catch (error) {
    if (!(error instanceof Reused)) throw error;
    await revokeGrant(db, row.grant_id);
    throw invalidGrant("The refresh token was already used; access has been revoked");
  }
}

async function guarded(context: AppLoadContext, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof OAuthError) {
      context.request.log.failure = error.status === 401 ? "authorization" : "validation";
      return oauthErrorResponse(error);
    }
    throw error;
  }
}

/** Per client and address: a flood of token requests is refused before any secret is compared. */
async function throttle(context: AppLoadContext, request: Request, form: URLSearchParams) {
  // Per client and address: a client_id is public, so counting it alone would let anyone lock an app out.
  const clientId = basicCredentials(request.headers.get("authorization"))?.id ?? form.get("client_id") ?? "";
  const clientKey = `${clientId}|${context.request.ip}`;
  const waitSeconds = await context.services.oauthThrottle.token(clientKey);
  if (waitSeconds > 0) {
    throw new OAuthError(429, "invalid_request", `Too many requests for this client; retry in ${waitSeconds} s`, {
      "Retry-After": String(waitSeconds),
    });
  }
}

/**
 * What the token, revocation and introspection endpoints share: the form (POST, form-encoded, no repeats), the
 * per-client-and-address throttle, client authentication, OAuth error bodies, and the CORS header.
 */
function clientEndpoint(
  request: Request,
  context: AppLoadContext,
  handle: (client: OAuthClientsTable, form: URLSearchParams, db: Db) => Promise<Response>,
): Promise<Response> {
  return withCors(
    guarded(context, async () => {
      const { db } = context.services;
      const form = await readForm(request);
      await throttle(context, request, form);
      return handle(await authenticateClient(request, form, db), form, db);
    }),
  );
}

function tokenParameter(form: URLSearchParams): string {
  const token = form.get("token");
  if (!token) throw invalidRequest("token is required");
  return token;
}

export function tokenEndpoint(request: Request, context: AppLoadContext): Promise<Response> {
  return clientEndpoint(request, context, async (client, form, db) => {
    const grantType = form.get("grant_type");
    let issued: IssuedTokens;
    if (grantType === "authorization_code") issued = await exchangeCode(db, client, form);
    else if (grantType === "refresh_token") issued = await refresh(db, client, form);
    else if (!grantType) throw invalidRequest("grant_type is required");
    else throw new OAuthError(400, "unsupported_grant_type", `grant_type ${grantType.slice(0, 40)} is not supported`);
    return Response.json(issued, { headers: { "Cache-Control": "no-store", Pragma: "no-cache" } });
  });
}

/** RFC 7009: always 200 for a token the client may not know about; revoking a refresh token ends the grant. */
export function revocationEndpoint(request: Request, context: AppLoadContext): Promise<Response> {
  return clientEndpoint(request, context, async (client, form, db) => {
    const token = tokenParameter(form);
    const row = await db
      .selectFrom("oauth_tokens")
      .innerJoin("oauth_grants", "oauth_grants.id", "oauth_tokens.grant_id")
      .select(["oauth_tokens.id", "oauth_tokens.kind", "oauth_tokens.grant_id", "oauth_grants.client_id"])
      .where("oauth_tokens.token_hash", "=", sha256Hex(token))
      .executeTakeFirst();
    if (row && row.client_id === client.id) {
      if (row.kind === "refresh") await revokeGrant(db, row.grant_id);
      else await db.updateTable("oauth_tokens").set({ revoked_at: isoNow() }).where("id", "=", row.id).execute();
    }
    return new Response(null, { status: 200, headers: { "Cache-Control": "no-store" } });
  });
}

/** RFC 7662, for the client the token was issued to; any other token is simply inactive. */
export function introspectionEndpoint(request: Request, context: AppLoadContext, issuer: string): Promise<Response> {
  return clientEndpoint(request, context, async (client, form, db) => {
    const token = tokenParameter(form);
    const row = await db
      .selectFrom("oauth_tokens")
      .innerJoin("oauth_grants", "oauth_grants.id", "oauth_tokens.grant_id")
      .innerJoin("users", "users.id", "oauth_grants.user_id")
      .select([
        "oauth_tokens.kind",
        "oauth_tokens.scopes",
        "oauth_tokens.expires_at",
        "oauth_tokens.created_at",
        "oauth_tokens.used_at",
        "oauth_tokens.revoked_at",
        "oauth_grants.client_id",
        "oauth_grants.revoked_at as grant_revoked_at",
        "users.id as user_id",
        "users.email",
        "users.status",
      ])
      .where("oauth_tokens.token_hash", "=", sha256Hex(token))
      .executeTakeFirst();
    const headers = { "Cache-Control": "no-store" };
    const active =
      row &&
      row.client_id === client.id &&
      !row.revoked_at &&
      !row.grant_revoked_at &&
      !(row.kind === "refresh" && row.used_at) &&
      row.expires_at > isoNow() &&
      row.status === "active";
    if (!active) return Response.json({ active: false }, { headers });
    return Response.json(
      {
        active: true,
        scope: row.scopes,
        client_id: row.client_id,
        // The e-mail address is what read_profile grants; without it, the subject id only.
        ...(parseScopes(row.scopes).includes("read_profile") ? { username: row.email } : {}),
        sub: row.user_id,
        token_type: row.kind === "access" ? "Bearer" : "refresh_token",
        exp: Math.floor(Date.parse(row.expires_at) / 1000),
        iat: Math.floor(Date.parse(row.created_at) / 1000),
        iss: issuer,
      },
      { headers },
    );
  });
}

/**
 * The loader and action of a client-authenticated endpoint (token, revoke, introspect): POST only, every other
 * method a 405 in RFC 6749's shape. Declared for integrators; the client authenticates itself inside `handle`.
 */
export function clientAuthenticatedRoute(handle: (request: Request, context: AppLoadContext) => Promise<Response>) {
  const clientAuth = { unguarded: "the OAuth client authenticates itself here (RFC 6749 §2.3)" };
  return {
    loader: page("integrator", ({ request }: LoaderFunctionArgs) => oauthMethodNotAllowed({ request }), clientAuth),
    action: page(
      "integrator",
      ({ request, context }: ActionFunctionArgs) =>
        request.method === "POST" ? handle(request, context) : oauthMethodNotAllowed({ request }),
      clientAuth,
    ),
  };
}
