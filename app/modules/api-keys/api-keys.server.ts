/**
 * API keys of one user: generate (within the plan's limit of active keys), list, revoke, roll. A key is
 * shown once, at generation; only its SHA-256 and visible prefix are kept.
 */
import type { Db } from "~db/client";
import type { ApiKeysTable, KeyEnvironment, Tier } from "~db/schema";
import { addDays, isoNow, now } from "~/lib/clock.server";
import { forbidden, invalid, notFound } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { recordAccountEvent } from "~/modules/audit/audit.server";
import { TIER_PLANS } from "~/modules/plans/tiers";
import { workspaceOf } from "~/modules/tenancy/workspaces.server";
import { generateKey } from "./format.server";

export type KeyStatus = "active" | "expired" | "revoked";

export interface ApiKeyView {
  id: string;
  name: string;
  environment: KeyEnvironment;
  displayPrefix: string;
  workspaceId: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  status: KeyStatus;
}

export interface NewKeyInput {
  name: string;
  environment: KeyEnvironment;
  /** Days until it expires; null = never. */
  expiresInDays: number | null;
  /** Restrict to one workspace the user belongs to; null = all of them. */
  workspaceId: string | null;
}

export function statusOf(key: Pick<ApiKeysTable, "revoked_at" | "expires_at">, at = now()): KeyStatus {
  if (key.revoked_at) return "revoked";
  if (key.expires_at && Date.parse(key.expires_at) <= at.getTime()) return "expired";
  return "active";
}

function view(row: ApiKeysTable): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    environment: row.environment,
    displayPrefix: row.display_prefix,
    workspaceId: row.workspace_id,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    status: statusOf(row),
  };
}

export function apiKeysOf(db: Db, user: { id: string; tier: Tier }) {
  const keys = () => db.selectFrom("api_keys").where("user_id", "=", user.id);
  const changeKeys = (executor: Db) => executor.updateTable("api_keys").where("user_id", "=", user.id);

  async function activeCount(executor: Db = db): Promise<number> {
    const at = isoNow();
    const row = await executor
      .selectFrom("api_keys")
      .where("user_id", "=", user.id)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("revoked_at", "is", null)
      .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", at)]))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Refuses (403) when the plan's active keys are all in use. Runs inside the transaction that adds a key, after
   * a write to the user's row: that write locks the row on Postgres (and takes SQLite's write lock), so two
   * requests at once cannot both pass the count.
   */
  async function withinPlan(trx: Db) {
    const plan = TIER_PLANS[user.tier];
    if (plan.maxActiveApiKeys === null) return;
    await trx
      .updateTable("users")
      .set((eb) => ({ updated_at: eb.ref("updated_at") }))
      .where("id", "=", user.id)
      .execute();
    if ((await activeCount(trx)) >= plan.maxActiveApiKeys) {
      throw forbidden(
        `The ${plan.label} plan allows ${plan.maxActiveApiKeys} active keys (a rolled key counts until its grace period ends): revoke one, or move to a plan with more`,
      );
    }
  }

  async function ownKey(id: string) {
    const row = await keys().selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw notFound("No such key");
    return row;
  }

  async function insert(trx: Db, input: NewKeyInput, replaces?: string) {
    const generated = generateKey(input.environment);
    const createdAt = isoNow();
    const row: ApiKeysTable = {
      id: newId(),
      user_id: user.id,
      workspace_id: input.workspaceId,
      name: input.name,
      environment: input.environment,
      display_prefix: generated.displayPrefix,
      key_hash: generated.hash,
      created_at: createdAt,
      last_used_at: null,
      expires_at: input.expiresInDays === null ? null : addDays(new Date(createdAt), input.expiresInDays).toISOString(),
      revoked_at: null,
      replaced_by_id: null,
    };
    await trx.insertInto("api_keys").values(row).execute();
    await recordAccountEvent(trx, user.id, {
      action: replaces ? "api_key.rolled" : "api_key.created",
      actorUserId: user.id,
      detail: { keyId: row.id, prefix: row.display_prefix, replaces },
    });
    return { key: generated.key, view: view(row) };
  }

  return {
    list: async (page: { size: number; offset: number }) =>
      (
        await keys()
          .selectAll()
          .orderBy("created_at", "desc")
          .orderBy("id", "desc")
          .limit(page.size)
          .offset(page.offset)
          .execute()
      ).map(view),

    count: async () =>
      Number(
        (
          await keys()
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),

    activeCount,

    /** The bearer chain's note that a key of this user was just used (shown in the console). */
    async touchLastUsed(id: string): Promise<void> {
      await changeKeys(db).set({ last_used_at: isoNow() }).where("id", "=", id).execute();
    },

    /** The plan's gate: a Free account holds at most 3 active keys (TIER_PLANS). */
    async generate(input: NewKeyInput) {
      if (input.workspaceId && !(await workspaceOf(db, input.workspaceId).roleOf(user.id))) {
        throw invalid("Choose one of your workspaces", [
          { field: "workspaceId", message: "Choose one of your workspaces" },
        ]);
      }
      return db.transaction().execute(async (trx) => {
        await withinPlan(trx);
        return insert(trx, input);
      });
    },

    async revoke(id: string) {
      const row = await ownKey(id);
      if (row.revoked_at) return;
      await db.transaction().execute(async (trx) => {
        await changeKeys(trx).set({ revoked_at: isoNow() }).where("id", "=", row.id).execute();
        await recordAccountEvent(trx, user.id, {
          action: "api_key.revoked",
          actorUserId: user.id,
          detail: { keyId: row.id },
        });
      });
    },

    /**
     * Replaces a key with a new one of the same name, environment and workspace. The old key keeps working
     * for `graceHours` (0 = stops at once; never past its own expiry), so a deployment can switch without
     * downtime. A key is rolled once; while its grace runs it still counts as active against the plan.
     */
    async roll(id: string, graceHours: number) {
      const old = await ownKey(id);
      if (statusOf(old) !== "active" || old.replaced_by_id) throw invalid("Only an active key can be rolled, once");
      const lifetimeDays = old.expires_at
        ? Math.max(1, Math.round((Date.parse(old.expires_at) - Date.parse(old.created_at)) / 86_400_000))
        : null;
      const at = now().getTime();
      const graceEnds = Math.min(at + graceHours * 3_600_000, old.expires_at ? Date.parse(old.expires_at) : Infinity);
      return db.transaction().execute(async (trx) => {
        // With a grace period the old key stays live beside the new one: that must fit in the plan too.
        if (graceHours > 0) await withinPlan(trx);
        const created = await insert(
          trx,
          { name: old.name, environment: old.environment, expiresInDays: lifetimeDays, workspaceId: old.workspace_id },
          old.id,
        );
        const ends = new Date(graceHours > 0 ? graceEnds : at).toISOString();
        // Conditional, so two rolls of the same key at once cannot both succeed.
        const { numUpdatedRows } = await changeKeys(trx)
          .set(
            graceHours > 0
              ? { expires_at: ends, replaced_by_id: created.view.id }
              : { revoked_at: ends, replaced_by_id: created.view.id },
          )
          .where("id", "=", old.id)
          .where("revoked_at", "is", null)
          .where("replaced_by_id", "is", null)
          .executeTakeFirst();
        if (Number(numUpdatedRows) !== 1) throw invalid("Only an active key can be rolled, once");
        return created;
      });
    },
  };
}
