/**
 * SOPs of one workspace: definitions, their trigger, runs, verification failures and completion deliveries.
 * Built for one workspace (DESIGN rule 2): another workspace's SOP is simply not found. The single lookup
 * without a workspace is `findSopForTrigger`, because the trigger path names a SOP by id or slug alone.
 */
import { z } from "zod";
import type { Db } from "~db/client";
import { isUniqueViolation } from "~db/client";
import type { SopRunsTable, SopsTable } from "~db/schema";
import { isoNow } from "~/lib/clock.server";
import type { FormValues } from "~/lib/forms.server";
import { DomainError, conflict, invalid, issuesOf, notFound, type FieldIssue } from "~/lib/errors";
import { newId, newSecret } from "~/lib/ids.server";
import type { SecretBox } from "~/modules/secrets/secret-box.server";
import { SLUG_PATTERN } from "~/modules/tenancy/slug";
import { checkUrl } from "~/modules/outbound/outbound-http.server";
import { generateWebhookSecret } from "~/modules/webhooks/standard-webhooks.server";
import { IDENTIFIER, stepDefinition } from "./steps/registry.server";
import type { StepResult, StoredStep } from "./steps/types";

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

export interface RunView {
  id: string;
  sopId: string;
  triggerId: string | null;
  status: SopRunsTable["status"];
  input: unknown;
  steps: StepResult[];
  vars: unknown;
  error: string | null;
  attempts: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
}

export const runView = (row: SopRunsTable): RunView => ({
  id: row.id,
  sopId: row.sop_id,
  triggerId: row.trigger_id,
  status: row.status,
  input: JSON.parse(row.input),
  steps: JSON.parse(row.steps) as StepResult[],
  vars: JSON.parse(row.vars),
  error: row.error,
  attempts: row.attempts,
  createdAt: row.created_at,
  startedAt: row.started_at,
  finishedAt: row.finished_at,
  durationMs: row.started_at && row.finished_at ? Date.parse(row.finished_at) - Date.parse(row.started_at) : null,
});

export const TRIGGER_SECRET_PREFIX = "sops_";
export const newTriggerSecret = () => `${TRIGGER_SECRET_PREFIX}${newSecret(32)}`;
export const triggerBinding = (triggerId: string) => `sop_trigger:${triggerId}`;
export const callbackBinding = (sopId: string) => `sop_callback:${sopId}`;

export interface IssuedSecret {
  secret: string;
  triggerId: string;
  createdAt: string;
}

