// /settings/sops/{id} — one SOP: its definition and step editor, its trigger (secret shown once, with signing
// examples; rotate, delete), failed verifications, runs and completion notices. Admins write; everyone reads.
// A route folder: this file is the route (loader, action, page); its panels are the other files beside it.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { type FormValues, parseForm, runForm } from "~/lib/forms.server";
import { invalid } from "~/lib/errors";
import { now } from "~/lib/clock.server";
import { page } from "~/lib/routes.server";
import { runsOf } from "~/modules/sops/sop-runs.server";
import { triggersOf } from "~/modules/sops/sop-triggers.server";
import { ROTATE_AFTER_DAYS, parseSopForm, sopsOf, stepsFromForm } from "~/modules/sops/sops.server";
import { STEP_TYPES } from "~/modules/sops/steps/registry.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { FormMessage } from "~/ui/form";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { DangerPanel } from "./danger-panel";
import { DefinitionPanel } from "./definition-panel";
import { NewSecret } from "./new-secret";
import { NoticesPanel } from "./notices-panel";
import { RunsPanel } from "./runs-panel";
import { TriggerPanel } from "./trigger-panel";
import type { Draft, SopResult } from "./types";
import { publicOrigin } from "~/modules/hosts/hosts.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.sop.name ?? "SOP"} · SOPs · Atrium` },
];

const RUNS_PER_PAGE = 10;
const DAY = 86_400_000;

// Another workspace's SOP, or a deleted one, is a 404 (page() maps the not-found).
export const loader = page("operator", async ({ request, context, params }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context);
  const { db, secrets } = context.services;
  const sops = sopsOf(db, workspace.id, secrets);
  const triggers = triggersOf(db, workspace.id, secrets);
  const runs = runsOf(db, workspace.id);
  const sop = await sops.get(params.sopId!);
  const url = new URL(request.url);
  const { page, ...window } = pageOf(request, RUNS_PER_PAGE);
  const canEdit = roleAtLeast(role, "admin");
  const [trigger, failures, runPage, deliveries, callbackSecret] = await Promise.all([
    triggers.ofSop(sop.id),
    triggers.failures(sop.id),
    runs.list(sop.id, window),
    runs.deliveries(sop.id),
    // A secret sealed under another app key does not open: the page says so instead of failing.
    canEdit ? sops.callbackSecret(sop.id).catch(() => "unreadable" as const) : Promise.resolve(null),
  ]);
  const at = now().getTime();
  return {
    sop,
    canEdit,
    created: url.searchParams.has("created"),
    trigger: trigger && {
      ...trigger,
      secretAgeDays: Math.floor((at - Date.parse(trigger.secretCreatedAt)) / DAY),
    },
    rotateAfterDays: ROTATE_AFTER_DAYS,
    failures,
    runs: runPage.runs,
    page,
    pages: pageCount(runPage.total, RUNS_PER_PAGE),
    deliveries,
    callbackSecret,
    stepTypes: STEP_TYPES,
    triggerUrl: `${await publicOrigin(request, context)}/api/sops/${sop.slug}/trigger`,
  };
});
const draftOf = (values: FormValues): Draft => ({
  name: values.name ?? "",
  slug: values.slug ?? "",
  description: values.description ?? "",
  callbackUrl: values.callbackUrl ?? "",
  steps: stepsFromForm(values),
});

/** Add, remove and reorder only change the draft on the page; Save validates and stores it. */
function editDraft(intent: string, values: FormValues): Draft | null {
  const draft = draftOf(values);
  const [verb, index] = intent.split(":");
  const i = Number(index);
  if (verb === "add-step") {
    const type = STEP_TYPES.find((t) => t.type === values.newStepType);
    if (!type) throw invalid("Choose a step type");
    draft.steps.push({ type: type.type });
  } else if (verb === "remove-step" && draft.steps[i]) {
    draft.steps.splice(i, 1);
  } else if (verb === "up-step" && i > 0 && draft.steps[i]) {
    [draft.steps[i - 1], draft.steps[i]] = [draft.steps[i]!, draft.steps[i - 1]!];
  } else {
    return null;
  }
  return draft;
}

const ConfirmDelete = z.object({ confirm: z.string() });

export const action = page("operator", async ({ request, context, params }: ActionFunctionArgs) => {
  const { workspace, session } = await requireWorkspace(request, context, "admin");
  const { db, secrets } = context.services;
  const sops = sopsOf(db, workspace.id, secrets);
  const triggers = triggersOf(db, workspace.id, secrets);
  const sop = await sops.get(params.sopId!);
  const actor = { userId: session.user.id, ip: context.request.ip };

  return runForm(
    request,
    context,
    async (values): Promise<SopResult> => {
      const intent = values.intent ?? "";
      const edited = editDraft(intent, values);
      if (edited) return { ok: true, intent: "edit", draft: edited, message: "Unsaved changes: save to keep them." };
      switch (intent) {
        case "save": {
          const { fields, steps } = parseSopForm(values, { requireHttps: context.services.env.production });
          await sops.update(actor, sop.id, fields, steps);
          return { ok: true, intent: "edit", message: "Saved." };
        }
        case "enable":
        case "disable":
          await sops.setEnabled(actor, sop.id, intent === "enable");
          return {
            ok: true,
            intent: "status",
            message: intent === "enable" ? "Enabled: triggers are accepted." : "Disabled: triggers are refused (409).",
          };
        case "delete": {
          if (parseForm(ConfirmDelete, values).confirm.trim() !== sop.slug) {
            throw invalid("Type the SOP's slug to confirm", [
              { field: "confirm", message: `Type ${sop.slug} to confirm` },
            ]);
          }
          await sops.remove(actor, sop.id);
          throw redirect("/settings/sops");
        }
        case "create-trigger": {
          const issued = await triggers.create(actor, sop.id);
          return { ok: true, intent: "trigger", issued };
        }
        case "rotate-trigger": {
          const issued = await triggers.rotate(actor, sop.id, values.triggerId ?? "");
          return { ok: true, intent: "trigger", issued };
        }
        case "delete-trigger":
          await triggers.remove(actor, sop.id, values.triggerId ?? "");
          return {
            ok: true,
            intent: "trigger",
            message: "Trigger deleted: signed requests are refused until you create another.",
          };
        default:
          throw invalid("Unknown action");
      }
    },
    // A refused save shows the editor again with what was typed, not what is stored.
    (values) => (values.intent === "save" ? { intent: "edit", draft: draftOf(values) } : {}),
  );
});

export default function Sop() {
  const { sop, created, triggerUrl } = useLoaderData<typeof loader>();
  const result = useActionData<SopResult>();
  return (
    <>
      <p>
        <Link to="/settings/sops">All SOPs</Link>
      </p>
      <h1>{sop.name}</h1>
      <p>
        <code>{sop.slug}</code>
        {` · ${sop.enabled ? "Enabled" : "Disabled"}`}
        {sop.description ? ` · ${sop.description}` : ""}
      </p>
      {created && !result ? (
        <FormMessage message="SOP created. Add its steps, then create a trigger." tone="success" />
      ) : null}
      {result?.issued ? <NewSecret issued={result.issued} triggerUrl={triggerUrl} /> : null}
      {result && !result.ok && !["edit"].includes(result.intent ?? "") && !result.fieldErrors?.confirm ? (
        <FormMessage message={result.message} />
      ) : null}
      <TriggerPanel />
      <DefinitionPanel />
      <RunsPanel />
      <NoticesPanel />
      <DangerPanel />
    </>
  );
}
