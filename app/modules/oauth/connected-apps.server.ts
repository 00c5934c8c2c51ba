/** The apps a user has authorized (live grants), and "Revoke access": every token of the grant stops at once. */
import type { Db } from "~db/client";
import { isoNow } from "~/lib/clock.server";
import { notFound } from "~/lib/errors";
import { recordAccountEvent, type Actor } from "~/modules/audit/audit.server";
import { parseScopes } from "./scopes";
import { revokeGrant } from "./tokens.server";

export function connectedAppsOf(db: Db, userId: string) {
  const grants = () => db.selectFrom("oauth_grants").where("oauth_grants.user_id", "=", userId);
  return {
    list: async () =>
      (
        await grants()
          .innerJoin("oauth_clients", "oauth_clients.id", "oauth_grants.client_id")
          .select([
            "oauth_grants.id",
            "oauth_grants.scopes",
            "oauth_grants.created_at",
            "oauth_grants.last_used_at",
            "oauth_clients.name",
            "oauth_clients.id as client_id",
          ])
          .where("oauth_grants.revoked_at", "is", null)
          .orderBy("oauth_grants.created_at", "desc")
          .execute()
      ).map((g) => ({
        grantId: g.id,
        app: g.name,
        clientId: g.client_id,
        scopes: parseScopes(g.scopes),
        authorizedAt: g.created_at,
        lastUsedAt: g.last_used_at,
      })),

    /** "Revoke access", recorded in the user's audit trail in the same transaction. */
    async revoke(actor: Actor, grantId: string): Promise<void> {
      const grant = await grants()
        .select("id")
        .where("id", "=", grantId)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      if (!grant) throw notFound("No such connected app");
      await revokeGrant(db, grant.id, (trx) =>
        recordAccountEvent(trx, userId, {
          action: "oauth.grant.revoked",
          actorUserId: actor.userId,
          detail: { grantId },
          ip: actor.ip,
        }),
      );
    },

    /** The bearer chain's note that a grant of this user was just used (shown under Connected apps). */
    async touchLastUsed(grantId: string): Promise<void> {
      await db
        .updateTable("oauth_grants")
        .set({ last_used_at: isoNow() })
        .where("user_id", "=", userId)
        .where("id", "=", grantId)
        .execute();
    },
  };
}