export function sopsOf(db: Db, workspaceId: string, box: SecretBox) {
  const sops = () => db.selectFrom("sops").where("workspace_id", "=", workspaceId);

  async function require(id: string): Promise<SopsTable> {
    const row = await sops().selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw notFound("No such SOP in this workspace");
    return row;
  }

  const slugTaken = () =>
    conflict("This slug is taken", [{ field: "slug", message: "This slug is taken: choose another" }]);

  return {
    async list(): Promise<
      (SopView & { triggerId: string | null; lastRun: { status: string; createdAt: string } | null })[]
    > {
      // One query: each SOP with its trigger and its latest run (the index on sop_runs(sop_id, created_at)).
      const rows = await db
        .selectFrom("sops")
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
        .where("sops.workspace_id", "=", workspaceId)
        .orderBy("sops.name")
        .execute();
      return rows.map(({ trigger_id, last_status, last_created_at, ...row }) => ({
        ...toView(row),
        triggerId: trigger_id,
        lastRun: last_status && last_created_at ? { status: last_status, createdAt: last_created_at } : null,
      }));
    },

    get: async (id: string) => toView(await require(id)),

    async create(fields: SopFieldsInput, steps: StoredStep[]): Promise<SopView> {
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
      try {
        await db.insertInto("sops").values(row).execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw slugTaken();
        throw error;
      }
      return toView(row);
    },

    async update(id: string, fields: SopFieldsInput, steps: StoredStep[]): Promise<SopView> {
      const current = await require(id);
      const clean = validateSteps(steps);
      // Clearing the callback URL drops its secret; setting one again makes a new secret.
      const secret = !fields.callbackUrl
        ? null
        : (current.callback_secret_enc ?? box.seal(generateWebhookSecret(), callbackBinding(id)));
      try {
        await db
          .updateTable("sops")
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
          .where("workspace_id", "=", workspaceId)
          .execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw slugTaken();
        throw error;
      }
      return toView(await require(id));
    },

    async setEnabled(id: string, enabled: boolean): Promise<void> {
      await require(id);
      await db
        .updateTable("sops")
        .set({ enabled: enabled ? 1 : 0, updated_at: isoNow() })
        .where("id", "=", id)
        .where("workspace_id", "=", workspaceId)
        .execute();
    },

    /**
     * Deletes the SOP with its trigger, runs, failures and deliveries (cascade). Jobs still queued for its
     * runs find nothing to do and finish.
     */
    async remove(id: string): Promise<void> {
      await require(id);
      await db.deleteFrom("sops").where("id", "=", id).where("workspace_id", "=", workspaceId).execute();
    },

    /** The completion notices' signing secret (admins see it in the console to verify deliveries). */
    async callbackSecret(id: string): Promise<string | null> {
      const row = await require(id);
      return row.callback_secret_enc ? box.open(row.callback_secret_enc, callbackBinding(id)) : null;
    },

    async trigger(sopId: string) {
      const row = await db
        .selectFrom("sop_triggers")
        .select(["id", "created_at", "secret_created_at", "failure_count", "last_used_at"])
        .where("sop_id", "=", sopId)
        .where("workspace_id", "=", workspaceId)
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

    async createTrigger(sopId: string): Promise<IssuedSecret> {
      await require(sopId);
      const secret = newTriggerSecret();
      const triggerId = newId();
      const createdAt = isoNow();
      try {
        await db
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
          .execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict("This SOP already has a trigger: rotate or delete it");
        throw error;
      }
      return { secret, triggerId, createdAt };
    },

    /** A new secret for the same trigger; the old one is refused from the next request on. */
    async rotateTrigger(sopId: string, triggerId: string): Promise<IssuedSecret> {
      const secret = newTriggerSecret();
      const createdAt = isoNow();
      const result = await db
        .updateTable("sop_triggers")
        .set({ secret_enc: box.seal(secret, triggerBinding(triggerId)), secret_created_at: createdAt })
        .where("id", "=", triggerId)
        .where("sop_id", "=", sopId)
        .where("workspace_id", "=", workspaceId)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw notFound("No such trigger on this SOP");
      return { secret, triggerId, createdAt };
    },

    async deleteTrigger(sopId: string, triggerId: string): Promise<void> {
      const result = await db
        .deleteFrom("sop_triggers")
        .where("id", "=", triggerId)
        .where("sop_id", "=", sopId)
        .where("workspace_id", "=", workspaceId)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw notFound("No such trigger on this SOP");
    },

    async runs(sopId: string, page: { size: number; offset: number }) {
      const base = db.selectFrom("sop_runs").where("sop_id", "=", sopId).where("workspace_id", "=", workspaceId);
      const [rows, total] = await Promise.all([
        base
          .selectAll()
          .orderBy("created_at", "desc")
          .orderBy("id", "desc")
          .limit(page.size)
          .offset(page.offset)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
      ]);
      return { runs: rows.map(runView), total: Number(total.n) };
    },

    async run(sopId: string, runId: string): Promise<RunView> {
      const row = await db
        .selectFrom("sop_runs")
        .selectAll()
        .where("id", "=", runId)
        .where("sop_id", "=", sopId)
        .where("workspace_id", "=", workspaceId)
        .executeTakeFirst();
      if (!row) throw notFound("No such run of this SOP");
      return runView(row);
    },

    /** Failed verifications per trigger: counts and the latest reasons. */
    async failures(sopId: string) {
      const rows = await db
        .selectFrom("sop_verification_failures")
        .select(["trigger_id", "reason", "ip", "created_at"])
        .where("sop_id", "=", sopId)
        .where("workspace_id", "=", workspaceId)
        .orderBy("created_at", "desc")
        .limit(20)
        .execute();
      const counts = await db
        .selectFrom("sop_verification_failures")
        .select(["trigger_id", (eb) => eb.fn.countAll<number>().as("n")])
        .where("sop_id", "=", sopId)
        .where("workspace_id", "=", workspaceId)
        .groupBy("trigger_id")
        .execute();
      return {
        counts: counts.map((c) => ({ triggerId: c.trigger_id, count: Number(c.n) })),
        latest: rows.map((r) => ({ triggerId: r.trigger_id, reason: r.reason, ip: r.ip, at: r.created_at })),
      };
    },

    async deliveries(sopId: string) {
      const rows = await db
        .selectFrom("webhook_deliveries")
        .select([
          "id",
          "run_id",
          "url",
          "event_type",
          "status",
          "attempts",
          "response_status",
          "last_error",
          "created_at",
          "delivered_at",
        ])
        .where("sop_id", "=", sopId)
        .where("workspace_id", "=", workspaceId)
        .orderBy("created_at", "desc")
        .limit(20)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        runId: r.run_id,
        url: r.url,
        eventType: r.event_type,
        status: r.status,
        attempts: r.attempts,
        responseStatus: r.response_status,
        lastError: r.last_error,
        createdAt: r.created_at,
        deliveredAt: r.delivered_at,
      }));
    },
  };
}

export type SopsRepo = ReturnType<typeof sopsOf>;

/**
 * The workspace a SOP belongs to, for the access check of /api/sops/{id}/… (which then requires membership
 * there): the one other lookup by id alone, and it returns nothing of the SOP itself.
 */
export async function workspaceOfSop(db: Db, sopId: string): Promise<string | undefined> {
  const row = await db.selectFrom("sops").select("workspace_id").where("id", "=", sopId).executeTakeFirst();
  return row?.workspace_id;
}

/** The trigger path's lookup: by id or slug, across the deployment (slugs are unique for this reason). */
export function findSopForTrigger(db: Db, ref: string) {
  return db
    .selectFrom("sops")
    .leftJoin("sop_triggers", "sop_triggers.sop_id", "sops.id")
    .select([
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
