/**
 * OAuth apps (clients), registered by an operator in the console. A confidential client gets a secret, shown
 * once and stored as a SHA-256; a public client (a single-page or native app) has none and must use PKCE.
 * Redirect URIs are compared exactly (RFC 9700 §2.1): no prefixes, no wildcards.
 */
import { timingSafeEqual } from "node:crypto";
import { sha256Hex } from "~/lib/hash.server";
import { z } from "zod";
import type { Db } from "~db/client";
import type { OAuthClientType, OAuthClientsTable } from "~db/schema";
import { isoNow } from "~/lib/clock.server";
import { invalid, notFound } from "~/lib/errors";
import { newSecret } from "~/lib/ids.server";
import { recordAccountEvent, type Actor } from "~/modules/audit/audit.server";

export const CLIENT_ID_PREFIX = "atr_client_";
export const CLIENT_SECRET_PREFIX = "atr_cs_";
const MAX_REDIRECT_URIS = 10;

const hashSecret = sha256Hex;

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(secret: string, hash: string | null): boolean {
  if (!hash) return false;
  return timingSafeEqual(Buffer.from(hashSecret(secret), "hex"), Buffer.from(hash, "hex"));
}

export const isLoopback = (url: URL) => ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);

/** Exact match, except the port of a loopback http URI, which a native app picks at run time (RFC 8252 §7.3). */
export function redirectUriMatches(registered: string, asked: string): boolean {
  if (registered === asked) return true;
  let a: URL;
  let b: URL;
  try {
    a = new URL(registered);
    b = new URL(asked);
  } catch {
    return false;
  }
  if (a.protocol !== "http:" || !isLoopback(a) || b.protocol !== "http:" || a.hostname !== b.hostname) return false;
  return a.pathname === b.pathname && a.search === b.search && !b.hash && !b.username && !b.password;
}

function checkRedirectUri(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value.slice(0, 80)}" is not an absolute URL`;
  }
  if (url.hash) return "A redirect URI cannot have a fragment (#…)";
  if (url.username || url.password) return "A redirect URI cannot contain credentials";
  // Native apps use a loopback redirect (RFC 8252 §7.3): http on localhost, any port at request time.
  if (url.protocol === "http:" && !isLoopback(url)) return "Use https (http is allowed for localhost only)";
  if (url.protocol !== "https:" && url.protocol !== "http:") return "Use an https URL (or http on localhost)";
  return null;
}

export const AppFields = z.object({
  name: z.string().trim().min(1, "Name the app as your users will see it").max(80, "Use at most 80 characters"),
  clientType: z.enum(["confidential", "public"], { message: "Choose confidential or public" }),
  redirectUris: z
    .string()
    .transform((v) => [...new Set(v.split(/\s+/).filter(Boolean))])
    .superRefine((uris, ctx) => {
      if (uris.length === 0) ctx.addIssue({ code: "custom", message: "Give at least one redirect URI" });
      if (uris.length > MAX_REDIRECT_URIS) ctx.addIssue({ code: "custom", message: `At most ${MAX_REDIRECT_URIS}` });
      for (const uri of uris) {
        const problem = checkRedirectUri(uri);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }
    }),
});
export type AppInput = z.output<typeof AppFields>;

export interface AppView {
  clientId: string;
  name: string;
  clientType: OAuthClientType;
  redirectUris: string[];
  secretCreatedAt: string | null;
  createdAt: string;
}

const toView = (row: OAuthClientsTable): AppView => ({
  clientId: row.id,
  name: row.name,
  clientType: row.client_type,
  redirectUris: JSON.parse(row.redirect_uris) as string[],
  secretCreatedAt: row.secret_created_at,
  createdAt: row.created_at,
});

/** The apps one operator registered. Each act records its audit event in its own transaction. */
export function oauthAppsOf(db: Db, ownerUserId: string) {
  const rows = () => db.selectFrom("oauth_clients").where("owner_user_id", "=", ownerUserId);
  const audit = (trx: Db, actor: Actor, action: string, clientId: string) =>
    recordAccountEvent(trx, ownerUserId, { action, actorUserId: actor.userId, detail: { clientId }, ip: actor.ip });
  async function require(clientId: string) {
    const row = await rows().selectAll().where("id", "=", clientId).executeTakeFirst();
    if (!row) throw notFound("No such app");
    return row;
  }
  return {
    list: async () => (await rows().selectAll().orderBy("created_at", "desc").execute()).map(toView),

    async register(actor: Actor, input: AppInput): Promise<{ app: AppView; secret: string | null }> {
      const secret = input.clientType === "confidential" ? `${CLIENT_SECRET_PREFIX}${newSecret(32)}` : null;
      const at = isoNow();
      const row: OAuthClientsTable = {
        id: `${CLIENT_ID_PREFIX}${newSecret(16)}`,
        owner_user_id: ownerUserId,
        name: input.name,
        client_type: input.clientType,
        redirect_uris: JSON.stringify(input.redirectUris),
        secret_hash: secret ? hashSecret(secret) : null,
        secret_created_at: secret ? at : null,
        created_at: at,
      };
      await db.transaction().execute(async (trx) => {
        await trx.insertInto("oauth_clients").values(row).execute();
        await audit(trx, actor, "oauth.app.registered", row.id);
      });
      return { app: toView(row), secret };
    },

    /** A new secret; the old one stops working at once (tokens already issued stay valid). */
    async rotateSecret(actor: Actor, clientId: string): Promise<{ app: AppView; secret: string }> {
      const row = await require(clientId);
      if (row.client_type !== "confidential") throw invalid("A public app has no secret");
      const secret = `${CLIENT_SECRET_PREFIX}${newSecret(32)}`;
      const at = isoNow();
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("oauth_clients")
          .set({ secret_hash: hashSecret(secret), secret_created_at: at })
          .where("id", "=", clientId)
          .where("owner_user_id", "=", ownerUserId)
          .execute();
        await audit(trx, actor, "oauth.app.secret_rotated", clientId);
      });
      return { app: toView({ ...row, secret_created_at: at }), secret };
    },

    /** Deletes the app with every grant, code and token it holds (cascade). */
    async remove(actor: Actor, clientId: string): Promise<void> {
      await require(clientId);
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom("oauth_clients")
          .where("id", "=", clientId)
          .where("owner_user_id", "=", ownerUserId)
          .execute();
        await audit(trx, actor, "oauth.app.deleted", clientId);
      });
    },
  };
}

/** The authorization server's lookup: `client_id` is a public identifier, valid across the deployment. */
export function findClient(db: Db, clientId: string) {
  return db.selectFrom("oauth_clients").selectAll().where("id", "=", clientId).executeTakeFirst();
}
