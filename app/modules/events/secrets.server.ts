/**
 * The secrets operators give the senders of one workspace's event families (ADR 027). Shown once (`whsec_…`,
 * the Standard Webhooks format), sealed at rest with the app key, bound to their row so a sealed value copied
 * to another row does not open. Rotation keeps the old secret valid until `expires_at` (the overlap window), so
 * a sender can switch without a gap; revocation ends a secret at once. Each change is audited in its
 * transaction.
 */
import type { Db } from "~db/client";
import { isoNow, now } from "~/lib/clock.server";
import { notFound } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import type { SecretBox } from "~/modules/secrets/secret-box.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { generateWebhookSecret } from "~/modules/webhooks/standard-webhooks.server";

export const receiverSecretBinding = (secretId: string) => `webhook_receiver_secret:${secretId}`;

export interface ReceiverSecretView {
  id: string;
  family: string;
  hint: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  /** Verifies events now: not revoked, not past its expiry. */
  active: boolean;
}

export interface SecretActor {
  userId: string | null;
  ip: string | null;
}

export function receiverSecretsOf(services: { db: Db; secrets: SecretBox }, workspaceId: string) {
  const { db, secrets } = services;
  const rows = () => db.selectFrom("webhook_receiver_secrets").where("workspace_id", "=", workspaceId);
  const isActive = (row: { expires_at: string | null; revoked_at: string | null }, at: string) =>
    !row.revoked_at && (!row.expires_at || row.expires_at > at);

  async function issue(trx: Db, actor: SecretActor, family: string) {
    const id = newId();
    const secret = generateWebhookSecret();
    await trx
      .insertInto("webhook_receiver_secrets")
      .values({
        id,
        workspace_id: workspaceId,
        family,
        secret_enc: secrets.seal(secret, receiverSecretBinding(id)),
        hint: secret.slice(-4),
        created_by: actor.userId,
        created_at: isoNow(),
        expires_at: null,
        revoked_at: null,
      })
      .execute();
    return { id, secret };
  }

  return {
    /** Every secret of the workspace, newest first (revoked and expired ones too, for the record). */
    async list(): Promise<ReceiverSecretView[]> {
      const at = isoNow();
      const found = await rows().selectAll().orderBy("created_at", "desc").orderBy("id", "desc").execute();
      return found.map((r) => ({
        id: r.id,
        family: r.family,
        hint: r.hint,
        createdAt: r.created_at,
        expiresAt: r.expires_at,
        revokedAt: r.revoked_at,
        active: isActive(r, at),
      }));
    },

    /** The plain secrets that verify the family's events now: the current one and any still in its overlap. */
    async activeSecrets(family: string): Promise<string[]> {
      const at = isoNow();
      const found = await rows()
        .select(["id", "secret_enc", "expires_at", "revoked_at"])
        .where("family", "=", family)
        .where("revoked_at", "is", null)
        .execute();
      return found.filter((r) => isActive(r, at)).map((r) => secrets.open(r.secret_enc, receiverSecretBinding(r.id)));
    },

    /**
     * A new secret for the family, shown once. When the family has a current secret, this is a rotation: the
     * old one keeps working for `overlapHours` more (0: it stops now).
     */
    async create(actor: SecretActor, family: string, overlapHours: number): Promise<{ id: string; secret: string }> {
      return db.transaction().execute(async (trx) => {
        const expiresAt = new Date(now().getTime() + overlapHours * 3_600_000).toISOString();
        const rotated = await trx
          .updateTable("webhook_receiver_secrets")
          .set({ expires_at: expiresAt })
          .where("workspace_id", "=", workspaceId)
          .where("family", "=", family)
          .where("revoked_at", "is", null)
          .where("expires_at", "is", null)
          .executeTakeFirst();
        const issued = await issue(trx, actor, family);
        const replaced = Number(rotated.numUpdatedRows);
        await recordWorkspaceEvent(trx, workspaceId, {
          action: replaced > 0 ? "webhooks.secret.rotated" : "webhooks.secret.created",
          actorUserId: actor.userId,
          ip: actor.ip,
          detail: { family, secretId: issued.id, ...(replaced > 0 ? { previousExpiresAt: expiresAt } : {}) },
        });
        return issued;
      });
    },

    /** Ends a secret at once: events signed with it are refused from now on. */
    async revoke(actor: SecretActor, secretId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom("webhook_receiver_secrets")
          .select(["family", "revoked_at"])
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", secretId)
          .executeTakeFirst();
        if (!row) throw notFound("No such secret in this workspace");
        if (row.revoked_at) return;
        await trx
          .updateTable("webhook_receiver_secrets")
          .set({ revoked_at: isoNow() })
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", secretId)
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "webhooks.secret.revoked",
          actorUserId: actor.userId,
          ip: actor.ip,
          detail: { family: row.family, secretId },
        });
      });
    },
  };
}

export type ReceiverSecretsRepo = ReturnType<typeof receiverSecretsOf>;
