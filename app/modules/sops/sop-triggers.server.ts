/**
 * A SOP's trigger: its sealed secret and rotation, its use, and the verifications that failed against it
 * (`sop_triggers`, `sop_verification_failures`). Built for one workspace (DESIGN rule 2). The one lookup
 * across workspaces is `findSopForTrigger`: the trigger URL names a SOP by id or slug alone, and the answer
 * says which workspace to build this repository for.
 */
import { z } from "zod";
import { isUniqueViolation, type Db } from "~db/client";
import { isoNow } from "~/lib/clock.server";
import { conflict, notFound } from "~/lib/errors";
import { newId, newSecret } from "~/lib/ids.server";
import { recordWorkspaceEvent, type Actor } from "~/modules/audit/audit.server";
import type { SecretBox } from "~/modules/secrets/secret-box.server";
import { sopsOf } from "./sops.server";

export const TRIGGER_SECRET_PREFIX = "sops_";
export const newTriggerSecret = () => `${TRIGGER_SECRET_PREFIX}${newSecret(32)}`;
export const triggerBinding = (triggerId: string) => `sop_trigger:${triggerId}`;

export interface IssuedSecret {
  secret: string;
  triggerId: string;
  createdAt: string;
}

/** `IssuedSecret` as the rotation API's schema, for the API reference; checked against the interface. */
export const IssuedSecretSchema = z.object({
  secret: z.string().describe("The trigger's new signing secret, shown only now"),
  triggerId: z.string(),
  createdAt: z.string().describe("ISO 8601, UTC"),
}) satisfies z.ZodType<IssuedSecret>;

export interface TriggerView {
  id: string;
  createdAt: string;
  secretCreatedAt: string;
  failureCount: number;
  lastUsedAt: string | null;
}

