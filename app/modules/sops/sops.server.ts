/**
 * SOP definitions: the editor's form rules and the `sops` table of one workspace. Their trigger is
 * `sop-triggers.server.ts`, their runs and completion notices `sop-runs.server.ts`. Built for one workspace
 * (DESIGN rule 2): another workspace's SOP is simply not found.
 */
import { z } from "zod";
import type { Db } from "~db/client";
import { isUniqueViolation } from "~db/client";
import type { SopsTable } from "~db/schema";
import { isoNow } from "~/lib/clock.server";
import type { FormValues } from "~/lib/forms.server";
import { DomainError, conflict, invalid, issuesOf, notFound, type FieldIssue } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { recordWorkspaceEvent, type Actor } from "~/modules/audit/audit.server";
import type { SecretBox } from "~/modules/secrets/secret-box.server";
import { SLUG_PATTERN } from "~/modules/tenancy/slug";
import { checkUrl } from "~/modules/outbound/outbound-http.server";
import { generateWebhookSecret } from "~/modules/webhooks/standard-webhooks.server";
import { IDENTIFIER, stepDefinition } from "./steps/registry.server";
import type { StoredStep } from "./steps/types";

export const MAX_STEPS = 20;
/** The spec recommends rotating trigger secrets every 90 days; the console reminds after that. */
export const ROTATE_AFTER_DAYS = 90;

export const SopFields = z.object({
  name: z.string().trim().min(1, "Name the SOP").max(80, "Use at most 80 characters"),
  slug: z
    .string()
    .trim()
    .min(2, "Use at least 2 characters")
    .max(60, "Use at most 60 characters")
    .regex(SLUG_PATTERN, "Use lowercase letters, digits and single hyphens (no hyphen at either end)"),
  description: z.string().trim().max(500, "Use at most 500 characters").default(""),
  callbackUrl: z
    .string()
    .trim()
    .max(2000, "Use at most 2000 characters")
    .refine((v) => v === "" || /^https?:\/\/[^\s]+$/i.test(v), "Enter a URL starting with https://")
    .transform((v) => v || null),
});
export type SopFieldsInput = z.output<typeof SopFields>;

/** The steps posted by the editor: `step.<i>.type`, `step.<i>.name`, `step.<i>.<field>`. */
export function stepsFromForm(values: FormValues): StoredStep[] {
  const indexes = new Set<number>();
  for (const key of Object.keys(values)) {
    const match = /^step\.(\d{1,3})\.type$/.exec(key);
    if (match) indexes.add(Number(match[1]));
  }
  return [...indexes]
    .sort((a, b) => a - b)
    .map((i) => {
      const step: StoredStep = { type: values[`step.${i}.type`]! };
      const name = values[`step.${i}.name`]?.trim();
      if (name) step.name = name;
      for (const field of stepDefinition(step.type)?.fields ?? [])
        step[field.name] = values[`step.${i}.${field.name}`] ?? "";
      return step;
    });
}

/** Validates and normalises steps; issues are named `step.<i>.<field>` for the editor. */
export function validateSteps(steps: StoredStep[]): StoredStep[] {
  if (steps.length > MAX_STEPS) throw invalid(`A SOP has at most ${MAX_STEPS} steps`);
  const issues: FieldIssue[] = [];
  const names = new Set<string>();
  const clean = steps.map((step, i) => {
    const definition = stepDefinition(step.type);
    if (!definition) {
      issues.push({ field: `step.${i}.type`, message: `Unknown step type "${step.type}"` });
      return step;
    }
    if (step.name !== undefined) {
      if (!IDENTIFIER.test(step.name)) {
        issues.push({ field: `step.${i}.name`, message: "Use letters, digits and _ (not starting with a digit)" });
      } else if (/^step\d+$/.test(step.name) && step.name !== `step${i + 1}`) {
        issues.push({ field: `step.${i}.name`, message: "Names like step2 belong to unnamed steps: choose another" });
      } else if (names.has(step.name)) {
        issues.push({ field: `step.${i}.name`, message: "Another step has this name" });
      }
      names.add(step.name);
    }
    const parsed = definition.schema.safeParse(step);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        issues.push({ field: `step.${i}.${issue.path.map(String).join(".")}`, message: issue.message });
      }
      return step;
    }
    const result: StoredStep = { type: step.type, ...(step.name ? { name: step.name } : {}) };
    for (const [key, value] of Object.entries(parsed.data as Record<string, unknown>)) result[key] = String(value);
    return result;
  });
  if (issues.length) throw invalid("Check the highlighted steps", issues);
  return clean;
}

/** The editor's whole form: fields and steps validated together, so every mistake is shown at once. */
export function parseSopForm(
  values: FormValues,
  policy: { requireHttps: boolean },
): { fields: SopFieldsInput; steps: StoredStep[] } {
  const issues: FieldIssue[] = [];
  const fields = SopFields.safeParse(values);
  if (!fields.success) issues.push(...issuesOf(fields.error));
  if (fields.success && fields.data.callbackUrl) {
    // The outbound module's own rules (scheme, https in production, no credentials), said at save time.
    try {
      checkUrl(fields.data.callbackUrl, policy);
    } catch (error) {
      issues.push({ field: "callbackUrl", message: error instanceof Error ? error.message : String(error) });
    }
  }
  let steps: StoredStep[] = [];
  try {
    steps = validateSteps(stepsFromForm(values));
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    issues.push(...(error.detail.issues ?? []));
    if (!error.detail.issues?.length) throw error;
  }
  if (issues.length || !fields.success) throw invalid("Check the highlighted fields", issues);
  return { fields: fields.data, steps };
}

export interface SopView {
  id: string;
  slug: string;
  name: string;
  description: string;
  enabled: boolean;
  steps: StoredStep[];
  callbackUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

const toView = (row: SopsTable): SopView => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  description: row.description,
  enabled: row.enabled === 1,
  steps: JSON.parse(row.steps) as StoredStep[],
  callbackUrl: row.callback_url,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export const callbackBinding = (sopId: string) => `sop_callback:${sopId}`;

/**
 * The SOP definitions of one workspace. Every statement starts from one of the scoped bases below, so none
 * can reach another workspace's SOP; the acts (create, update, enable, disable, delete) record their audit
 * event in their own transaction.
 */
export function sopsOf(db: Db, workspaceId: string, box: SecretBox) {
  const sops = () => db.selectFrom("sops").where("sops.workspace_id", "=", workspaceId);
  const changeSops = (executor: Db) => executor.updateTable("sops").where("workspace_id", "=", workspaceId);
  const audit = (executor: Db, actor: Actor, action: string, detail: Record<string, unknown>) =>
    recordWorkspaceEvent(executor, workspaceId, { action, actorUserId: actor.userId, detail, ip: actor.ip });

  async function require(id: string): Promise<SopsTable> {
    const row = await sops().selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw notFound("No such SOP in this workspace");
    return row;
  }

  const slugTaken = () =>
    conflict("This slug is taken", [{ field: "slug", message: "This slug is taken: choose another" }]);

  /** Runs `change` and its audit event in one transaction; false when the SOP was not there to change. */
  async function act(
    actor: Actor,
    action: string,
    detail: Record<string, unknown>,
    change: (trx: Db) => Promise<number | bigint>,
  ) {
    try {
      await db.transaction().execute(async (trx) => {
        if (Number(await change(trx)) === 0) throw notFound("No such SOP in this workspace");
        await audit(trx, actor, action, detail);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw slugTaken();
      throw error;
    }
  }

  return {
    async list(): Promise<
      (SopView & { triggerId: string | null; lastRun: { status: string; createdAt: string } | null })[]
    > {
      // One query: each SOP with its trigger and its latest run (the index on sop_runs(sop_id, created_at)).
      const rows = await sops()
        .leftJoin("sop_triggers", "sop_triggers.sop_id", "sops.id")
        .selectAll("sops")
        .select((eb) => {
          const latestRun = () =>
            eb
              .selectFrom("sop_runs")
              .whereRef("sop_runs.sop_id", "=", "sops.id")
              .orderBy("sop_runs.created_at", "desc")
              .limit(1);
          return [
            "sop_triggers.id as trigger_id",
            latestRun().select("sop_runs.status").as("last_status"),
            latestRun().select("sop_runs.created_at").as("last_created_at"),
          ];
        })
        .orderBy("sops.name")
        .execute();
      return rows.map(({ trigger_id, last_status, last_created_at, ...row }) => ({
        ...toView(row),
        triggerId: trigger_id,
        lastRun: last_status && last_created_at ? { status: last_status, createdAt: last_created_at } : null,
      }));
    },

    get: async (id: string) => toView(await require(id)),

    async create(actor: Actor, fields: SopFieldsInput, steps: StoredStep[]): Promise<SopView> {
      const at = isoNow();
      const id = newId();
      const row: SopsTable = {
        id,
        workspace_id: workspaceId,
        slug: fields.slug,
        name: fields.name,
        description: fields.description,
        enabled: 1,
        steps: JSON.stringify(validateSteps(steps)),
        callback_url: fields.callbackUrl,
        callback_secret_enc: fields.callbackUrl ? box.seal(generateWebhookSecret(), callbackBinding(id)) : null,
        created_at: at,
        updated_at: at,
      };
      await act(actor, "sop.created", { sopId: id, slug: row.slug }, async (trx) => {
        await trx.insertInto("sops").values(row).execute();
        return 1;
      });
      return toView(row);
    },

    async update(actor: Actor, id: string, fields: SopFieldsInput, steps: StoredStep[]): Promise<SopView> {
      const current = await require(id);
      const clean = validateSteps(steps);
      // Clearing the callback URL drops its secret; setting one again makes a new secret.
      const secret = !fields.callbackUrl
        ? null
        : (current.callback_secret_enc ?? box.seal(generateWebhookSecret(), callbackBinding(id)));
      await act(actor, "sop.updated", { sopId: id }, async (trx) => {
        const result = await changeSops(trx)
          .set({
            name: fields.name,
            slug: fields.slug,
            description: fields.description,
            steps: JSON.stringify(clean),
            callback_url: fields.callbackUrl,
            callback_secret_enc: secret,
            updated_at: isoNow(),
          })
          .where("id", "=", id)
          .executeTakeFirst();
        return result.numUpdatedRows;
      });
      return toView(await require(id));
    },

    async setEnabled(actor: Actor, id: string, enabled: boolean): Promise<void> {
      await act(actor, enabled ? "sop.enabled" : "sop.disabled", { sopId: id }, async (trx) => {
        const result = await changeSops(trx)
          .set({ enabled: enabled ? 1 : 0, updated_at: isoNow() })
          .where("id", "=", id)
          .executeTakeFirst();
        return result.numUpdatedRows;
      });
    },

    /**
     * Deletes the SOP with its trigger, runs, failures and deliveries (cascade). Jobs still queued for its
     * runs find nothing to do and finish.
     */
    async remove(actor: Actor, id: string): Promise<void> {
      const { slug } = await require(id);
      await act(actor, "sop.deleted", { sopId: id, slug }, async (trx) => {
        const result = await trx
          .deleteFrom("sops")
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", id)
          .executeTakeFirst();
        return result.numDeletedRows;
      });
    },

    /** The completion notices' signing secret (admins see it in the console to verify deliveries). */
    async callbackSecret(id: string): Promise<string | null> {
      const row = await require(id);
      return row.callback_secret_enc ? box.open(row.callback_secret_enc, callbackBinding(id)) : null;
    },
  };
}

export type SopsRepo = ReturnType<typeof sopsOf>;

/**
 * The workspace a SOP belongs to and whether its owner is active, for the access check of /api/sops/{id}/…
 * (which then requires membership there, and refuses bearer credentials while the owner is suspended). One of
 * the module's two lookups by id alone (the other is the trigger path's `findSopForTrigger`); it returns
 * nothing of the SOP itself.
 */
export async function workspaceOfSop(
  db: Db,
  sopId: string,
): Promise<{ workspaceId: string; ownerActive: boolean } | undefined> {
  const row = await db
    .selectFrom("sops")
    .innerJoin("workspaces", "workspaces.id", "sops.workspace_id")
    .innerJoin("users", "users.id", "workspaces.owner_user_id")
    .select(["sops.workspace_id", "users.status as owner_status"])
    .where("sops.id", "=", sopId)
    .executeTakeFirst();
  return row && { workspaceId: row.workspace_id, ownerActive: row.owner_status === "active" };
}