export function triggersOf(db: Db, workspaceId: string, box: SecretBox) {
  const triggers = () => db.selectFrom("sop_triggers").where("workspace_id", "=", workspaceId);
  const changeTriggers = (executor: Db) => executor.updateTable("sop_triggers").where("workspace_id", "=", workspaceId);
  const failures = () => db.selectFrom("sop_verification_failures").where("workspace_id", "=", workspaceId);

  /** The act and its audit event commit together; a trigger that is not this SOP's is a 404 and records nothing. */
  async function act<T>(
    actor: Actor,
    action: string,
    detail: Record<string, unknown>,
    change: (trx: Db) => Promise<T>,
  ) {
    return db.transaction().execute(async (trx) => {
      const result = await change(trx);
      await recordWorkspaceEvent(trx, workspaceId, { action, actorUserId: actor.userId, detail, ip: actor.ip });
      return result;
    });
  }

  return {
    /** The SOP's trigger (a SOP has at most one), without its secret. */
    async ofSop(sopId: string): Promise<TriggerView | null> {
      const row = await triggers()
        .select(["id", "created_at", "secret_created_at", "failure_count", "last_used_at"])
        .where("sop_id", "=", sopId)
        .executeTakeFirst();
      if (!row) return null;
      return {
        id: row.id,
        createdAt: row.created_at,
        secretCreatedAt: row.secret_created_at,
        failureCount: row.failure_count,
        lastUsedAt: row.last_used_at,
      };
    },

    async create(actor: Actor, sopId: string): Promise<IssuedSecret> {
      // The SOP must be this workspace's: the foreign key alone would accept any workspace's SOP.
      await sopsOf(db, workspaceId, box).get(sopId);
      const secret = newTriggerSecret();
      const triggerId = newId();
      const createdAt = isoNow();
      try {
        await act(actor, "sop.trigger.created", { sopId, triggerId }, (trx) =>
          trx
            .insertInto("sop_triggers")
            .values({
              id: triggerId,
              workspace_id: workspaceId,
              sop_id: sopId,
              secret_enc: box.seal(secret, triggerBinding(triggerId)),
              secret_created_at: createdAt,
              created_at: createdAt,
              failure_count: 0,
              last_used_at: null,
            })
            .execute(),
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict("This SOP already has a trigger: rotate or delete it");
        throw error;
      }
      return { secret, triggerId, createdAt };
    },

    /**
     * A new secret for the same trigger; the old one is refused from the next request on. A compare-and-set on
     * the secret itself: this rotation reads the sealed secret in force, and replaces exactly that one. Of
     * rotations that read the same secret, the first to commit wins and the others find it gone and are
     * refused with 409, so every secret a rotation returns was not replaced by another the caller could not
     * know about — it stays valid until a rotation that read it. Each sealing draws a fresh IV, so the
     * ciphertext names one secret; no clock is compared, so nodes whose clocks disagree cannot let a loser
     * through or refuse a winner. The conditional UPDATE is the whole check on both dialects: SQLite runs one
     * writer at a time, and Postgres re-reads the row a waiting UPDATE had to wait for.
     */
    async rotate(actor: Actor, sopId: string, triggerId: string): Promise<IssuedSecret> {
      const current = await triggers()
        .select("secret_enc")
        .where("id", "=", triggerId)
        .where("sop_id", "=", sopId)
        .executeTakeFirst();
      if (!current) throw notFound("No such trigger on this SOP");
      const secret = newTriggerSecret();
      return act(actor, "sop.trigger.rotated", { sopId, triggerId }, async (trx) => {
        const createdAt = isoNow();
        const result = await changeTriggers(trx)
          .set({ secret_enc: box.seal(secret, triggerBinding(triggerId)), secret_created_at: createdAt })
          .where("id", "=", triggerId)
          .where("sop_id", "=", sopId)
          .where("secret_enc", "=", current.secret_enc)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) > 0) return { secret, triggerId, createdAt };
        const exists = await trx
          .selectFrom("sop_triggers")
          .select("id")
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", triggerId)
          .where("sop_id", "=", sopId)
          .executeTakeFirst();
        if (!exists) throw notFound("No such trigger on this SOP");
        throw conflict(
          "Another rotation of this trigger's secret finished while this one was under way: the secret it returned is the one in force. Rotate again if you need another.",
        );
      });
    },

    async remove(actor: Actor, sopId: string, triggerId: string): Promise<void> {
      await act(actor, "sop.trigger.deleted", { sopId, triggerId }, async (trx) => {
        const result = await trx
          .deleteFrom("sop_triggers")
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", triggerId)
          .where("sop_id", "=", sopId)
          .executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) throw notFound("No such trigger on this SOP");
      });
    },

    /** An accepted request; `executor` is the transaction that queues its run. */
    async markUsed(triggerId: string, executor: Db = db): Promise<void> {
      await changeTriggers(executor).set({ last_used_at: isoNow() }).where("id", "=", triggerId).execute();
    },

    /**
     * A refused request, recorded against the SOP (and its trigger when it has one) for the console. Returns
     * how many failures the trigger has had since `since`, for the burst warning.
     */
    async recordFailure(failure: {
      sopId: string;
      triggerId: string | null;
      reason: string;
      ip: string | null;
      since: string;
    }): Promise<number> {
      await db
        .insertInto("sop_verification_failures")
        .values({
          id: newId(),
          workspace_id: workspaceId,
          sop_id: failure.sopId,
          trigger_id: failure.triggerId,
          reason: failure.reason,
          ip: failure.ip,
          created_at: isoNow(),
        })
        .execute();
      if (!failure.triggerId) return 0;
      await changeTriggers(db)
        .set((eb) => ({ failure_count: eb("failure_count", "+", 1) }))
        .where("id", "=", failure.triggerId)
        .execute();
      const recent = await failures()
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("sop_id", "=", failure.sopId)
        .where("trigger_id", "=", failure.triggerId)
        .where("created_at", ">=", failure.since)
        .executeTakeFirstOrThrow();
      return Number(recent.n);
    },

    /** Failed verifications per trigger of one SOP: counts and the latest reasons. */
    async failures(sopId: string) {
      const [rows, counts] = await Promise.all([
        failures()
          .select(["trigger_id", "reason", "ip", "created_at"])
          .where("sop_id", "=", sopId)
          .orderBy("created_at", "desc")
          .limit(20)
          .execute(),
        failures()
          .select(["trigger_id", (eb) => eb.fn.countAll<number>().as("n")])
          .where("sop_id", "=", sopId)
          .groupBy("trigger_id")
          .execute(),
      ]);
      return {
        counts: counts.map((c) => ({ triggerId: c.trigger_id, count: Number(c.n) })),
        latest: rows.map((r) => ({ triggerId: r.trigger_id, reason: r.reason, ip: r.ip, at: r.created_at })),
      };
    },
  };
}

export type TriggersRepo = ReturnType<typeof triggersOf>;

/**
 * The trigger path's lookup, by id or slug across the deployment (slugs are unique for this reason): what
 * verifying and queueing need — the SOP's workspace and whether its owner is active, its trigger's sealed
 * secret, whether it is enabled, and the steps a run copies — and nothing else of the SOP.
 */
export function findSopForTrigger(db: Db, ref: string) {
  return db
    .selectFrom("sops")
    .innerJoin("workspaces", "workspaces.id", "sops.workspace_id")
    .innerJoin("users", "users.id", "workspaces.owner_user_id")
    .leftJoin("sop_triggers", "sop_triggers.sop_id", "sops.id")
    .select([
      "users.status as owner_status",
      "sops.id",
      "sops.workspace_id",
      "sops.enabled",
      "sops.steps",
      "sop_triggers.id as trigger_id",
      "sop_triggers.secret_enc",
    ])
    .where((eb) => eb.or([eb("sops.id", "=", ref), eb("sops.slug", "=", ref)]))
    .executeTakeFirst();
}
